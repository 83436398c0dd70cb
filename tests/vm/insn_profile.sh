#!/bin/bash
# tools/insn-profile (the insn_count QEMU plugin and the guest's marks) on
# the debug kernel: a profile counts only the window between the marks
# (a pipe ping-pong of 2000 round trips runs many times the kernel
# instructions of "true", where a count from boot would make the two
# alike), names kernel blocks by function from System.map (the pipe's
# profile has __schedule and pipe_read in it), and --diff compares two
# profiles per operation. Bad input is refused with the file and line.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
k=build/linux/arch/x86/boot/bzImage
n=2000

tools/insn-profile --kernel $k --timeout 600 -o "$d/true.txt" -- true >"$d/true.out" 2>&1
check "profile of 'true' written" test $? -eq 0 -a -s "$d/true.txt"
tools/insn-profile --kernel $k --timeout 600 -o "$d/pipe.txt" -- \
	taskset -c 1 perf bench sched pipe -l $n >"$d/pipe.out" 2>&1
check "profile of a pipe ping-pong written" test $? -eq 0 -a -s "$d/pipe.txt"
sed 's/^/# /' "$d/pipe.out" | tail -8

kernel() { sed -n 's/^# kernel \([0-9]*\)$/\1/p' "$1"; }
kt=$(kernel "$d/true.txt") kp=$(kernel "$d/pipe.txt")
echo "# kernel instructions in the window: true ${kt:-?}, pipe ${kp:-?}"
check "only the window is counted (pipe > 5x true)" \
	test "${kt:-0}" -gt 0 -a "${kp:-0}" -gt $((5 * ${kt:-0}))
check "blocks are named by function" \
	grep -qE '^[0-9]+ __schedule$' "$d/pipe.txt"
check "the pipe's own path is in it" grep -qE '^[0-9]+ pipe_read$' "$d/pipe.txt"

out=$(tools/insn-profile --diff --per $n --top 100000 "$d/true.txt" "$d/pipe.txt")
echo "$out" | head -4 | sed 's/^/# /'
check "--diff prints the per-op totals and functions" \
	grep -q "new/base" <<<"$out"
check "--diff lists __schedule's difference" grep -q "__schedule" <<<"$out"

echo "12 not_a_function extra" >"$d/bad.txt"
out=$(tools/insn-profile --diff "$d/true.txt" "$d/bad.txt" 2>&1)
check "a malformed profile is refused with its file and line" \
	grep -q "bad.txt:1: expected 'count function'" <<<"$out"
out=$(tools/vm --kernel $k --plugin "$d/none.so,out=x" -- true 2>&1)
check "tools/vm refuses a missing plugin by name" grep -q "no QEMU plugin '$d/none.so'" <<<"$out"
done_testing
