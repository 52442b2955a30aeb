#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The measurement `make run` makes, inside the guest: with the synthetic
# idle states loaded, every workload runs under every governor while
# idlescope watches; one loader run per governor, its live dashboard on the
# console, its reports and raw records under /host/<governor>/.
#
# usage: suite.sh [SECONDS_PER_WORKLOAD] [GOVERNORS] [WORKLOADS]

. /usr/share/idlescope/lib.sh

per_workload_s=${1:-5}
governors=${2:-"menu teo ladder menu2010 menu2010fix menu2010rpd"}
workloads=${3:-"idle periodic1ms periodic100us periodic10ms jitter bimodal poisson pingpong iowait"}

insmod /lib/modules/idlescope_states.ko || exit 1

# on_both_cpus COMMAND...: one instance pinned to each CPU (the second with
# another seed), so each CPU sees its own train of periods.
on_both_cpus() {
	"$@" -c 0 &
	first=$!
	"$@" -c 1 -s 2
	wait $first
}

# run_workload NAME: one workload for per_workload_s seconds.
run_workload() {
	d=$per_workload_s
	case $1 in
	idle) idle -d $d ;;
	periodic*)
		p=${1#periodic}
		case $p in *ms) p=$((${p%ms} * 1000)) ;; *us) p=${p%us} ;; esac
		on_both_cpus periodic -d $d -p $p -t $1 ;;
	jitter) on_both_cpus jitter -d $d -t jitter ;;
	bimodal) on_both_cpus bimodal -d $d ;;
	poisson) on_both_cpus poisson -d $d -t poisson ;;
	pingpong) pingpong -d $d ;;
	iowait) on_both_cpus iowait -d $d -f /dev/vda ;;
	irqtrain) irqtrain -d $d -f /dev/ttyS1 ;;
	*) echo "suite: unknown workload $1" >&2; return 1 ;;
	esac
}

status=0
for g in $governors; do
	mkdir -p /host/$g
	# Runs until SIGINT, which still writes complete reports.
	idlescope -g $g -d 3600 -i 5 -o /host/$g -r /host/$g/run.rec &
	loader=$!
	wait_for_loader
	for w in $workloads; do
		echo "suite: governor $g, workload $w"
		run_workload $w >>/host/$g/workloads.txt 2>&1 || status=1
		sleep 1
	done
	kill -INT $loader
	wait $loader || status=1
done
exit $status
