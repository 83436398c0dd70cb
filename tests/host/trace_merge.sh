#!/bin/bash
# tools/trace-merge on made-up files whose answer is known: the ftrace
# events inside the pipeline trace's span (50 ms each side) go into
# systemTraceEvents, with the header, and parse back as sched_switch and
# cpu_frequency lines at the pipeline's timestamps; an ftrace file not
# taken with the mono clock, a file that is not a pipeline trace, and an
# ftrace file with nothing in the span are refused, named, with nothing
# written.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

cat >"$d/t.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "name": "Choreographer#doFrame", "pid": 76, "tid": 79, "ts": 2000000, "dur": 7000, "args": {"frame": 0, "cpu": 2}},
 {"ph": "X", "name": "composite", "pid": 76, "tid": 81, "ts": 2020000, "dur": 7000, "args": {"frame": 0, "cpu": 0, "unit": "µs"}}
]}
JSON
cat >"$d/f.txt" <<'TXT'
# framesched: trace_clock=mono
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
          <idle>-0       [002] d..2.     1.900000: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=early next_pid=9 next_prio=120
          <idle>-0       [002] d..2.     2.000001: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=UI next_pid=79 next_prio=110
              UI-79      [002] d..2.     2.007001: sched_switch: prev_comm=UI prev_pid=79 prev_prio=110 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.     2.010000: cpu_frequency: state=900000 cpu_id=0
          <idle>-0       [000] d..2.     2.300000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=late next_pid=10 next_prio=120
TXT
tools/trace-merge -o "$d/m.json" "$d/t.json" "$d/f.txt" 2>"$d/err"
rc=$?
check "merged, exit 0" eval '[ $rc -eq 0 ] || { sed "s/^/# /" "$d/err"; false; }'
check "no \\u escape in the output (Perfetto's JSON reader refuses them)" eval \
	'! grep -q "\\\\u[0-9a-f]\{4\}" "$d/m.json"'
check "the pipeline's slices are kept" eval \
	'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d[\"traceEvents\"]) == 2" "$d/m.json"'
check "the events in the span, and the header, are in systemTraceEvents; the others are not" eval \
	'python3 - "$d/m.json" <<"PY"
import json, re, sys
d = json.load(open(sys.argv[1]))
text = d["systemTraceEvents"]
ev = [l for l in text.splitlines() if not l.startswith("#")]
assert text.startswith("# tracer: nop"), text[:40]
ts = [float(re.search(r"(\d+\.\d+): ", l).group(1)) for l in ev]
assert ts == [2.000001, 2.007001, 2.010000], ts
assert "next_pid=79" in ev[0] and "cpu_frequency: state=900000" in ev[2]
PY'
sed 1d "$d/f.txt" >"$d/local.txt"
check "an ftrace file without the mono clock is refused, named" eval \
	'! tools/trace-merge -o "$d/x.json" "$d/t.json" "$d/local.txt" 2>"$d/err" &&
	 grep -q "local.txt: not taken with the mono trace clock" "$d/err" && [ ! -e "$d/x.json" ]'
echo '{"nope": 1}' >"$d/bad.json"
check "a file that is not a pipeline trace is refused, named" eval \
	'! tools/trace-merge "$d/bad.json" "$d/f.txt" 2>"$d/err" >/dev/null &&
	 grep -q "bad.json: not a pipeline trace" "$d/err"'
sed 's/2\.0\(0[0-9]\)/9.0\1/; s/2\.010000/9.010000/' "$d/f.txt" | grep -v "1.900000\|2.300000" >"$d/far.txt"
check "an ftrace file with nothing in the trace's span is refused" eval \
	'! tools/trace-merge "$d/t.json" "$d/far.txt" 2>"$d/err" >/dev/null &&
	 grep -q "far.txt: no event between" "$d/err"'
check "--help prints usage on stdout, exit 0" eval 'tools/trace-merge --help | grep -q "^usage: trace-merge"'
done_testing
