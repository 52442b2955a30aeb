#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The measurement `make run` makes, inside the guest: with the synthetic
# idle states loaded, every workload runs under every governor while
# idlescope watches; one loader run per governor, its live dashboard on the
# console, its reports and raw records under /host/<governor>/.
#
# usage: suite.sh SUITE_FILE KNOWN_GOVERNORS SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS
#                 [BGTIMERS [EXIT_COST]]
#        suite.sh --check SUITE_FILE KNOWN_GOVERNORS GOVERNORS WORKLOADS
# SUITE_FILE is workloads/suite.txt (the workloads' names and commands),
# KNOWN_GOVERNORS the governors of bpf/idlescope.h; the Makefile passes
# both.  BGTIMERS "on" (the default) keeps bgtimers' background population
# of timers on every CPU for the whole measurement ("off": none).
# EXIT_COST "off" loads idlescope_states with exit_delay=0 (default "on":
# the states spend their exit latency, kernel/modules/idlescope_states).  The
# second form only checks the names (on the host, before building or
# booting anything).

if [ "$1" = --check ]; then
	check_only=1
	shift
fi
suite_file=$1
known_governors=$2

# workload_command NAME: the command template of workload NAME (it runs
# for $d seconds), after its NAME and EVENTS; fails for an unknown name.
workload_command() {
	awk -v name="$1" '$1 !~ /^#/ && $1 == name {
			sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, ""); print; found = 1; exit }
		END { exit !found }' "$suite_file"
}

# workload_events NAME: the EVENTS field of workload NAME.
workload_events() {
	awk -v name="$1" '$1 !~ /^#/ && $1 == name { print $2; exit }' "$suite_file"
}

# workload_names: every NAME of the suite file, on one line.
workload_names() {
	awk '$1 !~ /^#/ && NF { printf "%s%s", sep, $1; sep = " " }' "$suite_file"
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

if [ -n "$check_only" ]; then
	check_names "$3" "$4"
	exit
fi

. /usr/share/idlescope/lib.sh

# d: the seconds per workload, as the suite file's commands call it.
d=${3:?"usage: suite.sh SUITE_FILE KNOWN_GOVERNORS SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS"}
governors=$4
workloads=$5
bgtimers=${6:-on}
exit_cost=${7:-on}

check_names "$governors" "$workloads" || exit 1
case $exit_cost in
on) exit_delay=1 ;;
off) exit_delay=0 ;;
*) echo "suite: EXIT_COST must be on or off, not '$exit_cost'" >&2; exit 1 ;;
esac
insmod /lib/modules/idlescope_states.ko exit_delay=$exit_delay || exit 1

# with_irqfeed COMMAND...: the host's irqfeed (make run starts it with
# -w /host/irqfeed.on) sends bytes to the second serial port only meanwhile.
with_irqfeed() {
	touch /host/irqfeed.on
	"$@"
	rc=$?
	rm -f /host/irqfeed.on
	return $rc
}

# on_both_cpus COMMAND...: one instance pinned to each CPU (the second with
# another seed), so each CPU sees its own train of periods.
on_both_cpus() {
	"$@" -c 0 &
	first=$!
	"$@" -c 1 -s 2
	wait $first
}

# The background timers, one population per CPU, for the whole run.
background=
if [ "$bgtimers" = on ]; then
	for cpu in 0 1; do
		bgtimers -d 86400 -c $cpu >>/host/bgtimers.txt 2>&1 &
		background="$background $!"
	done
fi

status=0
for g in $governors; do
	mkdir -p /host/$g
	# Runs until SIGINT, which still writes complete reports.
	idlescope -g $g -d 3600 -i 5 -o /host/$g -r /host/$g/run.rec &
	loader=$!
	wait_for_loader
	for w in $workloads; do
		echo "suite: governor $g, workload $w"
		eval "$(workload_command $w)" >>/host/$g/workloads.txt 2>&1 || status=1
		sleep 1
	done
	kill -INT $loader
	wait $loader || status=1
done
[ -z "$background" ] || kill $background
exit $status
