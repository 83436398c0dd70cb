#!/bin/bash
# Every tool takes -h/--help: usage on stdout, exit 0.
# (The guest programs under build/ need the guest: not here.)
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
for t in tools/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	case "$t" in tools/vm-init) continue ;; esac	# the guest's init
	check "$t --help: usage on stdout, exit 0" eval \
		'out=$("$t" --help 2>/dev/null) && [ -n "$out" ]'
done
done_testing
