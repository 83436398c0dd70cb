#!/bin/bash
# tools/vm refuses bad arguments with exit 2 and a message naming the
# problem, before booting anything.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh

# refused EXPECTED-TEXT ARGS...: exit 2 and EXPECTED-TEXT on stderr
refused() {
	local want=$1 err rc
	shift
	err=$(tools/vm "$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && [[ $err == *"$want"* ]] ||
		{ echo "# tools/vm $*: rc=$rc, stderr: $err"; return 1; }
}

check "no command" refused "no command given"
check "unknown option" refused "unknown option '--frobnicate'" --frobnicate -- true
check "--smp not a number" refused "--smp: expected a CPU count" --smp many -- true
check "--smp zero" refused "--smp: expected a CPU count" --smp 0 -- true
check "--mem too small" refused "--mem: expected MiB >= 256" --mem 16 -- true
check "--timeout missing value" refused "option --timeout needs a value" --timeout
check "missing kernel" refused "kernel '/nonexistent/bzImage' not found" \
	--kernel /nonexistent/bzImage -- true
done_testing
