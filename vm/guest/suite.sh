#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The measurement `make run` makes, inside the guest: with the synthetic
# idle states loaded, every workload runs under every governor while
# idlescope watches; one loader run per governor, its live dashboard on the
# console, its raw records under /host/<governor>/.  The loader is light
# (-m light): in the guest it only moves the records, the host makes the
# report (IDLESCOPE_MODE=full: the live reports in the guest too, as
# before issue 38; docs/bpf.md says why light).  The records are
# written to guest memory (/tmp: the initramfs is RAM) while the workloads
# run and copied to the 9p share after them, so no host I/O completes
# during a measurement (IDLESCOPE_RECORDS=share writes them there at once,
# for comparison: bench/README.md).
#
# usage: suite.sh SUITE_FILE KNOWN_GOVERNORS SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS
#                 [BGTIMERS [EXIT_COST]]
#        suite.sh --check SUITE_FILE KNOWN_GOVERNORS GOVERNORS WORKLOADS
#        suite.sh --names SUITE_FILE SUITE
# SUITE_FILE is workloads/suite.txt (the workloads' names, suites, event
# sources and commands), KNOWN_GOVERNORS the governors of bpf/idlescope.h;
# the Makefile passes both.  BGTIMERS "on" (the default) keeps bgtimers'
# background population of timers on every CPU for the whole measurement
# ("off": none).  EXIT_COST "off" loads idlescope_states with exit_delay=0
# (default "on": the states spend their exit latency,
# kernel/modules/idlescope_states; "spread": a share of it drawn from a
# spread shape, exit_spread=1, for make bench).  The second form only checks the names
# (on the host, before building or booting anything), the third prints the names of the
# workloads of suite SUITE (all: every one) on one line, or fails with one
# line for a suite no workload names.
#
# Each governor's run leaves in /host/GOVERNOR/: run.rec (the records),
# the loader's summaries (or reports), workloads.txt (every workload's output) and, when
# a workload gives its own figures (the program helper), run.rec.figures:
# the figures file docs/figures.md describes, which `idlescope report`
# reads beside the record file.

case $1 in
--check) mode=check; shift ;;
--names) mode=names; shift ;;
*) mode=run ;;
esac
suite_file=$1
known_governors=$2
# workload_command and the helpers the suite file's commands use.
. "$(dirname "$0")/helpers.sh"

# workload_names [SUITE]: every NAME of the suite file (of SUITE's lines,
# unless SUITE is empty or "all"), on one line.
workload_names() {
	awk -v suite="${1:-all}" '$1 !~ /^#/ && NF {
			n = split($2, s, ",")
			for (i = 1; i <= n; i++) if (s[i] == suite) mine = 1
			if (suite == "all" || mine) { printf "%s%s", sep, $1; sep = " " }
			mine = 0 }' "$suite_file"
}

# suite_names: every suite some line names, and all, on one line.
suite_names() {
	awk '$1 !~ /^#/ && NF { n = split($2, s, ","); for (i = 1; i <= n; i++) seen[s[i]] = 1 }
		END { for (k in seen) printf "%s ", k; print "all" }' "$suite_file" |
		tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/^ *//; s/ *$//'
}

# check_names GOVERNORS WORKLOADS: one line and failure for the first
# unknown name.
check_names() {
	[ -r "$suite_file" ] || { echo "suite: cannot read the workload list '$suite_file'" >&2; return 1; }
	for g in $1; do
		case " $known_governors " in
		*" $g "*) ;;
		*) echo "suite: unknown governor '$g' (known: $known_governors)" >&2; return 1 ;;
		esac
	done
	for w in $2; do
		workload_command "$w" >/dev/null || {
			echo "suite: unknown workload '$w' (known: $(workload_names))" >&2
			return 1
		}
		case $(workload_events "$w") in
		timer | ipi | device | host) ;;
		*) echo "suite: workload '$w': EVENTS must be timer, ipi, device or host, not '$(workload_events "$w")'" >&2
			return 1 ;;
		esac
	done
}

case $mode in
check)
	check_names "$3" "$4"
	exit
	;;
names)
	[ -r "$suite_file" ] || { echo "suite: cannot read the workload list '$suite_file'" >&2; exit 1; }
	names=$(workload_names "$2")
	[ -n "$names" ] || { echo "suite: unknown suite '$2' (known: $(suite_names))" >&2; exit 1; }
	echo "$names"
	exit
	;;
esac

. /usr/share/idlescope/lib.sh

# d: the seconds per workload, as the suite file's commands call it.
d=${3:?"usage: suite.sh SUITE_FILE KNOWN_GOVERNORS SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS"}
governors=$4
workloads=$5
bgtimers=${6:-on}
exit_cost=${7:-on}

check_names "$governors" "$workloads" || exit 1
case $exit_cost in
on) exit_delay=1 exit_spread=0 ;;
off) exit_delay=0 exit_spread=0 ;;
spread) exit_delay=1 exit_spread=1 ;;
*) echo "suite: EXIT_COST must be on, off or spread, not '$exit_cost'" >&2; exit 1 ;;
esac
insmod /lib/modules/idlescope_states.ko exit_delay=$exit_delay exit_spread=$exit_spread || exit 1

# The background timers, one population per CPU, for the whole run.
background=
if [ "$bgtimers" = on ]; then
	for cpu in 0 1; do
		bgtimers -d 86400 -c $cpu >>/host/bgtimers.txt 2>&1 &
		background="$background $!"
	done
fi

case ${IDLESCOPE_RECORDS:-memory} in
memory) out=/tmp/suite ;;
share) out=/host ;;
*) echo "suite: IDLESCOPE_RECORDS must be memory or share" >&2; exit 1 ;;
esac

# The first seconds after boot are not yet in virtual time (QEMU's adaptive
# shift settles, TCG translates for the first time: docs/clock.md): a
# busy, unrecorded run first, so that the first workload measured does not
# start cold (IDLESCOPE_SETTLE_S, 0: none).
settle_s=${IDLESCOPE_SETTLE_S:-5}
if [ "$settle_s" -gt 0 ] 2>/dev/null; then
	on_both_cpus periodic -d "$settle_s" -p 1000 -t settle >/dev/null 2>&1
fi

# The governors' order turns with the boot's seed: with N governors, seed
# S starts from the (S mod N)-th, so over N seeds each runs in each place
# once (a Latin square, helpers.sh's turn_order).  No governor always
# runs first after boot, or always last on a guest the adaptive shift has
# slowed: the order follows the seed, not the governor.  Each run's place
# goes into its record file.
governors=$(turn_order "${IDLESCOPE_SEED:-0}" $governors)
echo "suite: governors in this boot's order: $governors"

status=0
# The steps scripts/progress.py shows on the host: governor x workload.
step=0
steps=$(($(echo $governors | wc -w) * $(echo $workloads | wc -w)))
position=0
for g in $governors; do
	position=$((position + 1))
	run_dir=$out/$g
	figures_file=$run_dir/run.rec.figures
	mkdir -p $run_dir /host/$g
	rm -f $figures_file
	# Runs until SIGINT, which still closes the record file whole.  The
	# exits are timed: the report gives their distribution per state
	# against the declared latency (the module stays loaded for the whole
	# suite).
	idlescope -m ${IDLESCOPE_MODE:-light} -g $g -d 3600 -i 5 --exit-timing \
		--position $position -o $run_dir -r $run_dir/run.rec &
	loader=$!
	wait_for_loader
	for w in $workloads; do
		step=$((step + 1))
		progress_step "$step/$steps" "governor $g, workload $w"
		eval "$(workload_command $w)" >$run_dir/$w.log 2>&1 || status=1
		# A light loader drains now, between workloads, not during one.
		kill -USR1 $loader
		cat $run_dir/$w.log >>$run_dir/workloads.txt
		# How much of its own target it delivered: a report leaves a
		# run that missed it out of the headline (docs/figures.md).
		add_figures "$(sh /usr/share/idlescope/figures.sh delivered $run_dir/$w.log)" ||
			status=1
		rm -f $run_dir/$w.log
		sleep 1
	done
	kill -INT $loader
	wait $loader || status=1
	if [ $out != /host ]; then
		# The record file in 1 MiB writes: cp's small ones each cost a
		# 9p round trip (docs/clock.md).
		dd if=$run_dir/run.rec of=/host/$g/run.rec bs=1M 2>/dev/null &&
			rm $run_dir/run.rec || status=1
		cp -r $run_dir/. /host/$g/ || status=1
		rm -rf $run_dir
	fi
done
[ -z "$background" ] || kill $background
exit $status
