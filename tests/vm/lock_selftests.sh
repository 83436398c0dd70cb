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

# With proxy execution (patch series), test-ww_mutex runs a second time
# while PROXY_EXEC flips on and off every 20 ms: the switch must be safe
# at any moment, with waiters queued, parked or moved.
f=/sys/kernel/debug/sched/features
tools/vm --out "$d" --timeout 900 -- sh -c '
	dmesg >"$1/boot.log"
	dmesg -C
	modprobe test-ww_mutex
	echo "modprobe=$?" >"$1/ww.rc"
	dmesg >"$1/ww.log"
	rmmod test-ww_mutex
	grep -qw PROXY_EXEC '"$f"' || { echo absent >"$1/flip.rc"; exit 0; }
	dmesg -C
	tools/flip-sched-feature PROXY_EXEC -- modprobe test-ww_mutex
	echo "modprobe=$?" >"$1/flip.rc"
	dmesg >"$1/flip.log"' sh "$d" >"$d/out" 2>&1
vm_rc=$?

show() { sed 's/^/# /' "$@" | tail -20; }
# What tools/vm said about a failed boot (its "vm:" lines: the problem it
# saw, a timeout), then the end of the console: the console's last lines
# alone do not say why the guest stopped.
show_vm() {
	grep '^vm:' "$d/out" | grep -v '^vm:   \[' | head -5 | sed 's/^/# /'
	grep '^vm:   \[' "$d/out" | head -8 | sed 's/^/# /'
	show "$d/out"
}
# a file the guest should have written; if it is missing, say so
need() {
	[ -e "$1" ] && return 0
	echo "# no $(basename "$1"): the guest command did not get that far (see the last check)"
	return 1
}
check "boot-time locking API selftests: all passed" \
	eval 'need "$d/boot.log" && grep -Eq "Good, all +[0-9]+ testcases passed" "$d/boot.log" ||
		{ grep -E "unexpected failures|FAILED" "$d/boot.log" | show; false; }'
check "test-ww_mutex loads (its init runs every test)" \
	eval 'need "$d/ww.rc" && grep -qx "modprobe=0" "$d/ww.rc"'
check "test-ww_mutex: all ww mutex selftests passed" \
	eval 'need "$d/ww.log" && grep -q "All ww mutex selftests passed" "$d/ww.log" ||
		{ [ ! -e "$d/ww.log" ] || show "$d/ww.log"; false; }'
if grep -qx absent "$d/flip.rc" 2>/dev/null; then
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - test-ww_mutex while PROXY_EXEC flips # SKIP no PROXY_EXEC in this kernel"
else
	check "test-ww_mutex while PROXY_EXEC flips: all passed" \
		eval 'need "$d/flip.rc" && grep -qx "modprobe=0" "$d/flip.rc" &&
			grep -q "All ww mutex selftests passed" "$d/flip.log" ||
			{ [ ! -e "$d/flip.log" ] || show "$d/flip.log"; false; }'
fi
check "the guest kernel stayed clean" \
	eval '[ $vm_rc -eq 0 ] || { echo "# tools/vm exited $vm_rc"; show_vm; false; }'
done_testing
