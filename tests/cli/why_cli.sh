#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of what the records say of why periods missed, through the
# commands, on synthetic record files (bench/genrec: timer wake-ups for the
# timer patterns, cross-CPU ones for pingpong): extract's sleeps and their
# worst stretch, report --power and --format linux-pm, compare --format
# linux-pm, dump's wake-up columns, and bad input as one line each.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 21
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/tests/why_tool || exit
T=$top/build/tests/why_tool
"$top/build/genrec" -n 20000 -c 2 -o "$tmp/g.rec" && "$top/build/genrec" -n 20000 -c 2 -s 2 \
	-o "$tmp/g2.rec" && "$T" nowake "$tmp/g.rec" "$tmp/nowake.rec" ||
	{ echo "FAIL: why_cli: genrec failed"; exit 1; }
"$T" dump "$tmp/g.rec" >"$tmp/g.csv"

# extract: genrec's every wake-up had a task to run, so each period is a sleep.
"$T" extract "$tmp/g.rec" -w pingpong --all -o "$tmp/all.trace" 2>/dev/null
periods=$(csv_awk '$col["workload"] == "pingpong"' "$tmp/g.csv" | grep -c .)
check -m "$(grep -c '^sleep ' "$tmp/all.trace") sleeps, $periods periods" \
	"extract --all: one sleep per period whose wake-up had a task to run" \
	[ "$(grep -c '^sleep ' "$tmp/all.trace")" = "$periods" ]
want=$(csv_awk '$col["workload"] == "pingpong" { if (o == "" || $col["enter_ns"] < o) o = $col["enter_ns"]
		if ($col["cpu"] == 0 && f == "") f = $col["enter_ns"] " " $col["residency_ns"] }
	END { split(f, a, " "); printf "sleep 0 %d %d ipi ipi call_function_single", a[1] - o, a[2] }' \
	"$tmp/g.csv")
check -m "want '$want', got '$(grep -m1 '^sleep 0 ' "$tmp/all.trace")'" \
	"extract: a sleep's start (from the origin), length and source are its period's" \
	[ "$(grep -m1 '^sleep 0 ' "$tmp/all.trace")" = "$want" ]
check "extract: the trace keeps HZ's tick and the origin" \
	grep -qx "tick_ns 1000000" "$tmp/all.trace"
"$T" extract "$tmp/g.rec" -w pingpong --window 100 >"$tmp/worst.trace" 2>"$tmp/worst.err"
set -- $(sed -n 's/^# worst 100 ms: \([0-9.]*\)% within 2x, the run \([0-9.]*\)%.*/\1 \2/p' \
	"$tmp/worst.trace")
check -m "worst ${1:-?}, run ${2:-?}; $(cat "$tmp/worst.err")" \
	"extract: the worst window scores no better than the run, and is shorter" \
	awk -v w="${1:--1}" -v r="${2:--1}" -v a="$(grep -c '^sleep ' "$tmp/worst.trace")" \
		-v b="$periods" 'BEGIN { exit !(w >= 0 && w <= r && a > 0 && a < b) }'
check_error "extract: records without wake-up sources are one error" "no wake-up sources" \
	"$T" extract "$tmp/nowake.rec"
check_error "extract: a workload with no periods is one error" "no period of that workload" \
	"$T" extract "$tmp/g.rec" -w nosuch
check_error "extract: --window 0 is one error" "--window must be an integer from 1 to" \
	"$T" extract "$tmp/g.rec" --window 0
check_error "extract: an unknown governor is one error" "-g frob: no such governor" \
	"$T" extract "$tmp/g.rec" -g frob
"$T" extract --help >"$tmp/help.out" 2>"$tmp/help.err"
rc=$?
check -m "exit $rc" "extract: --help prints its usage and exit statuses" \
	[ $rc = 0 -a ! -s "$tmp/help.err" -a -n "$(grep '^Exit status: 0 ' "$tmp/help.out")" ]
error_status=2 check_error "extract: without a file is a usage error, exit 2" \
	"usage: idlescope extract FILE" "$T" extract

# report --power: a table of 1 mW in every state, no exit energy: the energy
# is the idle time in ns times 1e-6 uJ.
for s in $(seq 0 8); do echo "S$s 1 0"; done >"$tmp/flat.power"
"$T" report "$tmp/g.rec" --power "$tmp/flat.power" -j >"$tmp/flat.json"
gov=$(csv_awk '$col["workload"] == "pingpong" { print $col["governor"]; exit }' "$tmp/g.csv")
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
e = [w for w in d["why"] if w["workload"] == "pingpong" and w["governor"] == sys.argv[3]]
e = e[0]["energy"]
print(d["power_table"]["source"] == sys.argv[2], e["energy_uj"], e["oracle_energy_uj"])' \
	"$tmp/flat.json" "$tmp/flat.power" "$gov")
want=$(csv_awk -v g="$gov" '$col["workload"] == "pingpong" && $col["governor"] == g {
		s += $col["residency_ns"] } END { printf "%.6g", s / 1e6 }' "$tmp/g.csv")
check -m "got $got, want True $want $want" "report --power: the energy is the table's, exactly" \
	[ "$got" = "True $want $want" ]
check_error "report: --power of a missing file is one error" "--power $tmp/none: No such file" \
	"$T" report "$tmp/g.rec" --power "$tmp/none"
printf 'A 1 0\nB 1 0\n' >"$tmp/short.power"
check_error "report: --power of another number of states is one error" \
	"9 idle states, the power table $tmp/short.power 2" "$T" report "$tmp/g.rec" --power "$tmp/short.power"
printf 'A 1\n' >"$tmp/bad.power"
check_error "report: a bad --power file names its line" "line 1: expected NAME POWER_MW" \
	"$T" report "$tmp/g.rec" --power "$tmp/bad.power"
check_error "report: --format bogus is one error" "--format bogus: not text, json or linux-pm" \
	"$T" report "$tmp/g.rec" --format bogus

# The linux-pm table and compare's pair.
"$T" report "$tmp/g.rec" --format linux-pm >"$tmp/pm.txt"
pairs=$(csv_awk '$col["workload"] != "" { p[$col["workload"] " " $col["governor"]] = 1 }
	END { for (k in p) n++; print n }' "$tmp/g.csv")
rows=$(grep -cE '^(menu|menu2010|menu2010fix|menu2010rpd) +[0-9]' "$tmp/pm.txt")
check -m "$rows rows, $pairs workload x governor" \
	"report --format linux-pm: a row per workload and governor, the sysfs cross-check said" \
	[ "$rows" = "$pairs" -a -n "$(grep 'cross-check against sysfs' "$tmp/pm.txt")" ]
"$T" compare "$tmp/g.rec" "$tmp/g2.rec" --format linux-pm >"$tmp/cmp.txt"
rc=$?
check -m "exit $rc, $(grep -c '^before ' "$tmp/cmp.txt") pairs" \
	"compare --format linux-pm: a before/after pair per workload and governor" \
	[ $rc = 0 -a "$(grep -c '^before ' "$tmp/cmp.txt")" = "$pairs" \
	  -a "$(grep -c '^after ' "$tmp/cmp.txt")" = "$pairs" ]

# The workloads' own figures beside the record files are the score column.
printf '# idlescope figures 1\n%s pingpong round_trips_per_s 4321 1/s\n' "$gov" >"$tmp/g.rec.figures"
printf '# idlescope figures 1\n%s pingpong round_trips_per_s 5000 1/s\n' "$gov" >"$tmp/g2.rec.figures"
"$T" report "$tmp/g.rec" --format linux-pm >"$tmp/pm-score.txt"
rc=$?
check -m "exit $rc: $(grep -A2 '^pingpong' "$tmp/pm-score.txt" | tr '\n' '|')" \
	"report --format linux-pm: the figures file beside the records gives the score" \
	[ $rc = 0 -a -n "$(grep -x 'pingpong, score round_trips_per_s' "$tmp/pm-score.txt")" \
	  -a -n "$(grep -E "^$gov +[0-9].* 4321\$" "$tmp/pm-score.txt")" ]
"$T" compare "$tmp/g.rec" "$tmp/g2.rec" --format linux-pm >"$tmp/cmp-score.txt"
rc=$?
block=$(grep -A3 -x "pingpong, $gov, score round_trips_per_s" "$tmp/cmp-score.txt")
check -m "exit $rc: $(echo "$block" | tr '\n' '|')" \
	"compare --format linux-pm: each side's score from its own figures file" \
	[ $rc = 0 -a -n "$(echo "$block" | grep -E '^before .* 4321$')" \
	  -a -n "$(echo "$block" | grep -E '^after .* 5000$')" ]
printf '# idlescope figures 1\nfrob pingpong round_trips_per_s 1 1/s\n' >"$tmp/g2.rec.figures"
error_status=2 check_error "compare: a bad figures file is one error, exit 2" "g2.rec.figures" \
	"$T" compare "$tmp/g.rec" "$tmp/g2.rec" --format linux-pm
rm -f "$tmp/g.rec.figures" "$tmp/g2.rec.figures"

# dump: the wake-up columns, named from the trailer or by number.
check "dump: a cross-CPU wake-up and an unnamed hrtimer, by their labels" \
	[ -n "$(csv_awk '$col["workload"] == "pingpong" && $col["wake"] == "ipi call_function_single"' \
		"$tmp/g.csv" | head -n 1)" \
	  -a -n "$(csv_awk '$col["workload"] == "periodic1ms" &&
		$col["wake"] == "hrtimer 0xffffffff81094600" && $col["wake_source"] == "hrtimer"' \
		"$tmp/g.csv" | head -n 1)" ]
