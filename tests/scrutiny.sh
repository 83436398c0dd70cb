#!/bin/bash
# The scrutiny kernel (tools/kernel-build scrutiny: the debug kernel's
# lockdep and mutex debugging plus KASAN, UBSAN, kmemleak, PROVE_RCU,
# schedstats, PSI, CFS bandwidth) runs the tests of the code that changes
# the scheduler's and the mutexes' state: proxy execution (the inversion
# instrument's scenarios with PROXY_EXEC on and off, the PSI, parking,
# switching and push tests), SCHED_DEADLINE tokens and the bandwidth
# release, then locktorture (FRAMESCHED_TORTURE_S seconds a type, default
# 20) with PROXY_EXEC flipping. Any report in the console (tools/vm-scan-log:
# KASAN, UBSAN, lockdep, WARNING, BUG, RCU stall) fails the boot; at the end
# kmemleak scans, and an unreferenced object whose backtrace passes through
# the scheduler, the mutexes, the tokens or the test modules fails too.
# "make scrutiny" builds the kernel and runs this.
cd "$(dirname "$0")/.." || exit 1
. tests/lib-tap.sh
kernel=build/linux-scrutiny/arch/x86/boot/bzImage
[ -f "$kernel" ] || { echo "scrutiny: no $kernel (tools/kernel-build scrutiny)" >&2; exit 2; }
export FRAMESCHED_KERNEL=$kernel
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

tests='proxy_psi proxy_park_exit proxy_switch proxy_push_stall proxy_dl_budget
proxy_moved_donor proxy_handoff_starving inversion dl_token dl_token_swap dl_leave_asleep'

# KASAN's shadow and kmemleak's pool want more than the default 1 GiB
tools/vm --mem 2048 --out "$d" --timeout 3600 -- sh -c '
	rc=0
	for t in $1; do
		echo "# -- $t"
		build/guest/tests/$t >"'"$d"'/$t.tap" 2>&1 || rc=1
		tail -n 3 "'"$d"'/$t.tap" | sed "s/^/# /"
	done
	echo scan >/sys/kernel/debug/kmemleak || echo missing >"'"$d"'/kmemleak-missing"
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >"'"$d"'/kmemleak"
	exit $rc' sh "$tests" >"$d/out" 2>&1
vm_rc=$?
sed 's/^/    /' "$d/out"
for t in $tests; do
	check "scrutiny: $t passes" grep -q "^# PASSED" "$d/$t.tap"
done
leaks=$(grep -c "^unreferenced object" "$d/kmemleak" 2>/dev/null)
ours=$(awk '/^unreferenced object/ { o = $0 } /dl_token|proxy|mutex|sched|framesched|inversion|display/ && o { print o; o = "" }' \
	"$d/kmemleak" 2>/dev/null | wc -l)
echo "# kmemleak: ${leaks:-0} unreferenced object(s), $ours with a backtrace through the scheduler, the mutexes or the test modules"
check "scrutiny: kmemleak scanned" [ ! -e "$d/kmemleak-missing" ]
check "scrutiny: kmemleak finds nothing of ours" [ "$ours" -eq 0 ]
# tools/vm: 124 timed out, 125 the kernel reported a problem, 126 the
# guest stopped early; 1 is a failed test, counted above
check "scrutiny: the guest kernel stayed clean (no KASAN, UBSAN, lockdep or WARNING report)" \
	eval '[ $vm_rc -lt 124 ] || { tail -20 "$d/out" | sed "s/^/# /"; false; }'
tests/vm/locktorture.sh >"$d/locktorture" 2>&1
lt_rc=$?
sed 's/^/    /' "$d/locktorture"
check "scrutiny: locktorture, PROXY_EXEC flipping in two runs" [ $lt_rc -eq 0 ]
done_testing
