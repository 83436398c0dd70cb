#!/bin/bash
# The project describes itself as it is: no file it tracks (the kernel
# patches' changelogs aside, whose history is theirs) speaks of work
# sessions or issue numbers, which a reader of the tree cannot look up.
# History belongs in git log.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
pattern='ses''sion [0-9]|this ses''sion|is''sue [0-9]'
hits=$(git grep -nIiE "$pattern" -- . ':!kernel/patches' 2>/dev/null)
check "no session or issue numbers in the tree (git grep -iE '$pattern')" \
	eval '[ -z "$hits" ] || { printf "%s\n" "$hits" | head -20 | sed "s/^/# /"; false; }'
done_testing
