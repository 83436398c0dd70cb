#!/bin/bash
# tools/trace-diff on made-up traces: the same slices with other process
# and thread ids are the same; a slice that starts later is the first
# difference, shown with both traces' slices; a file that is not a trace
# is refused with its name (exit 2).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# trace FILE PID UI_TID START_US: a doFrame at START_US, then a DrawFrame
trace() {
	cat >"$1" <<JSON
{"traceEvents": [
 {"ph": "i", "name": "VSYNC-app", "ts": 100, "pid": $2, "tid": $2},
 {"ph": "X", "name": "Choreographer#doFrame", "ts": $4, "dur": 5000, "pid": $2, "tid": $3, "args": {"cpu": 2}},
 {"ph": "X", "name": "DrawFrame", "ts": 9000, "dur": 4000, "pid": $2, "tid": $(($3 + 1)), "args": {"cpu": 3}}
]}
JSON
}
trace "$d/a.json" 77 94 1100
trace "$d/b.json" 81 98 1100
trace "$d/c.json" 77 94 2400
tools/trace-diff "$d/a.json" "$d/b.json" >"$d/same" 2>&1
rc=$?
check "the same slices under other ids are the same (exit 0)" \
	eval '[ $rc -eq 0 ] && grep -qx "same: 2 slices" "$d/same" || { sed "s/^/# /" "$d/same"; false; }'
tools/trace-diff "$d/a.json" "$d/c.json" >"$d/diff" 2>&1
rc=$?
sed 's/^/# /' "$d/diff"
check "a later start is the first difference (exit 1)" \
	eval '[ $rc -eq 1 ] && grep -q "first difference at slice 0:" "$d/diff"'
check "both traces' slices are shown" \
	eval 'grep -Eq "^  A +1.000 ms  Choreographer#doFrame" "$d/diff" &&
	      grep -Eq "^  B +2.300 ms  Choreographer#doFrame" "$d/diff"'
echo '{"nope": 1}' >"$d/bad.json"
tools/trace-diff "$d/a.json" "$d/bad.json" 2>"$d/err"
rc=$?
check "a file that is not a trace is refused, named (exit 2)" \
	eval '[ $rc -eq 2 ] && grep -q "bad.json: not a pipeline trace" "$d/err"'
done_testing
