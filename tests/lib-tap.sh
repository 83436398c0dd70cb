# Sourced by shell tests: TAP output. check NAME CMD... runs CMD and
# reports "ok N - NAME" or "not ok N - NAME"; done_testing prints the plan
# and exits non-zero if anything failed.
tap_n=0
tap_failed=0
echo "TAP version 13"

check() {
	local name=$1
	shift
	tap_n=$((tap_n + 1))
	if "$@"; then
		echo "ok $tap_n - $name"
	else
		echo "not ok $tap_n - $name"
		tap_failed=$((tap_failed + 1))
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
