#!/bin/bash
# tools/flip-sched-feature on the host: bad arguments get the usage, and
# good ones are refused outside a tools/vm guest, before anything is
# written (it would switch the host kernel's sched features). Its work in
# the guest is tested by tests/vm/lock_selftests.sh and locktorture.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
t=tools/flip-sched-feature
f=/sys/kernel/debug/sched/features
before=$(cat $f 2>/dev/null)

out=$($t PROXY_EXEC true 2>&1); rc=$?
check "no -- before the command: usage, status 2" \
	test $rc -eq 2 -a -n "$(grep usage: <<<"$out")"
out=$($t PLACE_LAG -- true 2>&1); rc=$?
check "on the host: refused with status 2, saying why" \
	test $rc -eq 2 -a -n "$(grep 'not in a tools/vm guest' <<<"$out")"
check "on the host: the sched features are untouched" \
	test "$(cat $f 2>/dev/null)" = "$before"
out=$($t -h 2>&1); rc=$?
check "-h prints the usage line" \
	test $rc -eq 0 -a -n "$(grep 'flip-sched-feature \[-i INTERVAL\] FEATURE -- COMMAND' <<<"$out")"

done_testing
