#!/bin/bash
# The emulated phone (phone-cpufreq) in the debug kernel, and under icount
# in the release kernel (make run's).
#
# One boot with phone_cpufreq.enable=1 runs every program of tests/phone/
# (built into build/guest/phone-tests/ by "make guest"); their TAP lines
# are passed through as sub-tests. Then one boot for each kind of bad
# command-line configuration: the kernel must say what is wrong, and fall
# back to the default phone; those boots are not under icount, and the
# driver must say that its slowdown law does not hold there. A kernel
# without the driver fails all of it.
#
# The tests boot in deterministic mode (tools/vm --deterministic: guest
# time follows executed instructions): the slowdown law is a 10% bound,
# and the host's load must not decide it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

show() { sed 's/^/# /' "$@" | tail -20; }

# the default phone, and the tests
FRAMESCHED_VM_CONSOLE=$d/console tools/vm --deterministic --timeout 900 \
	--append "phone_cpufreq.enable=1" -- sh -c '
	rc=0
	for t in build/guest/phone-tests/*; do
		[ -x "$t" ] || continue
		echo "# -- $t"
		"$t" || rc=1
	done
	exit $rc' >"$d/out" 2>&1
vm_rc=$?
sed 's/^/    /' "$d/out"
check "phone tests pass in a boot with phone_cpufreq.enable=1" \
	eval '[ $vm_rc -eq 0 ] || { show "$d/console"; false; }'
check "under icount (tools/vm --deterministic) the driver does not warn about guest time" \
	eval '! grep -q "phone-cpufreq: guest time not counted" "$d/console" ||
	      { grep "phone-cpufreq" "$d/console" | sed "s/^/# /"; false; }'

# bad_config CFG CLUSTERS MESSAGE: refused with MESSAGE, default phone used
# (not "name": check() has a local of that name, which eval would see)
bad_config() {
	local cfg=$1 clusters=$2 msg=$3
	FRAMESCHED_VM_CONSOLE=$d/console-$cfg tools/vm --timeout 300 \
		--append "phone_cpufreq.enable=1 phone_cpufreq.cluster=$clusters" -- \
		sh -c 'cat /sys/devices/system/cpu/cpufreq/policy*/scaling_available_frequencies
		       cat /sys/devices/system/cpu/cpu*/cpu_capacity' >"$d/$cfg" 2>&1
	check "bad configuration ($cfg) is refused with a clear message" \
		eval 'grep -q "phone-cpufreq: .*$msg" "$d/console-$cfg" &&
		      grep -q "using the default phone" "$d/console-$cfg" ||
		      { show "$d/console-$cfg"; false; }'
	check "bad configuration ($cfg), booted without icount: the driver warns that the law does not hold" \
		eval 'grep -q "phone-cpufreq: guest time not counted in instructions" "$d/console-$cfg" ||
		      { show "$d/console-$cfg"; false; }'
	check "bad configuration ($cfg): the default phone runs instead" \
		eval 'grep -qx "300000 600000 900000 1200000 1500000 1800000 *" "$d/$cfg" &&
		      [ "$(grep -cx 450 "$d/$cfg")" = 2 ] &&
		      [ "$(grep -cx 1024 "$d/$cfg")" = 2 ] || { show "$d/$cfg"; false; }'
}
good="cpus:2-3;capacity:1024;opp:500000/650;opp:2800000/1100"
bad_config unsorted_opps "cpus:0-1;capacity:450;opp:900000/700;opp:600000/660,$good" \
	"is not above opp 0"
bad_config unknown_cpu "cpus:0-1;capacity:450;opp:300000/600,cpus:2-5;capacity:1024;opp:500000/650" \
	"no such CPU"
bad_config zero_capacity "cpus:0-1;capacity:0;opp:300000/600,$good" \
	"capacity 0: expected 1..1024"
bad_config too_slow "cpus:0-1;capacity:40;opp:300000/600;opp:1800000/1000,$good" \
	"too slow to emulate"

# the phone under icount as make run boots it (tools/vm --deterministic
# --phone: dilation 8, short steal rounds, the release kernel): busy CPUs
# run in parallel, a short job keeps the slowdown law, kernel work keeps
# its calibration and no steal's halt outlasts its round by much;
# tests/phone/dilation.c skips in the boot above, runs here (the
# announcement is pr_info, below the console's loglevel: read dmesg). The
# release kernel because its figures are make run's: the debug kernel's
# interrupts cost each 25 us run slot more (lockdep), and make check
# builds both.
release=${FRAMESCHED_RELEASE_KERNEL:-build/linux-release/arch/x86/boot/bzImage}
[ -f "$release" ] || echo "# no release kernel $release (tools/kernel-build release builds it)" >&2
FRAMESCHED_VM_CONSOLE=$d/console-dilated tools/vm --deterministic --phone --timeout 600 \
	--kernel "$release" -- sh -c '
	dmesg | grep "phone-cpufreq: .*dilated" | sed "s/^/# dmesg: /"
	exec build/guest/phone-tests/dilation 2>&1' >"$d/dilated" 2>&1
vm_rc=$?
sed 's/^/    /' "$d/dilated"
check "phone under icount (release kernel): busy CPUs run in parallel, short jobs keep the law, kernel work its calibration, no long halt" \
	eval '[ $vm_rc -eq 0 ] && grep -q "^1\.\.6$" "$d/dilated" && ! grep -q "^not ok" "$d/dilated" || { show "$d/console-dilated"; false; }'
check "phone under icount: the dilation is announced in the kernel log" \
	eval 'grep -q "# dmesg: .*phone-cpufreq: big: dilated 8 times: at fmax a CPU gets 128/1024" "$d/dilated" ||
	      { show "$d/dilated"; false; }'
FRAMESCHED_VM_CONSOLE=$d/console-dil9 tools/vm --timeout 300 \
	--append "phone_cpufreq.enable=1 phone_cpufreq.dilation=9 phone_cpufreq.min_run_us=5" -- \
	cat /sys/module/phone_cpufreq/parameters/dilation \
	/sys/module/phone_cpufreq/parameters/min_run_us >"$d/dil9" 2>&1
check "dilation 9 is refused with a clear message, and 1 used" \
	eval 'grep -q "phone-cpufreq: dilation=9: expected 1..8, using 1" "$d/console-dil9" &&
	      grep -qx 1 "$d/dil9" || { show "$d/console-dil9"; show "$d/dil9"; false; }'
check "min_run_us 5 is refused with a clear message, and 500 used" \
	eval 'grep -q "phone-cpufreq: min_run_us=5: expected 10..1000, using 500" "$d/console-dil9" &&
	      grep -qx 500 "$d/dil9" || { show "$d/console-dil9"; show "$d/dil9"; false; }'
done_testing
