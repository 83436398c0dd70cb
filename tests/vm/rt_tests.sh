#!/bin/bash
# rt-tests on the debug kernel with proxy execution on: pi_stress
# (priority-inheritance inversion groups on futex PI mutexes: a broken
# wakeup or a priority left boosted stalls a group, and pi_stress exits
# non-zero) and cyclictest (SCHED_FIFO 90 timer threads) run while
# locktorture hammers kernel mutexes with boosted writers, the way
# upstream tested proxy execution. The kernel's checks (lockdep, hung
# tasks, any splat: tools/vm) judge as much as the exit statuses.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
secs=${FRAMESCHED_RT_TESTS_S:-15}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

tools/vm --out "$d" --timeout $((secs * 4 + 300)) -- sh -c '
	f=/sys/kernel/debug/sched/features
	grep -qw PROXY_EXEC $f && echo PROXY_EXEC >$f
	grep -ow "NO_PROXY_EXEC\|PROXY_EXEC" $f >"$1/feature"
	modprobe locktorture torture_type=mutex_lock rt_boost=2 rt_boost_factor=50 \
		nested_locks=3 stat_interval=0 verbose=0 || exit 1
	cyclictest -t -p90 -i 1000 -D '"$secs"' -q >"$1/cyclictest.out" 2>&1 &
	c=$!
	pi_stress --duration='"$secs"' --groups=2 --quiet >"$1/pi_stress.out" 2>&1
	echo "pi_stress=$?" >"$1/rc"
	wait $c
	echo "cyclictest=$?" >>"$1/rc"
	rmmod locktorture
	dmesg | grep -c "End of test: SUCCESS" >"$1/torture"' sh "$d" >"$d/out" 2>&1
vm_rc=$?

show() { sed 's/^/# /' "$@" | tail -15; }
check "proxy execution is on" grep -qx PROXY_EXEC "$d/feature"
check "pi_stress (${secs} s, 2 groups) beside locktorture" \
	eval 'grep -qx "pi_stress=0" "$d/rc" || { show "$d/pi_stress.out"; false; }'
check "cyclictest -p90 (${secs} s) beside locktorture" \
	eval 'grep -qx "cyclictest=0" "$d/rc" || { show "$d/cyclictest.out"; false; }'
check "locktorture mutex_lock rt_boost=2 alongside: SUCCESS" grep -qx 1 "$d/torture"
check "the guest kernel stayed clean" eval '[ $vm_rc -eq 0 ] || { show "$d/out"; false; }'
done_testing
