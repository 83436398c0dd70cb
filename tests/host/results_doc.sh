#!/bin/bash
# tools/results-doc: a doc's results block is replaced with the results
# file and its provenance (kernel, workload, boots from run.json; command,
# commit and date from provenance.json), --full writes docs/results.md
# with a section per workload, the
# text around it is kept byte for byte, the machine's absolute paths
# become relative; a doc without a block, a block without its end, or a
# missing results file is refused with the file named (exit 2) and no doc
# is written.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

mkdir -p "$d/res"
cat >"$d/res/run.json" <<'JSON'
{"workload_file": "emu/workloads/w.json", "repeats": 3, "kernel": "6.12.0 #1"}
JSON
printf 'strategy ontime%%\ncfs 99.0 (%s/res/run-1/run.json)\n' "$d" >"$d/res/table.txt"
cat >"$d/doc.md" <<'DOC'
# Title

Before the block.
<!-- results: table.txt -->
an old table that must go
<!-- results: end -->
After the block.
DOC
cp "$d/doc.md" "$d/doc.orig"

top=$PWD
(cd "$d" && "$top/tools/results-doc" --results res doc.md) >"$d/out" 2>&1
rc=$?
check "a doc with a block is updated" [ $rc -eq 0 ]
check "the old inside is gone, the table is in" \
	eval '! grep -q "an old table" "$d/doc.md" && grep -q "^cfs 99.0" "$d/doc.md"'
check "the block says where the figures come from" \
	grep -q "^Measured by \`make run\` (3 boots, emu/workloads/w.json, kernel 6.12.0 #1)." "$d/doc.md"
check "absolute paths of the results become relative" \
	eval "! grep -q '$d/res/run-1' '$d/doc.md' && grep -q '(res/run-1/run.json)' '$d/doc.md'"
check "the text around the block is kept" \
	eval 'diff <(sed "/<!-- results: table.txt -->/,/<!-- results: end -->/d" "$d/doc.orig") \
		   <(sed "/<!-- results: table.txt -->/,/<!-- results: end -->/d" "$d/doc.md")'
cp "$d/doc.md" "$d/doc.once"
(cd "$d" && "$top/tools/results-doc" --results res doc.md) >/dev/null 2>&1
check "a second run changes nothing" cmp -s "$d/doc.md" "$d/doc.once"

# a block per workload: each headed by the run.json beside its file
mkdir -p "$d/res/w2"
echo '{"workload_file": "emu/workloads/w2.json", "repeats": 5, "kernel": "k2"}' >"$d/res/w2/run.json"
echo 'w2 table' >"$d/res/w2/table.txt"
printf '<!-- results: table.txt -->\n<!-- results: end -->\n<!-- results: w2/table.txt -->\n<!-- results: end -->\n' >"$d/two.md"
tools/results-doc --results "$d/res" "$d/two.md" >/dev/null 2>&1
check "two blocks, each with the provenance of its own directory" \
	eval 'grep -q "(3 boots, emu/workloads/w.json, kernel 6.12.0 #1)" "$d/two.md" &&
	      grep -q "(5 boots, emu/workloads/w2.json, kernel k2)" "$d/two.md" &&
	      grep -q "^w2 table" "$d/two.md"'

# provenance.json beside run.json: the command, commit and date
echo '{"command": "make run RUN_REPEAT=5", "commit": "abc1234", "date": "2026-12-07T23:00Z"}' >"$d/res/w2/provenance.json"
tools/results-doc --results "$d/res" "$d/two.md" >/dev/null 2>&1
check "a block says the command, commit and date when run-comparison recorded them" \
	grep -q "^Measured by \`make run RUN_REPEAT=5\` at commit abc1234 on 2026-12-07T23:00Z (5 boots, emu/workloads/w2.json, kernel k2)." "$d/two.md"

# --full: a whole file, a section a workload directory, boots' run-K/ left out
mkdir -p "$d/res/run-1"
cp "$d/res/run.json" "$d/res/table.txt" "$d/res/run-1/"
tools/results-doc --results "$d/res" --full "$d/results.md" >"$d/out" 2>&1
rc=$?
check "--full writes the results file with a section per workload" \
	eval '[ $rc -eq 0 ] && grep -q "^## w2$" "$d/results.md" && grep -q "^w2 table" "$d/results.md" &&
	      ! grep -q "^## run-1" "$d/results.md" && grep -q "^# Results" "$d/results.md"'
mkdir -p "$d/res/soak"
echo 'soak: ok' >"$d/res/soak/report.txt"
echo '{"command": "make soak", "commit": "def5678", "date": "D", "kernel": "debug"}' >"$d/res/soak/provenance.json"
tools/results-doc --results "$d/res" --full "$d/results.md" >/dev/null 2>&1
check "--full adds a report with its provenance alone (make soak's)" \
	eval 'grep -q "^## soak$" "$d/results.md" && grep -q "^soak: ok" "$d/results.md" &&
	      grep -q "^Measured by \`make soak\` at commit def5678 on D (kernel debug)." "$d/results.md"'
rm -rf "$d/empty" && mkdir "$d/empty"
tools/results-doc --results "$d/empty" --full "$d/results2.md" >"$d/out" 2>&1
rc=$?
check "--full with no results is refused, exit 2, nothing written" \
	eval '[ $rc -eq 2 ] && [ ! -e "$d/results2.md" ] && grep -q "make run first" "$d/out"'

printf '# no block here\n' >"$d/none.md"
cp "$d/doc.orig" "$d/ok.md"
tools/results-doc --results "$d/res" "$d/ok.md" "$d/none.md" >"$d/out" 2>&1
rc=$?
check "a doc without a block is refused with its name, exit 2" \
	eval '[ $rc -eq 2 ] && grep -q "none.md: no .<!-- results: FILE -->. block" "$d/out"'
check "and no doc is written when one is refused" cmp -s "$d/ok.md" "$d/doc.orig"
printf '<!-- results: table.txt -->\nno end\n' >"$d/open.md"
tools/results-doc --results "$d/res" "$d/open.md" >"$d/out" 2>&1
rc=$?
check "a block without its end is refused with the line, exit 2" \
	eval '[ $rc -eq 2 ] && grep -q "open.md:1: block .table.txt. has no" "$d/out"'
printf '<!-- results: nothere.txt -->\n<!-- results: end -->\n' >"$d/miss.md"
tools/results-doc --results "$d/res" "$d/miss.md" >"$d/out" 2>&1
rc=$?
check "a missing results file is refused with its path, exit 2" \
	eval '[ $rc -eq 2 ] && grep -q "res/nothere.txt" "$d/out"'
done_testing
