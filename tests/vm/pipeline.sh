#!/bin/bash
# The display-pipeline emulator's guest tests (tests/guest/pipeline_*.c),
# in deterministic boots of the debug kernel: frame timing must not
# depend on the host's load (tools/vm --deterministic). tests/guest/run-all
# leaves them out of the ordinary guest boot. Their TAP lines are passed
# through as sub-tests.
#
# The first boot is without the emulated phone: the idle-light, hand-off
# and strategy tests run at a fixed speed there, and the one test that
# needs cpufreq, the article's example (tests/guest/pipeline_article.c),
# skips; a "host too busy" skip in a deterministic boot is a failure. The
# article's example then runs alone in a second boot, on the phone
# (tools/vm --deterministic --phone, as make run boots it), where it
# must pass and not skip, with the strategies' settings test, whose
# checks of CPU placement mean something only where capacities differ.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

FRAMESCHED_VM_CONSOLE=$d/console tools/vm --deterministic --timeout 1500 \
	-- sh -c '
	rc=0 n=0
	for t in build/guest/tests/pipeline_*; do
		[ -x "$t" ] || continue
		n=$((n + 1))
		echo "# -- $t"
		"$t" || rc=1
	done
	[ $n -gt 0 ] || { echo "no pipeline tests built (make guest)"; exit 1; }
	exit $rc' >"$d/out" 2>&1
vm_rc=$?
sed 's/^/    /' "$d/out"
check "pipeline tests pass in a deterministic boot" \
	eval '[ $vm_rc -eq 0 ] || { sed "s/^/# /" "$d/console" | tail -20; false; }'
check "no pipeline test was skipped but for want of cpufreq" \
	eval '! grep "# SKIP" "$d/out" | grep -qv "cpufreq" ||
	{ grep "# SKIP" "$d/out" | grep -v cpufreq | sed "s/^ */# /"; false; }'
FRAMESCHED_VM_CONSOLE=$d/console-phone tools/vm --deterministic --phone --timeout 900 \
	-- sh -c 'build/guest/tests/pipeline_article; a=$?
		  build/guest/tests/pipeline_strategies -t settings_are_the_documented_ones; s=$?
		  echo "# rc article=$a settings=$s"' >"$d/phone" 2>&1
sed 's/^/    /' "$d/phone"
check "the article's example on the emulated phone: schedutil misses the chain" \
	eval 'grep -q "# rc article=0 " "$d/phone" && ! grep -q "# SKIP" "$d/phone" ||
	{ sed "s/^/# /" "$d/console-phone" | tail -20; false; }'
check "on the phone each strategy's threads run with its documented settings, SurfaceFlinger on the LITTLE CPUs" \
	eval 'grep -q "settings=0$" "$d/phone" ||
	{ grep "Expected\|not ok" "$d/phone" | sed "s/^ */# /"; false; }'
done_testing
