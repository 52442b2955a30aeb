#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of `idlescope compare` on synthetic record files (bench/genrec):
# a planted regression (5% of predictions 64x off) is flagged and fails
# the gate; two files of the same seed, or of two seeds, pass it.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/tests/compare_tool || exit
tool=$top/build/tests/compare_tool
"$tool" template "$tmp/template.rec"
gen() { "$top/build/genrec" -n 80000 -c 2 -H "$tmp/template.rec" "$@"; }
gen -s 1 -o "$tmp/a.rec" && gen -s 1 -o "$tmp/same.rec" && gen -s 2 -o "$tmp/other.rec" &&
	gen -s 1 -p 5 -o "$tmp/worse.rec" || { echo "FAIL: compare: genrec failed"; exit 1; }

"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" --fail-above 2 >"$tmp/worse.txt"
rc=$?
check -m "got $rc" "compare: a planted 5-point regression exits 1 with --fail-above 2" [ $rc = 1 ]
line=$(grep -E '^periodic1ms +menu +within 2x %' "$tmp/worse.txt")
diff_pp=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[+-][0-9.]+$/) { print $i; exit } }')
check -m "$diff_pp" "compare: the planted difference is flagged, about -5 points" \
	awk -v d="$diff_pp" -v l="$line" 'BEGIN { exit !(d <= -4 && d >= -6 && l ~ /\* FAIL$/) }'

"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" -j >"$tmp/worse.json"
rc=$?
check -m "got $rc" "compare -j: same verdict without the gate: exit 0" [ $rc = 0 ]
check "compare -j: the within-2x drop is flagged, its interval below 0" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["differences"] if r["workload"] == "periodic1ms" and
        r["governor"] == "menu" and r["model"] == "live" and r["metric"] == "within_2x"]
assert len(rows) == 1, rows
r = rows[0]
assert r["flagged"] and r["worse"] and r["diff_pp"]["hi"] < 0, r
assert -6 <= r["diff_pp"]["pct"] <= -4, r
assert doc["fail_above_pp"] is None and doc["failed"] is False
' "$tmp/worse.json"

"$tool" compare "$tmp/a.rec" "$tmp/same.rec" --fail-above 2 >"$tmp/same.txt"
rc=$?
check -m "got $rc" "compare: two files of the same seed exit 0" [ $rc = 0 ]
check -m "$(tail -n 1 "$tmp/same.txt")" "compare: two files of the same seed flag nothing" \
	grep -qE '^0 of [0-9]+ differences flagged' "$tmp/same.txt"

"$tool" compare "$tmp/a.rec" "$tmp/other.rec" --fail-above 2 >"$tmp/other.txt"
rc=$?
check -m "got $rc; $(tail -n 1 "$tmp/other.txt")" "compare: two seeds differ by less than 2 points: exit 0" [ $rc = 0 ]

mkdir -p "$tmp/runA/menu2010" "$tmp/runB/menu2010"
cp "$tmp/a.rec" "$tmp/runA/menu2010/run.rec"
cp "$tmp/worse.rec" "$tmp/runB/menu2010/run.rec"
"$tool" compare "$tmp/runA" "$tmp/runB" --fail-above 2 >"$tmp/dirs.txt"
rc=$?
check -m "exit $rc" "compare: run directories read their *.rec, same table as the files" \
	[ $rc = 1 -a "$(tail -n +4 "$tmp/dirs.txt")" = "$(tail -n +4 "$tmp/worse.txt")" ]

"$tool" compare "$tmp/a.rec" "$tmp/a.rec" --pair menu:menu2010fix >"$tmp/pair.txt"
rc=$?
check -m "exit $rc" "compare --pair: one run's two governors side by side" \
	[ $rc = 0 -a -n "$(grep -E '^periodic1ms +menu:menu2010fix +within 2x %' "$tmp/pair.txt")" ]

check_error "compare: --pair needs two governor names" "pair" \
	"$tool" compare "$tmp/a.rec" "$tmp/a.rec" --pair menu:nosuch
check_error "compare: a missing run is one line, exit 2" "nonexistent" \
	"$tool" compare "$tmp/a.rec" "$tmp/nonexistent.rec"
check_error "compare: --fail-above needs a number" "fail-above" \
	"$tool" compare "$tmp/a.rec" "$tmp/same.rec" --fail-above abc
mkdir "$tmp/empty"
check_error "compare: a directory without record files" "no record files" \
	"$tool" compare "$tmp/a.rec" "$tmp/empty"
