#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: record and replay.  The off-line report of a record file is the
# live report, byte for byte; a killed loader's file still reports up to its
# last whole record; damaged or foreign files are one clear error.  Runs
# with idlescope_states loaded (20-governors.sh leaves it so).

. /usr/share/idlescope/lib.sh

out=/host/record
mkdir -p $out/live $out/offline $out/killed $out/bad
plan 23

idlescope -g menu2010fix -d $UNTIL_STOPPED_S -i 3600 -o $out/live -r $out/run.rec >$out/live.txt 2>&1 &
loader=$!
wait_for_loader
periodic -d 2 -p 1000 -c 1 >/dev/null 2>&1
pingpong -d 1 >/dev/null 2>&1
kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc" "record: the loader ends cleanly on SIGINT" [ $rc = 0 ]
check "record: SIGINT wrote complete reports" \
	[ -s $out/live/report.txt -a -s $out/live/report.json -a -z "$(ls $out/live | grep tmp)" ]
check_report_json "record: the live report.json matches the schema" $out/live/report.json
idlescope report $out/run.rec -o $out/offline >/dev/null 2>$out/offline.err
check "record: idlescope report on the record file exits 0 without warnings" \
	[ $? = 0 -a ! -s $out/offline.err ]
check "record: the off-line report.txt is byte-identical to the live one" \
	cmp -s $out/live/report.txt $out/offline/report.txt
check "record: the off-line report.json is byte-identical to the live one" \
	cmp -s $out/live/report.json $out/offline/report.json

# SIGKILL mid-run: no trailer, maybe half a record; the rest reports.  The
# killed loader's tag pin stays behind: remove it, or the next
# wait_for_loader would find it at once.
idlescope -d $UNTIL_STOPPED_S -i 3600 -r $out/killed.rec >/dev/null 2>&1 &
loader=$!
wait_for_loader
periodic -d 2 -p 500 -c 1 -t killed >/dev/null 2>&1 &
sleep 1
kill -KILL $loader
wait $loader
wait
rm -f /sys/fs/bpf/idlescope/workload
idlescope report $out/killed.rec -o $out/killed >/dev/null 2>$out/killed.err
check "record: a SIGKILLed loader's file still reports" [ $? = 0 -a -s $out/killed/report.json ]
check "record: ... and the report says the loader did not finish it" \
	grep -q 'did not finish' $out/killed.err
check "record: ... and that its start time is unknown" \
	grep -q '"start_time_utc": "unknown"' $out/killed/report.json
check_report_json "record: the killed loader's report.json matches the schema" \
	$out/killed/report.json
records=$(idlescope dump $out/killed.rec 2>/dev/null | grep -c .)
check -m "$records lines" "record: ... with the records written before the kill" [ "$records" -gt 0 ]
size=$(wc -c <$out/killed.rec)
head -c $((size - 7)) $out/killed.rec >$out/cut.rec
idlescope report $out/cut.rec >/dev/null 2>$out/cut.err
rc=$?
check -m "$(head -n 1 $out/cut.err)" \
	"record: a file cut mid-record reports up to the last whole record" \
	grep -q 'last record cut short' $out/cut.err
check -m "exit $rc" "record: a file cut mid-record exits 0" [ $rc = 0 ]

# Damaged and foreign files.
size=$(wc -c <$out/run.rec)
head -c $((size - 100)) $out/run.rec >$out/truncated.rec
check_error "record: a closed file cut short is one error" 'truncated' \
	idlescope report $out/truncated.rec -o $out/bad
head -c 40 $out/run.rec >$out/header.rec
check_error "record: a cut-short header is one error" 'truncated header' \
	idlescope report $out/header.rec -o $out/bad
cp $out/run.rec $out/newer.rec
printf '\011' | dd of=$out/newer.rec bs=1 seek=8 conv=notrunc 2>/dev/null
check_error "record: a newer record file version is one error" 'version 9 is newer' \
	idlescope report $out/newer.rec -o $out/bad
check_error "record: a foreign file is one error" 'not an idlescope record file' \
	idlescope report /bin/busybox -o $out/bad
check_error "record: a missing file is one error" 'No such file' \
	idlescope report $out/nonexistent.rec -o $out/bad
check "record: failed reports wrote nothing" [ -z "$(ls $out/bad)" ]

# Several files make one report: the live runs of two governors.
mkdir -p $out/both
idlescope report $out/run.rec $out/killed.rec -o $out/both >/dev/null 2>&1
governors=$(grep '^  governors' $out/both/report.txt)
check -m "$governors" "record: two record files make one report with both governors" \
	[ -n "$(echo "$governors" | grep menu2010fix | grep -E ' menu(,|$)')" ]
check_report_json "record: the report.json of two files matches the schema" $out/both/report.json

# Bad kernel BTF: a file without BTF, and BTF without the cpu_idle tracepoint
# (the BPF object's own).
check_error "btf: --btf FILE without BTF is one error" 'no kernel BTF in /bin/busybox' \
	idlescope --btf /bin/busybox -d 1
check_error "btf: BTF without the cpu_idle tracepoint is one error" \
	'attach target cpu_idle not in kernel BTF' \
	idlescope --btf /usr/share/idlescope/idlescope.bpf.o -d 1
