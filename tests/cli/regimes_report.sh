#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A cell whose boots fall into two regimes is shown as its regimes, not as
# one mean with an interval (issue 37): four genrec boots, the fourth with
# 40% of pingpong's predictions planted 64x off, give pingpong's cells of
# the 2010 models one low boot and three high ones.  report.txt shows the
# cell as "low|high~", says what the mark means and lists each regime's
# boots and values; report.json gives the same under the cell's "regimes"
# and passes the schema check; four boots without the planted one show no
# regime at all.  Numbers from the seeded files: the same in every run.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/idlescope || exit
cd "$tmp" || exit 1
for s in 1 2 3 5; do
	"$top/build/genrec" -n 20000 -c 2 -s $s -o b$s.rec || exit
done
"$top/build/genrec" -n 20000 -c 2 -s 4 -p 40 -w pingpong -o b4.rec || exit
mkdir split even
"$top/build/idlescope" report -o split b1.rec b2.rec b3.rec b4.rec >/dev/null || exit
"$top/build/idlescope" report -o even b1.rec b2.rec b3.rec b5.rec >/dev/null || exit

# row TABLE WORKLOAD: WORKLOAD's row of report.txt's TABLE (its first line).
row() {
	awk -v t="$1" -v w="$2" 'index($0, t) == 1 { in_t = 1; next }
		in_t && $1 == w { print; exit }' split/report.txt
}
check -m "$(row 'within 2x % raw' pingpong)" \
	"regimes: a split cell is its two regimes' means, marked" \
	[ "$(row 'within 2x % raw' pingpong | tr -s ' ')" = "pingpong 14.2|25.2~ 15.4|24.9~" ]
check "regimes: the first screen says what the mark means" \
	grep -qx '~ boots in two regimes: the low and high one.s means (boots below; compare leaves it untested)' \
	split/report.txt
check "regimes: each regime's boots and values are listed" \
	grep -qx 'pingpong menu2010fix within 2x % raw: 1 boot at 14.2 (14.2-14.2), 3 at 25.2 (24.8-25.7)' \
	split/report.txt
got=$(python3 - split/report.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for h in d["headline"]:
    if h["workload"] == "pingpong" and h["governor"] == "menu2010fix":
        r = [x for x in h["regimes"] if x["metric"] == "within_2x"][0]["regimes"]
        print(" ".join("%d@%.1f" % (g["boots"], g["mean"]) for g in r))
PY
)
check -m "got '$got'" "regimes: report.json gives the cell's regimes" [ "$got" = "1@14.2 3@25.2" ]
check "regimes: the report with regimes passes the schema check" \
	python3 "$top/tests/check_report_json.py" split/report.json
check -m "$(grep -c '~' even/report.txt) lines with the mark" \
	"regimes: four like boots show no regime" \
	[ "$(grep -c '~\|headline, regimes' even/report.txt)" = 0 ]
