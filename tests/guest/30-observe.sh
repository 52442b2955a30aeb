#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: records of every idle period, live aggregation, reports, the
# dashboard, drops, and a kernel view without predictions.  Runs after
# 20-governors.sh, with idlescope_states loaded and menu governing.

. /usr/share/idlescope/lib.sh

out=/host/observe
mkdir -p $out
# 18 single checks, 3 schema checks, 20 bad inputs and two per workload.
plan $((18 + 3 + 18))

# json_get FILE KEY: the first number after "KEY": in FILE.
json_get() {
	sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1
}

# A 2 ms sleeper on CPU 1, tagged by itself, under menu2010fix: it always
# lets the tick stop, as 2.6.34 did.  Stock menu keeps the 1 ms tick when
# it predicts less than a tick, and the tick then splits each 2 ms sleep
# into pieces of about 300, 1000 and 500 us (seen in this guest).
idlescope -g menu2010fix -d 6 -i 2 -o $out -r $out/run.rec >$out/live.txt 2>&1 &
loader=$!
wait_for_loader
periodic -d 4 -p 2000 -c 1 -t periodic2ms >$out/periodic.txt 2>&1
wait $loader
rc=$?
check -m "exit $rc" "loader: 6 s run with -o and -r exits 0" [ $rc = 0 ]
check "report: report.txt exists" [ -s $out/report.txt ]
check "report: report.json exists" [ -s $out/report.json ]
check "report: no temporary file left" [ -z "$(ls $out | grep tmp)" ]
check_report_json "report: the live report.json matches the schema" $out/report.json

# The mode of the sleeper's residency histogram on CPU 1.
idlescope dump $out/run.rec >$out/run.csv
mode=$(csv_awk '$col["workload"] == "periodic2ms" && $col["cpu"] == 1 {
		b = 0; us = $col["residency_ns"] / 1000; while (us >= 2) { us /= 2; b++ } n[b]++ }
	END { best = -1; for (k in n) if (best < 0 || n[k] > n[best]) best = k; print best }' $out/run.csv)
check -m "mode 2^$mode" "records: periodic2ms residency mode on cpu1 is the 1024-2047 us bucket" \
	[ "$mode" = 10 ]
# Each of the sleeper's wake-ups ends an idle period of CPU 1, but the CPU
# may run something else (the loader) through a few of its sleeps: at
# least half of them must be tagged periods.
tagged=$(csv_awk '$col["workload"] == "periodic2ms" && $col["cpu"] == 1' $out/run.csv |
	grep -c .)
wakeups=$(sed -n 's/.* \([0-9][0-9]*\) wakeups.*/\1/p' $out/periodic.txt)
check -m "$tagged tagged periods, ${wakeups:-no} wake-ups" \
	"records: the workload tag reached the periods of its wake-ups" \
	[ "${wakeups:-0}" -gt 0 -a $((tagged * 2)) -ge "${wakeups:-0}" ]

produced=$(json_get $out/report.json records_produced)
dropped=$(json_get $out/report.json dropped_records)
check -m "$dropped dropped" "records: no drops with the default ring buffer" [ "$dropped" = 0 ]
lines=$(($(wc -l <$out/run.csv) - 1))
check -m "$lines in the file, $produced produced" \
	"records: the record file holds every received record" [ "$lines" = "$produced" ]

blocks=$(grep -c '^=== idlescope' $out/live.txt)
check -m "$blocks blocks" "dashboard: refreshed blocks appear on the console" [ "$blocks" -ge 2 ]
hist=$(grep -c '^workload periodic2ms, governor menu2010fix: ' $out/live.txt)
check -m "$hist blocks" "dashboard: blocks show the current workload under its governor" \
	[ "$hist" -ge 1 ]

# Off-line report from the record file: the same aggregation.
mkdir -p $out/offline
idlescope report $out/run.rec -o $out/offline >/dev/null 2>&1
check "report: idlescope report FILE rebuilds the report" [ -s $out/offline/report.json ]
check "report: offline report counts the same records" \
	[ "$(json_get $out/offline/report.json records_produced)" = "$produced" ]
check_report_json "report: the offline report.json matches the schema" $out/offline/report.json

# A tiny ring buffer under a fast waker must drop, and say so.  The loader
# is stopped for a second, as a slow consumer would be, so the 4 KiB buffer
# (about 40 records) certainly overflows.
mkdir -p $out/tiny
idlescope -d 5 -i 10 -b 4096 -o $out/tiny >$out/tiny.txt 2>&1 &
loader=$!
wait_for_loader
pingpong -d 3 >/dev/null 2>&1 &
waker=$!
sleep 1
kill -STOP $loader
sleep 1
kill -CONT $loader
wait $waker
wait $loader
dropped=$(json_get $out/tiny/report.json dropped_records)
check -m "${dropped:-no} dropped" "drops: a 4 KiB ring buffer under pingpong drops records" \
	[ "${dropped:-0}" -gt 0 ]
check "drops: report.txt says records were dropped" grep -q 'dropped (ring buffer full)' $out/tiny/report.txt
check_report_json "drops: the report.json with drops matches the schema" $out/tiny/report.json

# Without reading the governors: residency only, predictions unavailable.
# Its output goes to guest memory while it runs: timeout's 60 s are guest
# time, which a wait for the 9p share can spend at once (docs/clock.md).
timeout 60 idlescope -d 2 --no-predict >/tmp/nopredict.txt 2>&1
rc=$?
cp /tmp/nopredict.txt $out/nopredict.txt
check -m "exit $rc" "no-predict: loader exits 0" [ $rc = 0 ]
check "no-predict: residency still reported" grep -q 'residency' $out/nopredict.txt
check "no-predict: says predictions are not available" grep -q 'predictions *not available' $out/nopredict.txt

# Bad input: one clear line, non-zero exit, nothing written.
mkdir -p $out/bad
bad_input() {
	name=$1
	shift
	"$@" >$out/bad/stdout 2>$out/bad/stderr
	rc=$?
	nlines=$(grep -c . $out/bad/stderr)
	ok=no
	[ $rc != 0 ] && [ "$nlines" -ge 1 ] && [ -z "$(ls $out/bad | grep report)" ] && ok=yes
	check -m "exit $rc, $nlines lines: $(head -n 1 $out/bad/stderr)" "bad input: $name" [ $ok = yes ]
}
bad_input "unknown flag" idlescope --frobnicate -o $out/bad
bad_input "-d 0" idlescope -d 0 -o $out/bad
bad_input "-d abc" idlescope -d abc -o $out/bad
bad_input "-i -1" idlescope -i -1 -o $out/bad
bad_input "-b 1000" idlescope -b 1000 -o $out/bad
bad_input "-g nosuch" idlescope -d 1 -g nosuch -o $out/bad
bad_input "-w too long" idlescope -w waytoolongworkloadname -o $out/bad
bad_input "unwritable -o" idlescope -d 1 -o /proc
bad_input "missing -o" idlescope -d 1 -o /nonexistent
bad_input "missing record file" idlescope report /nonexistent.rec
bad_input "record file in a missing directory" idlescope -d 1 -r /nonexistent/run.rec
bad_input "report without a file" idlescope report
bad_input "report with an unknown flag" idlescope report -x $out/run.rec
bad_input "tag too long" idlescope tag waytoolongworkloadname
bad_input "dump without a file" idlescope dump
# Every workload's flags and values: tests/harness/workloads.sh.  Here what
# only the guest shows: a CPU it does not have, a missing disk.
bad_input "periodic -c 99" periodic -d 1 -c 99
bad_input "iowait missing device" iowait -d 1 -f /nonexistent
echo garbage >$out/foreign.rec
bad_input "foreign record file" idlescope report $out/foreign.rec
check "bad input: -g nosuch left the governor alone" \
	[ "$(cat /sys/devices/system/cpu/cpuidle/current_governor)" = menu ]
