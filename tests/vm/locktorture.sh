#!/bin/bash
# locktorture on the debug kernel (lockdep on): each lock type for
# FRAMESCHED_TORTURE_S seconds (default 20) in one boot. A type passes when
# rmmod's final report says "End of test: SUCCESS"; any splat fails the
# boot (tools/vm). "make soak" will run the same for longer.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
secs=${FRAMESCHED_TORTURE_S:-20}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# torture_type and extra module parameters, one run a line. For mutex_lock
# only rt_boost=2 boosts writers (rt_boost=1 is rtmutex-only): waiters that
# are SCHED_FIFO part of the time and preempted owners make waiters sleep
# and go through the wake_q paths; all-FIFO writers (writer_fifo=1) only
# spin. Checked: a kernel whose mutex unlock drops the wakeup of RT waiters
# fails here in about a minute (hung task, hung_task_panic).
#
# "flip" in front: a background loop switches the PROXY_EXEC sched feature
# (proxy execution) off and on every 20 ms during the run; skipped on a
# kernel without it (check-series on the early patches).
runs='mutex_lock rt_boost=2 rt_boost_factor=50 nested_locks=3
mutex_lock rt_boost=0
rtmutex_lock rt_boost=1
ww_mutex_lock
rwsem_lock
flip mutex_lock rt_boost=2 rt_boost_factor=50 nested_locks=3
flip ww_mutex_lock'
f=/sys/kernel/debug/sched/features

tools/vm --out "$d" --timeout $((secs * 10 + 300)) -- sh -c '
	i=0
	echo "$1" | while read -r type params; do
		i=$((i + 1))
		flip=
		if [ "$type" = flip ]; then
			set -- $params; type=$1; shift; params="$*"
			grep -qw PROXY_EXEC '"$f"' || { echo absent >"'"$d"'/run$i.log"; continue; }
			flip="tools/flip-sched-feature PROXY_EXEC --"
		fi
		dmesg -C
		$flip sh -c "modprobe locktorture torture_type=$type $params stat_interval=0 verbose=0 || exit 1
			sleep '"$secs"'; rmmod locktorture; exit 0" || exit 1
		dmesg >"'"$d"'/run$i.log"
	done' sh "$runs" >"$d/out" 2>&1
vm_rc=$?

i=0
while read -r type params; do
	i=$((i + 1))
	name="locktorture $type${params:+ $params} (${secs} s)"
	if grep -qx absent "$d/run$i.log" 2>/dev/null; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - $name # SKIP no PROXY_EXEC in this kernel"
		continue
	fi
	check "$name" grep -q "End of test: SUCCESS" "$d/run$i.log"
done <<<"$runs"
check "the guest kernel stayed clean" eval '[ $vm_rc -eq 0 ] || { sed "s/^/# /" "$d/out" | tail -20; false; }'
done_testing
