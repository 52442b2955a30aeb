#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: Debian's programs as workloads.  Every workload of the real suite
# runs its own command of workloads/suite.txt (3 s each) under the loader,
# as `make run SUITE=real` runs it: it exits 0, its idle periods are
# tagged with its name, its own figures are parsed from its output into
# the figures file, and asks for no CPU latency limit (PM QoS) while it
# runs.  The record file and the kernel's sysfs usage count the same idle
# periods, and `idlescope report` shows the figures.  A truncated output is
# one error naming the program.  Runs with idlescope_states loaded (the
# image must have the programs: tests/vm/suite.sh boots with them).

. /usr/share/idlescope/lib.sh
suite_file=/usr/share/idlescope/suite.txt
. /usr/share/idlescope/helpers.sh

workloads=$(sh /usr/share/idlescope/suite.sh --names $suite_file real)
nr=$(echo $workloads | wc -w)
# Five checks per workload (a truncated output among them), four more.
plan $((5 * nr + 4))

# While the programs run, everything they and the loader write goes to
# guest memory, as in `make run`, and to the share after them: a wait for
# the 9p share lets guest time run on to the next timer (docs/clock.md),
# past wait_for_port's polls or a loader's duration.
out=/host/programs
run_dir=/tmp/programs
figures_file=$run_dir/run.rec.figures
g=menu
# hey's first request pays for translating Go's runtime (about 2 s of guest
# time under TCG): 3 s leaves it enough requests for its percentiles.
d=3
rm -rf $run_dir
mkdir -p $out $run_dir/report

# pm_qos: the CPU latency limit in force (us), read while a workload runs.
pm_qos() {
	od -An -t d4 -N 4 /dev/cpu_dma_latency | tr -d ' '
}

idlescope -g $g -d $UNTIL_STOPPED_S -i 3600 -o $run_dir/report -r $run_dir/run.rec \
	>$run_dir/loader.txt 2>&1 &
loader=$!
wait_for_loader
qos_default=$(pm_qos)
for w in $workloads; do
	cmd=$(workload_command $w)
	eval "$cmd" >$run_dir/$w.log 2>&1 &
	run=$!
	sleep 1
	qos=$(pm_qos)
	wait $run
	rc=$?
	check -m "exit $rc: $(tail -n 2 $run_dir/$w.log | tr '\n' ' ')" "programs: $w runs under the loader" \
		[ $rc = 0 ]
	check -m "$qos us while it ran, $qos_default before" \
		"programs: $w asks for no CPU latency limit" [ "$qos" = "$qos_default" ]
done
kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc" "programs: the loader ends cleanly" [ $rc = 0 ]
cp -r $run_dir/. $out/
rm -rf $run_dir
figures_file=$out/run.rec.figures

idlescope dump $out/run.rec >$out/run.csv
for w in $workloads; do
	n=$(csv_awk -v w=$w '$col["workload"] == w' $out/run.csv | grep -c .)
	check -m "$n periods" "programs: $w's idle periods are tagged with its name" [ "$n" -gt 0 ]
	figs=$(awk -v w=$w '$1 !~ /^#/ && $2 == w' $figures_file | grep -c .)
	check -m "$figs figures: $(awk -v w=$w '$2 == w { printf "%s=%s ", $3, $4 }' $figures_file)" \
		"programs: $w's own figures are parsed from its output" [ "$figs" -gt 0 ]
done

# The kernel's count of idle entries over the run (sysfs usage) and the
# records: the same periods but those in flight at the start and the end.
produced=$(sed -n 's/.*"records_produced": *\([0-9]*\).*/\1/p' $out/report/report.json | head -n 1)
usage=$(sed -n 's/.*"sysfs_usage_delta": *\([0-9]*\).*/\1/p' $out/report/report.json | head -n 1)
check -m "$produced records, $usage entries" "programs: records and sysfs usage agree within 1%" \
	awk -v r="${produced:-0}" -v u="${usage:-0}" \
	'BEGIN { d = r - u; if (d < 0) d = -d; exit !(r > 0 && d <= u / 100 + 10) }'

mkdir -p $out/offline
idlescope report $out/run.rec -o $out/offline >$out/offline.txt 2>&1
check "programs: the report shows every workload's own figures" \
	[ "$(sed -n '/own figures/,/^== method/p' $out/offline/report.txt | grep -c -E "^($(echo $workloads | tr ' ' '|')) ")" = "$nr" ]
check_report_json "programs: the report.json with figures matches the schema" $out/offline/report.json

# A cut output (the program's last lines missing) is one error naming it.
for w in $workloads; do
	parser=$(workload_command $w | sed -n 's/.*program \([^ ]*\) .*/\1/p')
	lines=$(grep -c '' $out/$w.out)
	head -n $(((lines - 1) / 2)) $out/$w.out >$out/$w.cut
	error_status=1 check_error "programs: $w's output cut in half is one error naming $parser" \
		"^figures: $parser: " sh /usr/share/idlescope/figures.sh $parser $out/$w.cut
done
