#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Series hygiene: every patch applies, in order, to a pristine tree from the
# tarball, and checkpatch.pl reports no ERROR on any of them.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel/patches/series")
module_files=$(ls "$top"/kernel/modules/idlescope_states/*.[ch])
# Three checks per patch, one per module file, and the list itself.
plan $((1 + 3 * $(echo $series | wc -w) + $(echo $module_files | wc -w)))

# Only what the series touches and checkpatch needs, to keep this quick.
tar -C "$tmp" -xf "$tarball" --wildcards 'linux-source-6.1/drivers/cpuidle/*' \
	'linux-source-6.1/scripts/checkpatch.pl' 'linux-source-6.1/scripts/spelling.txt' \
	'linux-source-6.1/scripts/const_structs.checkpatch' ||
	{ fail "series: pristine tree" "cannot unpack $tarball"; exit 1; }
tree=$tmp/linux-source-6.1

# checkpatch_ok FILE [OPTION...]: checkpatch.pl reports no ERROR in FILE.
checkpatch_ok() {
	local file=$1 name="series: checkpatch finds no ERROR in $(basename "$1")"
	shift
	(cd "$tree" && perl scripts/checkpatch.pl --no-tree -q "$@" "$file") >"$tmp/cp" 2>&1
	if grep -q '^ERROR:' "$tmp/cp"; then
		fail "$name" "$(grep -c '^ERROR:' "$tmp/cp") errors, first: $(grep -m 1 '^ERROR:' "$tmp/cp")"
	else
		pass "$name"
	fi
}

check "series: lists at least one patch" [ -n "$series" ]
for p in $series; do
	if patch -d "$tree" -p1 --dry-run --batch --forward <"$top/kernel/patches/$p" >"$tmp/out" 2>&1 &&
	   ! grep -qE 'fuzz|offset' "$tmp/out" &&
	   patch -d "$tree" -p1 --batch --forward <"$top/kernel/patches/$p" >/dev/null 2>&1; then
		pass "series: $p applies cleanly in order"
	else
		fail "series: $p applies cleanly in order" "$(tr '\n' ' ' <"$tmp/out")"
	fi
	checkpatch_ok "$top/kernel/patches/$p"
	grep -q '^Signed-off-by: ' "$top/kernel/patches/$p"
	check "series: $p is signed off" [ $? = 0 ]
done
for f in $module_files; do
	checkpatch_ok "$f" -f
done
