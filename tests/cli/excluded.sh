#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the runs left out (issue 36): a run whose guest time jumped
# (a sleep woken 167 s late, as a stalled irqtrain's boot saw), or whose
# workload got 2.3% of its device's rate (the stalled irqtrain's 23.3 of
# 1000 Hz), is no data point; missed deadlines, which a governor moves,
# are a figure, not a reason to leave a run out.  A planted regression in periodic1ms fails
# the gate; the same run marked late, or with its workload's figure below
# target, is left out of the headline and the gate, with one warning line
# naming its boot, governor and workload.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 11
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/tests/compare_tool build/idlescope ||
	exit
tool=$top/build/tests/compare_tool
"$tool" template "$tmp/template.rec"
gen() { "$top/build/genrec" -n 80000 -c 2 -H "$tmp/template.rec" "$@"; }
# genrec's two CPUs run periodic1ms under menu and menu2010fix.
gen -s 1 -o "$tmp/a.rec" && gen -s 1 -p 30 -w periodic1ms -o "$tmp/worse.rec" &&
	"$tool" late "$tmp/worse.rec" "$tmp/late1.rec" periodic1ms menu &&
	"$tool" late "$tmp/late1.rec" "$tmp/late.rec" periodic1ms menu2010fix ||
	{ echo "FAIL: excluded: making the record files failed"; exit 1; }

"$tool" compare "$tmp/a.rec" "$tmp/worse.rec" --fail-above 2 >"$tmp/worse.txt"
rc=$?
check -m "exit $rc" "excluded: the planted regression fails the gate when its run counts" [ $rc = 1 ]

mkdir "$tmp/out"
"$top/build/idlescope" report -o "$tmp/out" "$tmp/late.rec" >/dev/null 2>"$tmp/report.err"
rc=$?
check -m "exit $rc: $(head -c 200 "$tmp/report.err")" "excluded: a report of the late run is written" [ $rc = 0 ]
check -m "$(grep WARNING "$tmp/out/report.txt" | head -n 2)" \
	"excluded: one warning line names its boot, governor and workload, and why" \
	grep -qE '^WARNING: left out of the headline and the gate: boot 0 menu periodic1ms: a sleep woke 4295.0 ms late \(1 more than 10 ms\)' \
	"$tmp/out/report.txt"
row=$(awk '/^within 2x % raw/ { t = 1; next } t && /^periodic1ms/ { print; exit }' "$tmp/out/report.txt")
other=$(awk '/^within 2x % raw/ { t = 1; next } t && /^pingpong/ { print; exit }' "$tmp/out/report.txt")
check -m "'$row' / '$other'" "excluded: its headline cells are marked and empty, the others not" \
	sh -c "echo '$row' | grep -qE '^periodic1ms +-! +-! *\$' && echo '$other' | grep -qE '^pingpong +[0-9]'"
check -m "$(python3 "$top/tests/check_report_json.py" "$tmp/out/report.json" 2>&1 | head -n 2)" \
	"excluded: report.json lists the run left out, and validates" \
	python3 "$top/tests/check_report_json.py" "$tmp/out/report.json" \
	--expect 'excluded_runs[0].workload=periodic1ms' --expect 'excluded_runs[0].governor=menu' \
	--expect 'headline[0].excluded_boots=1' --expect 'headline[0].periods=0'

"$tool" compare "$tmp/a.rec" "$tmp/late.rec" --fail-above 2 >"$tmp/late.txt" 2>"$tmp/late.err"
rc=$?
check -m "exit $rc: $(cat "$tmp/late.err")" \
	"excluded: a side whose only run of a cell is left out fails closed" \
	[ $rc = 2 -a -n "$(grep 'periodic1ms, governor menu, within_2x (raw) only in A' "$tmp/late.err")" ]
"$tool" compare "$tmp/a.rec" "$tmp/late.rec" --fail-above 2 --allow-missing >"$tmp/allow.txt"
rc=$?
check -m "exit $rc; $(tail -n 1 "$tmp/allow.txt")" \
	"excluded: --allow-missing leaves the late run out of the gate: exit 0" [ $rc = 0 ]
check "excluded: ... and lists its numbers as only in A" \
	grep -qE '^periodic1ms +menu +within 2x % raw .* only in A$' "$tmp/allow.txt"

# The same regression with its device's train at 2.3% of its rate.
cp "$tmp/worse.rec" "$tmp/stalled.rec"
printf '# idlescope figures 1\nmenu periodic1ms rate_delivered_pct 2.3 %%\nmenu2010fix periodic1ms rate_delivered_pct 2.3 %%\nmenu pingpong deadlines_met_pct 60.0 %%\n' \
	>"$tmp/stalled.rec.figures"
mkdir "$tmp/out2"
"$top/build/idlescope" report -o "$tmp/out2" "$tmp/stalled.rec" >/dev/null 2>"$tmp/report2.err"
check -m "$(grep WARNING "$tmp/out2/report.txt" | head -n 2)" \
	"excluded: a run whose device's train stalled is left out, and says so" \
	grep -qE '^WARNING: left out of the headline and the gate: boot 0 menu periodic1ms: got 2.3% of its device.s rate \(below 90%\)' \
	"$tmp/out2/report.txt"
check "excluded: ... and not a run that met 60% of its deadlines (the governor's doing)" \
	sh -c "! grep -q 'WARNING: .* pingpong' '$tmp/out2/report.txt'"
"$tool" compare "$tmp/a.rec" "$tmp/stalled.rec" --fail-above 2 --allow-missing >/dev/null
rc=$?
check -m "exit $rc" "excluded: the run below its target is out of the gate: exit 0" [ $rc = 0 ]
