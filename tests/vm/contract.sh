#!/bin/bash
# The tools/vm contract, on the debug kernel: the command runs as root over
# the host's root file system, its status and output come back, --out is
# writable, modules load, and a crash, a kernel warning or a hang fail the
# run even when the command itself "succeeded".
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# One boot for the things that can share it.
tools/vm --out "$d" -- sh -c '
	uname -r
	echo "cpus=$(nproc)"
	id -u >'"$d"'/uid
	echo to-stderr >&2
	test -r /etc/debian_version && echo host-root
	test -w /proc/sys/kernel/sched_rt_runtime_us && echo procsys-writable
	test -d /sys/kernel/debug/sched && echo debugfs
	test -f /sys/fs/cgroup/cgroup.controllers && echo cgroup2
	touch /etc/should-fail 2>/dev/null || echo root-readonly
	modprobe test-ww_mutex && grep -q "^test_ww_mutex " /proc/modules && echo modprobe
	exit 7' >"$d/stdout" 2>"$d/stderr"
rc=$?
has() { grep -qx "$1" "$d/stdout"; }
check "exit status comes back (7)" [ $rc -eq 7 ]
# not 7: tools/vm said why on stderr (a splat, a hang: the console's tail)
[ $rc -eq 7 ] || sed 's/^/# /' "$d/stderr" | tail -60
check "uname -r is 6.12.*" grep -qE '^6\.12\.' "$d/stdout"
check "the guest has --smp CPUs (4 by default)" has cpus=4
check "runs as root" grep -qx 0 "$d/uid"
check "stderr is kept apart" eval 'grep -qx to-stderr "$d/stderr" && ! grep -q to-stderr "$d/stdout"'
check "host root file system is visible" has host-root
check "host root file system is read-only" has root-readonly
check "/proc/sys is writable" has procsys-writable
check "debugfs is mounted" has debugfs
check "cgroup2 is mounted" has cgroup2
check "modprobe loads a module of the built kernel" has modprobe

# A checkout or working directory under /tmp stays visible, although the
# guest mounts a tmpfs on /tmp.
mkdir -p "$d/cwd" && echo visible >"$d/cwd/file"
(cd "$d/cwd" && "$OLDPWD/tools/vm" -- sh -c 'cat file; touch /tmp/new && echo tmp-writable') >"$d/cwd.out" 2>&1
check "a working directory under /tmp is visible" grep -qx visible "$d/cwd.out"
check "/tmp is writable" grep -qx tmp-writable "$d/cwd.out"

tools/vm -- false >/dev/null 2>&1
check "false exits 1" [ $? -eq 1 ]

tools/vm --timeout 120 -- sh -c 'echo c >/proc/sysrq-trigger' >/dev/null 2>"$d/crash"
rc=$?
check "a kernel crash fails the run" eval '[ $rc -ne 0 ] && grep -q "sysrq triggered crash" "$d/crash"'

tools/vm --timeout 60 -- sh -c 'echo l >/proc/sysrq-trigger; true' >/dev/null 2>"$d/trace"
rc=$?
check "a kernel backtrace fails a command that exited 0" eval '[ $rc -ne 0 ] && grep -q "reported a problem" "$d/trace"'

tools/vm --timeout 20 -- sleep 300 >/dev/null 2>&1
check "a hanging command times out (124)" [ $? -eq 124 ]
done_testing
