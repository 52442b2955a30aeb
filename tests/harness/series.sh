#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Series hygiene, for each kernel's series (kernel/patches/VERSION/series):
# every patch applies, in order, to a pristine tree from Debian's
# linux-source-VERSION tarball, and that tree's checkpatch.pl reports no
# ERROR on any of them; nor on the module's files.  The 6.1 series' check
# names are those of the time it was the only one.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
versions=$(cd "$top/kernel/patches" && ls -d */ | tr -d / | sort -V)
module_files=$(ls "$top"/kernel/modules/idlescope_states/*.[ch])
series_of() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel/patches/$1/series"; }
# Per series: the list itself, three checks per patch; one per module file.
nr=$(echo $module_files | wc -w)
for v in $versions; do
	nr=$((nr + 1 + 3 * $(series_of "$v" | wc -w)))
done
plan $nr

# checkpatch_ok TREE NAME FILE [OPTION...]: TREE's checkpatch.pl reports no
# ERROR in FILE.
checkpatch_ok() {
	local tree=$1 name=$2 file=$3
	shift 3
	(cd "$tree" && perl scripts/checkpatch.pl --no-tree -q "$@" "$file") >"$tmp/cp" 2>&1
	if grep -q '^ERROR:' "$tmp/cp"; then
		fail "$name" "$(grep -c '^ERROR:' "$tmp/cp") errors, first: $(grep -m 1 '^ERROR:' "$tmp/cp")"
	else
		pass "$name"
	fi
}

for v in $versions; do
	tarball=/usr/src/linux-source-$v.tar.xz
	tree=$tmp/linux-source-$v
	# The 6.1 names stay as they were; the others say their version.
	prefix=series
	[ "$v" = 6.1 ] || prefix="series $v"
	series=$(series_of "$v")
	check "$prefix: lists at least one patch" [ -n "$series" ]
	# Only what the series touches and checkpatch needs, to keep this quick.
	tar -C "$tmp" -xf "$tarball" --wildcards "linux-source-$v/drivers/cpuidle/*" \
		"linux-source-$v/scripts/checkpatch.pl" "linux-source-$v/scripts/spelling.txt" \
		"linux-source-$v/scripts/const_structs.checkpatch" 2>"$tmp/tar.err" ||
		: >"$tmp/no-tree"
	for p in $series; do
		file=$top/kernel/patches/$v/$p
		if [ -e "$tmp/no-tree" ]; then
			fail "$prefix: $p applies cleanly in order" "cannot unpack $tarball: $(head -n 1 "$tmp/tar.err")"
		elif patch -d "$tree" -p1 --dry-run --batch --forward <"$file" >"$tmp/out" 2>&1 &&
		   ! grep -qE 'fuzz|offset' "$tmp/out" &&
		   patch -d "$tree" -p1 --batch --forward <"$file" >/dev/null 2>&1; then
			pass "$prefix: $p applies cleanly in order"
		else
			fail "$prefix: $p applies cleanly in order" "$(tr '\n' ' ' <"$tmp/out")"
		fi
		checkpatch_ok "$tree" "$prefix: checkpatch finds no ERROR in $p" "$file"
		grep -q '^Signed-off-by: ' "$file"
		check "$prefix: $p is signed off" [ $? = 0 ]
	done
	rm -f "$tmp/no-tree"
done
for f in $module_files; do
	checkpatch_ok "$tmp/linux-source-6.1" "series: checkpatch finds no ERROR in $(basename "$f")" "$f" -f
done
