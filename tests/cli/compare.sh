#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of `idlescope compare` on synthetic record files (bench/genrec):
# a planted regression (5% of predictions 64x off) is flagged and fails
# the gate; two files of the same seed, or of two seeds, pass it.  The gate
# fails closed (issue 24): a side that lacks a number, has no periods, was
# not finished or was recorded on another setup is an error, exit 2.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 53
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/tests/compare_tool \
	build/tests/recfile_cases || exit
tool=$top/build/tests/compare_tool
"$tool" template "$tmp/template.rec"
gen() { "$top/build/genrec" -n 80000 -c 2 -H "$tmp/template.rec" "$@"; }
gen -s 1 -o "$tmp/a.rec" && gen -s 1 -o "$tmp/same.rec" && gen -s 2 -o "$tmp/other.rec" &&
	gen -s 1 -p 5 -o "$tmp/worse.rec" || { echo "FAIL: compare: genrec failed"; exit 1; }

"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" --fail-above 2 >"$tmp/worse.txt"
rc=$?
check -m "got $rc" "compare: a planted 5-point regression exits 1 with --fail-above 2" [ $rc = 1 ]
line=$(grep -E '^periodic1ms +menu +within 2x % raw' "$tmp/worse.txt")
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
        r["governor"] == "menu" and r["model"] == "live" and r["metric"] == "within_2x"
        and r["view"] == "raw"]
assert len(rows) == 1, rows
r = rows[0]
assert r["flagged"] and r["worse"] and r["diff_pp"]["hi"] < 0, r
assert -6 <= r["diff_pp"]["pct"] <= -4, r
assert doc["fail_above_pp"] is None and doc["failed"] is False
' "$tmp/worse.json"

# --format headline: the live governors' shares, A beside B, as the text
# table has them, the flagged difference marked on B's cell.
"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" --format headline >"$tmp/worse.hl"
rc=$?
want=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "raw") { print $(i + 1), $(i + 2), $(i + 3), $(i + 4) "*"; exit } }')
got=$(awk '/^within 2x % raw/ { t = $5 == "menu" && $6 == "A"; next } t && $1 == "periodic1ms" {
	print $2, $3, $4, $5; exit }' "$tmp/worse.hl")
check -m "exit $rc, got '$got', text table '$want'" \
	"compare --format headline: menu's A and B beside each other, the flagged B marked" \
	[ $rc = 0 -a -n "$got" -a "$got" = "$want" ]
check -m "$(grep -c '^within 2x %' "$tmp/worse.hl") within-2x tables" \
	"compare --format headline: one table per headline number, no model rows" \
	sh -c "[ \$(grep -c '^within 2x %' '$tmp/worse.hl') -ge 1 ] && [ \$(grep -c '^ideal hit %' '$tmp/worse.hl') -ge 1 ] && ! grep -q 'within 2x  ' '$tmp/worse.hl'"

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

# Issue 24, 1: the gate fails closed.  Each case: exit 2, one line.
error_status=2
"$top/build/genrec" -n 0 -c 2 -H "$tmp/template.rec" -o "$tmp/empty.rec"
"$tool" drop "$tmp/a.rec" "$tmp/no-idle.rec" workload idle
"$tool" drop "$tmp/a.rec" "$tmp/no-menu.rec" governor menu
"$tool" kill "$tmp/a.rec" "$tmp/killed.rec" 40000
check_error "compare gate: a side without idle periods is an error" "empty.rec: no idle periods" \
	"$tool" compare "$tmp/a.rec" "$tmp/empty.rec" --fail-above 2
check_error "compare gate: ... on either side" "empty.rec: no idle periods" \
	"$tool" compare "$tmp/empty.rec" "$tmp/a.rec" --fail-above 2
check_error "compare gate: a workload only A has is an error" \
	"numbers on one side only, the first: workload idle, governor [a-z0-9]+, .* only in A" \
	"$tool" compare "$tmp/a.rec" "$tmp/no-idle.rec" --fail-above 2
check_error "compare gate: ... and one only B has" "workload idle, .* only in B" \
	"$tool" compare "$tmp/no-idle.rec" "$tmp/a.rec" --fail-above 2
check_error "compare gate: a governor only A has is an error" "governor menu, .* only in A" \
	"$tool" compare "$tmp/a.rec" "$tmp/no-menu.rec" --fail-above 2
check_error "compare gate: a file the loader did not finish is an error" \
	"killed.rec: the loader did not finish it \(no trailer: drops unknown\)" \
	"$tool" compare "$tmp/a.rec" "$tmp/killed.rec" --fail-above 2
unset error_status
"$tool" compare "$tmp/a.rec" "$tmp/no-idle.rec" --fail-above 2 --allow-missing >"$tmp/allow.txt"
rc=$?
check -m "exit $rc; $(tail -n 1 "$tmp/allow.txt")" \
	"compare gate: --allow-missing compares the rest, and counts what it could not" \
	[ $rc = 0 -a -n "$(grep -E '^0 of [0-9]+ differences flagged, [1-9][0-9]* numbers on one side only, 0 worse' "$tmp/allow.txt")" ]
check "compare gate: ... listing each such number as only in A" \
	grep -qE '^idle +menu2010 +within 2x % raw +[0-9.]+ ±[0-9.]+ +- +only in A$' "$tmp/allow.txt"
"$tool" compare "$tmp/a.rec" "$tmp/killed.rec" --allow-missing -j >"$tmp/allow.json" 2>"$tmp/allow.err"
rc=$?
check -m "exit $rc" "compare gate: --allow-missing takes a killed loader's file, with a warning" \
	[ $rc = 0 -a -n "$(grep 'warning: .*killed.rec: the loader did not finish it' "$tmp/allow.err")" ]
check "compare -j: the counts of numbers compared, on one side only and flagged" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["compared"] == len(doc["differences"]) > 0, doc["compared"]
assert doc["missing"] == len(doc["one_side_only"]), doc["missing"]
assert doc["flagged"] == sum(r["flagged"] for r in doc["differences"])
assert doc["a_setup"]["files"] == 1 and doc["b_setup"]["hz"] == 1000
' "$tmp/allow.json"
check -m "$(tail -n 1 "$tmp/same.txt")" "compare: the summary counts numbers compared, flagged and on one side only" \
	grep -qE '^0 of [1-9][0-9]* differences flagged, 0 numbers on one side only, 0 worse by more than 2 points: ok$' \
	"$tmp/same.txt"

# Issue 24, 2: the setups of the two sides, and within one side.
"$tool" template "$tmp/k2.rec" other-kernel && "$tool" template "$tmp/hz250.rec" template 250
gen -s 1 -H "$tmp/k2.rec" -o "$tmp/k2-a.rec" && gen -s 1 -H "$tmp/hz250.rec" -o "$tmp/hz250-a.rec"
check "compare: the header gives both setups" \
	[ "$(sed -n 2p "$tmp/same.txt" | sed 's/^A: [^ ]* //')" = \
	  "(1 files, 1 boots): kernel template (HZ 1000, cpuidle driver none), clock virtual, 4 states" ]
error_status=2
check_error "compare: sides of two kernels are an error naming them" \
	"A and B differ in kernel: A 'template', B 'other-kernel'; --across kernel" \
	"$tool" compare "$tmp/a.rec" "$tmp/k2-a.rec" --fail-above 2
check_error "compare: sides of two HZ are an error" "differ in hz: A '1000', B '250'" \
	"$tool" compare "$tmp/a.rec" "$tmp/hz250-a.rec"
check_error "compare: --across takes only setup facts" "'tick' is not one of" \
	"$tool" compare "$tmp/a.rec" "$tmp/k2-a.rec" --across tick
unset error_status
"$tool" compare "$tmp/a.rec" "$tmp/k2-a.rec" --across kernel --fail-above 2 >"$tmp/across.txt"
rc=$?
check -m "exit $rc" "compare: --across kernel compares two kernels" \
	[ $rc = 0 -a -n "$(grep -x 'B: .* (1 files, 1 boots): kernel other-kernel (HZ 1000, cpuidle driver none), clock virtual, 4 states' "$tmp/across.txt")" ]
error_status=2
mkdir -p "$tmp/dup" "$tmp/mixed"
cp "$tmp/a.rec" "$tmp/dup/a.rec" && ln -s a.rec "$tmp/dup/b.rec"
check_error "compare: one side's file twice, through a link, is an error" "b.rec: given twice, as .*a.rec" \
	"$tool" compare "$tmp/a.rec" "$tmp/dup"
cp "$tmp/a.rec" "$tmp/mixed/a.rec" && cp "$tmp/hz250-a.rec" "$tmp/mixed/b.rec"
check_error "compare: one side of two setups is an error" "b.rec: recorded with HZ 250" \
	"$tool" compare "$tmp/a.rec" "$tmp/mixed"
# One governor on two kernels is two governors: a report never pools them.
mkdir -p "$tmp/two-kernels"
error_status=1 check_error "report: files of two kernels are an error naming both" \
	"k2-a.rec: recorded on kernel 'other-kernel', .*/a.rec on 'template': one report is one setup" \
	"$top/build/idlescope" report "$tmp/a.rec" "$tmp/k2-a.rec" -o "$tmp/two-kernels"
check "report: ... and writes no report" [ ! -e "$tmp/two-kernels/report.txt" ]
unset error_status
# make run KERNELS=: each kernel's boots in RUN_DIR/<kernel>/, then side by side.
for k in 6.1 6.12; do
	mkdir -p "$tmp/kruns/$k/seed-0/menu2010/menu2010"
done
cp "$tmp/a.rec" "$tmp/kruns/6.1/seed-0/menu2010/menu2010/run.rec"
cp "$tmp/k2-a.rec" "$tmp/kruns/6.12/seed-0/menu2010/menu2010/run.rec"
"$top/scripts/run-kernels.sh" "$top/build/idlescope" "$tmp/kruns" 6.1 6.12 >"$tmp/kruns.out" 2>&1
rc=$?
check -m "exit $rc: $(head -n 1 "$tmp/kruns.out")" \
	"run KERNELS: the second kernel beside the first, with both setups" \
	[ $rc = 0 -a -n "$(grep -x '== kernel 6.1 (A) beside kernel 6.12 (B) ==' "$tmp/kruns.out")" \
	  -a -n "$(grep -E '^B: .*kernel other-kernel \(HZ 1000' "$tmp/kruns/kernels-6.1-vs-6.12.txt")" ]
check "run KERNELS: ... every number on both kernels with its interval" \
	grep -qE '^idle +menu2010 +within 2x % raw +[0-9.]+ ±[0-9.]+ +[0-9.]+ ±[0-9.]+ ' \
	"$tmp/kruns/kernels-6.1-vs-6.12.txt"
check -m "$(grep -A2 '^within 2x %' "$tmp/kruns.out" | tr '\n' ';')" \
	"run KERNELS: it prints menu2010 on both kernels side by side first" \
	grep -qE '^idle +[0-9.]+ ±[0-9.]+ +[0-9.]+ ±[0-9.]+' "$tmp/kruns.out"
error_status=1 check_error "run KERNELS: a kernel without records is one line" \
	"kernel 7.0: no record file under .*/kruns/7.0/seed-" \
	"$top/scripts/run-kernels.sh" "$top/build/idlescope" "$tmp/kruns" 6.1 7.0
mkdir -p "$tmp/many"
for i in $(seq 1 70); do
	"$top/build/genrec" -n 200 -c 2 -s "$i" -H "$tmp/template.rec" -o "$tmp/many/$i.rec"
done
"$tool" compare "$tmp/many" "$tmp/many" >"$tmp/many.txt" 2>"$tmp/many.err"
rc=$?
check -m "exit $rc: $(head -n 1 "$tmp/many.err")" "compare: a side of 70 files compares (no limit of 64)" \
	[ $rc = 0 -a -n "$(grep -E '^A: .* \(70 files, 70 boots\)' "$tmp/many.txt")" ]

# Issue 24, 8: numbers as people write them.
error_status=2
for bad in 0x10 ' 5' -0 1e1 inf 5. .5; do
	check_error "compare: --fail-above '$bad' is a usage error" "--fail-above" \
		"$tool" compare "$tmp/a.rec" "$tmp/a.rec" --fail-above "$bad"
done
unset error_status

# Issue 36: a host-timed workload's rows are shown, not tested, unless
# asked; a run directory's workloads.txt says which they are.
cat >"$tmp/host.list" <<'LIST'
periodic1ms     default         host    periodic -d $d
pingpong        default         host    pingpong -d $d
poisson2ms      default         host    poisson -d $d
idle            default         host    idle -d $d
LIST
"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" --fail-above 2 -w "$tmp/host.list" >"$tmp/host.txt"
rc=$?
check -m "exit $rc; $(tail -n 2 "$tmp/host.txt" | tr '\n' ' ')" \
	"compare: host-timed workloads' rows are left out of the tested family, and counted" \
	[ $rc = 0 -a -n "$(grep -E '^[1-9][0-9]* rows of host-timed workloads left out of the tested family' "$tmp/host.txt")" \
	  -a -n "$(grep -E '^periodic1ms +menu +within 2x % raw .*[0-9] \(host-timed, not tested\)$' "$tmp/host.txt")" ]
"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" --fail-above 2 -w "$tmp/host.list" \
	--include-host-timed >/dev/null
rc=$?
check -m "exit $rc" "compare --include-host-timed: the planted regression fails the gate again" [ $rc = 1 ]
cp "$tmp/host.list" "$tmp/runB/workloads.txt"
"$tool" compare "$tmp/runA" "$tmp/runB" --fail-above 2 >"$tmp/hostdir.txt"
rc=$?
check -m "exit $rc; $(tail -n 2 "$tmp/hostdir.txt" | tr '\n' ' ')" \
	"compare: a run directory's workloads.txt marks its host-timed workloads" \
	[ $rc = 0 -a -n "$(grep -E 'rows of host-timed workloads left out' "$tmp/hostdir.txt")" ]

# Issue 39: the gate fails closed on what no test could judge.  Sides of
# 20 periods a governor, 100% and 35% within 2x: no interval, so
# untested, yet 65 points down.  Two sides of one boot: one pair, no
# test (issue 37: sides of the same boots are paired), yet 5 points down.
"$top/build/genrec" -n 80 -c 2 -s 4 -H "$tmp/template.rec" -o "$tmp/few-a.rec" &&
	"$top/build/genrec" -n 80 -c 2 -s 3 -p 70 -H "$tmp/template.rec" -o "$tmp/few.rec"
"$tool" compare "$tmp/few-a.rec" "$tmp/few.rec" --fail-above 2 >"$tmp/few.txt"
rc=$?
line=$(grep -E '^periodic1ms +menu +within 2x % raw' "$tmp/few.txt")
check -m "exit $rc: $line" "compare: an untested difference worse than --fail-above fails the gate" \
	[ $rc = 1 -a "${line% FAIL (untested)}" != "$line" ]
"$top/build/tests/recfile_cases" boot-id "$tmp/a.rec" "$tmp/boot-a.rec" one-boot &&
	"$top/build/tests/recfile_cases" boot-id "$tmp/worse.rec" "$tmp/boot-b.rec" one-boot
"$tool" compare "$tmp/boot-a.rec" "$tmp/boot-b.rec" --fail-above 2 >"$tmp/boot.txt"
rc=$?
check -m "exit $rc: $(tail -n 2 "$tmp/boot.txt" | tr '\n' ' ')" \
	"compare: sides that share a boot fail the gate on a 5-point regression, saying why" \
	[ $rc = 1 -a -n "$(grep -x 'design: paired by boot (1 pairs: .*' "$tmp/boot.txt")" \
	  -a -n "$(grep -E '^periodic1ms +menu +within 2x % raw .* \(no test\) FAIL \(untested\)$' "$tmp/boot.txt")" ]
"$tool" compare "$tmp/boot-a.rec" "$tmp/boot-b.rec" --fail-above 6 >/dev/null
rc=$?
check -m "exit $rc" "compare: ... and pass it when the difference is within --fail-above" [ $rc = 0 ]
