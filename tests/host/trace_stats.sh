#!/bin/bash
# tools/trace-stats on a made-up trace whose answer is known: two CPU
# stages overlapping for 5 of their 10 ms, then one alone (24 stage-ms over
# 19 ms busy: 1.26 at once while any runs),
# per-slice minimum and median, the CPUs from args.cpu; and a file that is
# not a trace is refused with its name.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

cat >"$d/t.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "name": "Choreographer#doFrame", "ts": 0, "dur": 10000, "args": {"frame": 0, "cpu": 2}},
 {"ph": "X", "name": "DrawFrame", "ts": 5000, "dur": 10000, "args": {"frame": 0, "cpu": 3}},
 {"ph": "X", "name": "Choreographer#doFrame", "ts": 20000, "dur": 4000, "args": {"frame": 1, "cpu": 0}},
 {"ph": "X", "name": "GPU job", "ts": 15000, "dur": 3000, "args": {"frame": 0}},
 {"ph": "i", "name": "VSYNC-app", "ts": 0}
]}
JSON
out=$(tools/trace-stats "$d/t.json" 2>&1)
echo "$out" | sed 's/^/# /'
check "concurrency of the CPU stages" eval 'echo "$out" | grep -q "at once while any runs: 1.26 (mean)"'
check "doFrame: count, min, median, CPUs" eval \
	'echo "$out" | grep -Eq "Choreographer#doFrame +2 +4.00 +7.00  0:1 2:1$"'
check "a slice without args.cpu lists no CPU" eval \
	'echo "$out" | grep -Eq "GPU job +1 +3.00 +3.00  $"'
echo '{"nope": 1}' >"$d/bad.json"
check "a file that is not a trace is refused, named" eval \
	'! tools/trace-stats "$d/bad.json" 2>"$d/err" && grep -q "bad.json: not a pipeline trace" "$d/err"'
done_testing
