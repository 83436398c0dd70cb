#!/bin/bash
# tools/run-summary on made-up run.json files: the table has each
# strategy's median and range over the runs, a strategy that failed in a
# run is counted out of it, --json keeps the medians under the run.json
# names and every run's values, --chart is well-formed SVG with a point a
# strategy and the physical limit, for one run too; a file that
# is not a run.json is refused with its name (exit 2).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# run FILE CFS_JANKY FIFO_STATUS: cfs and fifo, energies 100 and 50
run() {
	cat >"$1" <<JSON
{"workload": "w", "frames": 10, "runs": [
 {"strategy": "cfs", "status": "ok", "frames": 10, "janky": 1, "dropped": 0,
  "on_time_pct": $((100 - $2)), "buffer_stuffing": 0,
  "janky_pct": $2, "p50_latency_ms": 20, "p99_latency_ms": 30,
  "energy_mj": 100, "energy_vs_limit": 2.0, "energy_limit_mj": 50},
 {"strategy": "fifo", "status": "$3", "frames": 10, "janky": 5, "dropped": 1,
  "on_time_pct": 50, "buffer_stuffing": 2,
  "janky_pct": 50, "p50_latency_ms": 40, "p99_latency_ms": 60,
  "energy_mj": 50, "energy_vs_limit": 1.0, "energy_limit_mj": 50}
]}
JSON
}
run "$d/1.json" 10 ok
run "$d/2.json" 30 ok
run "$d/3.json" 20 failed
tools/run-summary --json "$d/sum.json" --chart "$d/sum.svg" \
	"$d/1.json" "$d/2.json" "$d/3.json" >"$d/out" 2>&1
rc=$?
sed 's/^/# /' "$d/out"
check "exit 0" test $rc -eq 0
check "cfs: on time 80.0 [70.0-90.0], janky median 20.0 of 10, 30, 20, range 10.0-30.0, 3 of 3 runs" \
	eval 'grep -Eq "^cfs +3/3 +80\.0 \[70\.0-90\.0\] +20\.0 \[10\.0-30\.0\] +0 \[0-0\]" "$d/out"'
check "fifo: failed in one run, counted out (2 of 3)" \
	eval 'grep -Eq "^fifo +2/3 +50\.0 \[50\.0-50\.0\] +50\.0 \[50\.0-50\.0\] +2 \[2-2\]" "$d/out"'
check "--json: medians under the run.json names, every run's values" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cfs = d["runs"][0]
assert d["repeats"] == 3, d
assert cfs["strategy"] == "cfs" and cfs["janky_pct"] == 20, cfs
assert cfs["janky_pct_runs"] == [10, 30, 20], cfs
for k in ("frames", "p99_latency_ms", "energy_mj", "energy_vs_limit"):
    assert k in cfs, k
assert d["runs"][1]["runs_ok"] == 2
' "$d/sum.json"
check "--chart: well-formed SVG, a point a strategy, the physical limit dashed" python3 -c '
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
pts = [c for c in d.getElementsByTagName("circle") if c.getAttribute("class") == "point"]
assert len(pts) == 2, len(pts)
lim = [l for l in d.getElementsByTagName("line") if l.getAttribute("class") == "limit"]
assert len(lim) == 1 and lim[0].getAttribute("stroke-dasharray"), lim' "$d/sum.svg"
check "--chart of one run: drawn too" eval 'tools/run-summary --chart "$d/one.svg" "$d/1.json" >/dev/null && grep -q "median of one run" "$d/one.svg"'
check "verdict: none kept 95% in every run, closest named (cfs: worst run 70%)" \
	grep -q "^verdict: no strategy kept 95% of frames on time in every run; closest: cfs (worst run 70.0%)" "$d/out"
# a boot that left the mutex switches out says so under the table
python3 - "$d/1.json" "$d/lo.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["left_out"] = "deadline-pe,fifo-pe"
d["left_out_why"] = "no mutex"
json.dump(d, open(sys.argv[2], "w"))
PY
check "left out: named under the table, with the reason" \
	eval 'tools/run-summary "$d/lo.json" | grep -qx "left out: deadline-pe, fifo-pe (no mutex)"'
# cfs on time 96 to 99%: it kept the goal; fifo (50%) did not
run "$d/4.json" 1 ok
run "$d/5.json" 4 ok
tools/run-summary "$d/4.json" "$d/5.json" >"$d/out2" 2>&1
check "verdict: the strategies on time in every run, the least energy among them" \
	grep -q "^verdict: on time >= 95% in every run: cfs; least energy: cfs (100 mJ)" "$d/out2"
echo '{"nope": 1}' >"$d/bad.json"
tools/run-summary "$d/1.json" "$d/bad.json" >/dev/null 2>"$d/err"
rc=$?
check "a file that is not a run.json is refused, named (exit 2)" \
	eval '[ $rc -eq 2 ] && grep -q "bad.json: no \"runs\" list" "$d/err"'
done_testing
