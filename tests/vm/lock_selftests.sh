#!/bin/bash
# The kernel's own locking self-tests, in one boot of the debug kernel:
# the boot-time locking API selftests (DEBUG_LOCKING_API_SELFTESTS, which
# cover spinlocks, rwlocks, mutexes and ww_mutexes under lockdep) and the
# test-ww_mutex module (wait-die and wound-wait: deadlock back-off, ABBA,
# cycles, stress). Any splat during either fails the boot (tools/vm).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

tools/vm --out "$d" --timeout 900 -- sh -c '
	dmesg >"$1/boot.log"
	dmesg -C
	modprobe test-ww_mutex
	echo "modprobe=$?" >"$1/ww.rc"
	dmesg >"$1/ww.log"' sh "$d" >"$d/out" 2>&1
vm_rc=$?

show() { sed 's/^/# /' "$@" | tail -20; }
check "boot-time locking API selftests: all passed" \
	eval 'grep -Eq "Good, all +[0-9]+ testcases passed" "$d/boot.log" ||
		{ grep -E "unexpected failures|FAILED" "$d/boot.log" | show; false; }'
check "test-ww_mutex loads (its init runs every test)" grep -qx "modprobe=0" "$d/ww.rc"
check "test-ww_mutex: all ww mutex selftests passed" \
	eval 'grep -q "All ww mutex selftests passed" "$d/ww.log" || { show "$d/ww.log"; false; }'
check "the guest kernel stayed clean" eval '[ $vm_rc -eq 0 ] || { show "$d/out"; false; }'
done_testing
