#!/bin/bash
# tools/trace-spin-overrun on a made-up guest trace whose answer is known:
# sample 0, the waiter (prio -1) spins from 1.000, the owner (prio 139) is
# preempted on CPU 1 at 1.002 and the waiter blocks at 1.0035: an overrun
# of 1500 us, 100 us after a timer interrupt on its CPU; sample 1, the
# waiter spins and blocks while the owner still runs: no overrun. The trace_marker lines come both ways a kernel prints
# them (with and without kallsyms). The summary takes the overrun out;
# a trace without marker lines is refused with its name.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

sw() { # CPU TS PREV_PID PREV_PRIO STATE NEXT_PID
	printf '  inversion-%s [%03d] d..2. %s: sched_switch: prev_comm=inversion prev_pid=%s prev_prio=%s prev_state=%s ==> next_comm=inversion next_pid=%s next_prio=120\n' \
		"$3" "$1" "$2" "$3" "$4" "$5" "$6"
}
cb() { # CPU TS PID FLAGS
	printf '  inversion-%s [%03d] ...1. %s: contention_begin: 00000000deadbeef (flags=%s)\n' \
		"$3" "$1" "$2" "$4"
}
{
	echo "# tracer: nop"
	cb 0 1.000000 72 'SPIN|MUTEX'
	sw 1 1.002000 71 139 R+ 70
	echo '  inversion-72 [000] d.h1. 1.003400: local_timer_entry: vector=236'
	cb 0 1.003500 72 MUTEX
	sw 0 1.003510 72 -1 D 0
	echo '  inversion-63 [000] ..... 1.020000: tracing_mark_write: inversion: dl hogs=fifo m=2 sample 0 wait_us=11600 late_us=20 own_us=10000'
	cb 0 2.000000 72 'SPIN|MUTEX'
	cb 0 2.000500 72 MUTEX
	sw 0 2.000510 72 -1 D 0
	sw 1 2.004000 71 139 R+ 70
	echo '  inversion-63 [000] ..... 2.020000: 0xffffffff810df194: inversion: dl hogs=fifo m=2 sample 1 wait_us=10000 late_us=20 own_us=10000'
} >"$d/trace.txt"

out=$(tools/trace-spin-overrun "$d/trace.txt" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
check "exit 0" test $rc -eq 0
check "sample 0: excess 1600 us, of which 1500 us spinning on a preempted owner" \
	eval 'echo "$out" | grep -Eq "^dl +fifo +2 +0 +0 +11600 +10000 +1600 +1500 +100  yes$"'
check "sample 1: blocked before the owner's preemption, no overrun" \
	eval 'echo "$out" | grep -Eq "^dl +fifo +2 +0 +1 +10000 +10000 +0 +0 +-  yes$"'
check "summary: wait/own p99 1.16, without the overrun 1.01" \
	eval 'echo "$out" | grep -q "wait/own p50 .* p99 1.16; (wait - overrun)/own p50 .* p99 1.01"'
check "over all points: 1 overrun in 2 samples, 1 block after a spin timed from a tick" \
	eval 'echo "$out" | grep -q "^run 0, all points: overrun in 1 of 2 samples, p50 1500 p90 1500 max 1500 us; 1 blocks after a spin, 100 to 100 us after a timer interrupt"'
grep -v inversion: "$d/trace.txt" >"$d/nomarks.txt"
check "a trace without the instrument's marker lines is refused, named" \
	eval '! tools/trace-spin-overrun "$d/nomarks.txt" 2>"$d/err" && grep -q "nomarks.txt: no samples" "$d/err"'
done_testing
