#!/bin/bash
# tools/kernel-tree on a toy "kernel": the series is applied on a fresh
# extract, re-applied when kernel/patches changes, never re-applied over a
# developer's unexported commits, and a patch that does not apply is an
# error that names the patch.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib-tap.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export KTREE=$d/tree KPATCHES=$d/patches LINUX_TARBALL=$d/linux.tar.xz
G=(git -c user.name=t -c user.email=t@t)

# a toy source tree and two patches made against it
mkdir -p "$d/src/linux-toy" "$d/patches"
printf 'kernelversion:\n\t@echo 6.12.0\n' >"$d/src/linux-toy/Makefile"
echo one >"$d/src/linux-toy/file"
tar -C "$d/src" -cJf "$LINUX_TARBALL" linux-toy
cp -r "$d/src/linux-toy" "$d/work"
( cd "$d/work" && git init -q && "${G[@]}" add -A && "${G[@]}" commit -qm base &&
  echo two >>file && "${G[@]}" commit -qam "p1" &&
  echo three >>file && "${G[@]}" commit -qam "p2" &&
  git format-patch -q -o "$d/patches" HEAD~2 ) >/dev/null
ls "$d/patches" | grep '^0001' >"$d/patches/series"

kt() { tools/kernel-tree >"$d/out" 2>&1; }
content() { [ "$(tr '\n' ' ' <"$KTREE/file")" = "$1" ]; }
commits() { [ "$(git -C "$KTREE" rev-list --count base..HEAD)" = "$1" ]; }

check "fresh extract applies the series" eval 'kt && content "one two " && commits 1'
check "re-run with nothing changed is a no-op" eval 'kt && commits 1 && [ ! -s "$d/out" ]'
ls "$d/patches" | grep '\.patch$' >"$d/patches/series"
check "a changed series is re-applied" eval 'kt && content "one two three " && commits 2'
( cd "$KTREE" && echo mine >>file && "${G[@]}" commit -qam mine )
check "unexported commits are built, not dropped" eval 'kt && commits 3 && grep -q unexported "$d/out"'
ls "$d/patches" | grep '^0001' >"$d/patches/series"
check "series and tree both changed: refused" eval '! kt && grep -q "make export-patches" "$d/out" && commits 3'
git -C "$KTREE" reset -q --hard base
rm -f "$KTREE/.git/framesched-applied"
echo "garbage" >"$d/patches/0003-bad.patch"
echo 0003-bad.patch >>"$d/patches/series"
check "a patch that does not apply is an error" eval '! kt && grep -q "0003-bad.patch does not apply" "$d/out"'
done_testing
