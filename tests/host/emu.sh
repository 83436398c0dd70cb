#!/bin/bash
# Host unit tests of the pipeline emulator's library (emu/): build emu/*.c
# into build/host/emu/libemu.a, build each tests/host/emu/*.c against it
# with the kernel's kselftest_harness.h, run them from the top of the tree,
# and pass their TAP results through as one stream, renumbered. Files the
# tests leave in build/host/emu/out/ (traces) are then checked by python3's
# own JSON parser.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
out=build/host/emu
harness=build/linux/tools/testing/selftests/kselftest_harness.h
CC=${CC:-gcc}
WARN="-O2 -Wall -Wextra -Werror"

if [ ! -f "$harness" ]; then
	echo "ok 1 - emu host tests # SKIP no kernel tree for kselftest_harness.h (make kernel)"
	echo "1..1"
	exit 0
fi
if [ ! -f /usr/include/jansson.h ]; then
	check "libjansson-dev is installed (tools/deps)" false
	done_testing
	exit
fi
mkdir -p "$out/obj" "$out/out"
rm -f "$out"/out/*

# build_lib: every emu/*.c, C11 without extensions, no warnings
build_lib() {
	local c o objs=()
	for c in emu/*.c; do
		o=$out/obj/$(basename "$c" .c).o
		$CC -std=c11 $WARN -c "$c" -o "$o" || return 1
		objs+=("$o")
	done
	rm -f "$out/libemu.a"
	ar rcs "$out/libemu.a" "${objs[@]}"
}
if ! build_lib 2>"$out/build.log"; then
	sed 's/^/# /' "$out/build.log"
	check "emu library builds without warnings" false
	done_testing
	exit
fi
check "emu library builds without warnings" true

# run_test BIN: its TAP lines renumbered into ours, its plan and version
# dropped; a crash or non-zero exit without a failing line is a failure.
run_test() {
	local bin=$1 log rc
	log=$(mktemp)
	EMU_TEST_OUT=$out/out "$bin" >"$log" 2>&1
	rc=$?
	while IFS= read -r line; do
		case $line in
		"TAP version"* | 1..*) ;;
		"ok "[0-9]* | "not ok "[0-9]*)
			tap_n=$((tap_n + 1))
			[[ $line == not* ]] && tap_failed=$((tap_failed + 1))
			echo "$line" | sed -E "s/^(not )?ok [0-9]+/\\1ok $tap_n/" ;;
		*) echo "$line" ;;
		esac
	done <"$log"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$log"; then
		tap_n=$((tap_n + 1)) tap_failed=$((tap_failed + 1))
		echo "not ok $tap_n - $(basename "$bin") exited with status $rc"
	fi
	rm -f "$log"
}

# build_test SRC: the harness needs GNU C; its macros compare signed
# with unsigned, leave parameters unused and setjmp over locals
# (-Wclobbered): not ours to fix. The test of a guest-side file,
# emu/pipeline/NAME.c, is NAME_test.c: that file is built in, and the
# test brings fakes of what it calls that needs the guest.
build_test() {
	local name unit=()
	name=$(basename "$1" .c)
	[ -f "emu/pipeline/${name%_test}.c" ] &&
		unit=(-Iemu/pipeline "emu/pipeline/${name%_test}.c")
	$CC -std=gnu11 $WARN -Wno-sign-compare -Wno-unused-parameter -Wno-clobbered \
		-Iemu -Itests/host/emu -I"$(dirname "$harness")" "$1" "${unit[@]}" \
		"$out/libemu.a" -ljansson -lm -o "$out/$name"
}

for t in tests/host/emu/*.c; do
	name=$(basename "$t" .c)
	if ! build_test "$t" 2>"$out/build.log"; then
		sed 's/^/# /' "$out/build.log"
		check "build $name" false
		continue
	fi
	run_test "$out/$name"
done

# quiet: run CMD, its output as TAP comments
quiet() { "$@" 2>&1 | sed 's/^/# /'; return "${PIPESTATUS[0]}"; }
json_ok() { quiet sh -c 'python3 -m json.tool "$1" >/dev/null' sh "$1"; }
check "sample trace is valid JSON (python3 -m json.tool)" json_ok "$out/out/trace.json"
check "empty trace is valid JSON" json_ok "$out/out/trace-empty.json"
done_testing
