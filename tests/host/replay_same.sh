#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The off-line replay's speed work must not change a report: `idlescope
# report` of a fixed genrec file (seed 7, 200k records, 2 CPUs) gives
# byte for byte the report.txt and report.json the loader gave before that
# work (main at d2224e9; sha256 of its output below; report.txt's again
# after the headline's one-line title, which changed only that line;
# report.json's again after its "reconstruction" line, and after its
# "workload_figures" member, an empty list here: each the only change;
# both again after the models teo-6.1, teo-6.12 and menu-6.12 joined the
# registry: their columns, method lines and shadow keys, and the chosen
# states' scores of the 2010 models, were added, every other number the
# same).

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/idlescope || exit
"$top/build/genrec" -n 200000 -c 2 -s 7 -o "$tmp/200k.rec" ||
	{ echo "FAIL: replay: genrec failed"; exit 1; }
mkdir "$tmp/out"
"$top/build/idlescope" report -o "$tmp/out" "$tmp/200k.rec" >/dev/null ||
	{ echo "FAIL: replay: idlescope report failed"; exit 1; }

same() { # NAME FILE SHA256
	local got
	got=$(sha256sum "$tmp/out/$2" | cut -d' ' -f1)
	check -m "sha256 $got" "$1" [ "$got" = "$3" ]
}
same "replay: report.txt of a genrec file is unchanged" report.txt \
	0ad6b1c4705f7251958cc7c1eac7eae039729f9b5ca7ed8d21ae1399d2768762
same "replay: report.json of a genrec file is unchanged" report.json \
	d325e4bac162996aa202a1b2227e59ecddb682e244fe8565b7fa422f43ffd316
