#!/bin/bash
# kernel/patches: the series names exactly the patch files there, and each
# patch is clean under the kernel's own scripts/checkpatch.pl --strict.
# (That the series applies on base is checked by every make kernel.)
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
P=kernel/patches

listed() { grep -v -e '^#' -e '^$' "$P/series" | sort; }
present() { (cd "$P" && ls -1 *.patch) | sort; }
check "series lists exactly the patch files" diff <(listed) <(present)

checkpatch=build/linux/scripts/checkpatch.pl
# Debian's python3 first: checkpatch runs scripts/spdxcheck.py (python3-ply,
# tools/deps) on new files, and a python3 earlier in PATH may lack ply.
for p in $(listed); do
	if [ ! -x "$checkpatch" ]; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - checkpatch $p # SKIP no kernel tree (make kernel)"
		continue
	fi
	check "checkpatch --strict $p" eval \
		'out=$(cd build/linux && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --terse --no-summary "../../$P/$p" 2>&1); [ -z "$out" ] || { echo "$out" | sed "s/^/# /"; false; }'
done
done_testing
