#!/bin/bash
# make soak's peer suites: one boot of the debug kernel (lockdep,
# DEBUG_MUTEXES) in which trinity on the scheduling system calls,
# stress-ng's scheduler stressors, rt-tests' cyclicdeadline and pi_stress,
# hackbench, locktorture (mutex, boosted writers, nested locks) and the
# SCHED_DEADLINE token tests run at once for SOAK_PEERS_S seconds (default
# 1800) while PROXY_EXEC flips every half second. TAP: a line a suite,
# and one for the console (tools/vm fails on any oops, BUG, WARNING,
# lockdep or hung-task report). The report goes to
# build/results/soak/report.txt, with provenance.json and the guest's
# whole console (console.txt) beside it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
s=${SOAK_PEERS_S:-1800}
[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 10 ] ||
	{ echo "sched_peers: SOAK_PEERS_S: expected seconds >= 10, got '$s'" >&2; exit 2; }
out=build/results/soak
mkdir -p "$out"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

t0=$(date +%s)
FRAMESCHED_VM_CONSOLE=$out/console.txt tools/vm --timeout $((s + 900)) -- \
	tools/flip-sched-feature -i 0.5 PROXY_EXEC -- \
	tests/soak/sched_peers-guest "$s" >"$d/out" 2>&1
vm_rc=$?
t1=$(date +%s)
sed 's/^/    /' "$d/out"

{
	echo "$(date -u +%Y-%m-%d): one boot of the debug kernel, $s s of every suite at once, PROXY_EXEC flipping every 0.5 s; $((t1 - t0)) s of host time"
	# "suite NAME rc=N what": the status from rc= alone, what as it is
	awk '/^suite / { name = $2; rc = substr($3, 4); $1 = $2 = $3 = ""; sub(/^ +/, "")
		printf "%s: %s, %s\n", name, rc == 0 ? "ok" : "FAILED (exit " rc ")", $0 }' "$d/out"
	if [ $vm_rc -eq 0 ]; then
		echo "guest console: no oops, BUG, WARNING, lockdep or hung-task report"
	else
		echo "guest console: tools/vm exited $vm_rc (a report, or the timeout); its first lines:"
		grep '^vm:   ' "$d/out" | sed 's/^vm: */  /' | head -4
	fi
} >"$out/report.txt"
python3 - "$out/provenance.json" "${FRAMESCHED_SOAK_COMMAND:-SOAK_PEERS_S=$s tests/soak/sched_peers.sh}" \
	"$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	"$(date -u +%Y-%m-%dT%H:%MZ)" "$(basename "$(readlink -f build/linux/arch/x86/boot/bzImage)") $(git -C build/linux describe --always 2>/dev/null)" <<'PY'
import json, sys
json.dump({"command": sys.argv[2], "commit": sys.argv[3], "date": sys.argv[4],
           "kernel": "debug, series at " + sys.argv[5].split()[-1]}, open(sys.argv[1], "w"))
PY

for suite in trinity stress-ng cyclicdeadline pi_stress locktorture dl_token hackbench; do
	check "soak: $suite ran and passed" grep -q "^suite $suite rc=0 " "$d/out"
done
check "soak: the guest console stayed clean" \
	eval '[ $vm_rc -eq 0 ] || { tail -30 "$out/console.txt" | sed "s/^/# /"; false; }'
echo "# report: $out/report.txt"
done_testing
