#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The measurement `make run` makes, inside the guest: with the synthetic
# idle states loaded, every workload runs under every governor while
# idlescope watches; one loader run per governor, its live dashboard on the
# console, its reports and raw records under /host/<governor>/.
#
# usage: suite.sh SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS
#        suite.sh --check GOVERNORS WORKLOADS
# The second form only checks the names (on the host, before booting).

known_governors="menu teo ladder menu2010 menu2010fix menu2010rpd"

# workload_command NAME: the command that runs workload NAME for
# per_workload_s seconds; fails for an unknown name.
workload_command() {
	d=$per_workload_s
	case $1 in
	# An idle guest has 5 to 10 periods/s per CPU: 8 times as long
	# gives it about as many samples as the busier patterns.
	idle) echo "idle -d $((d * 8))" ;;
	periodic[0-9]*ms | periodic[0-9]*us)
		p=${1#periodic}
		case $p in
		*ms) p=${p%ms}000 ;;
		*us) p=${p%us} ;;
		esac
		case $p in *[!0-9]*) return 1 ;; esac
		echo "on_both_cpus periodic -d $d -p $p -t $1" ;;
	jitter) echo "on_both_cpus jitter -d $d -t jitter" ;;
	bimodal) echo "on_both_cpus bimodal -d $d" ;;
	poisson) echo "on_both_cpus poisson -d $d -t poisson" ;;
	pingpong) echo "pingpong -d $d" ;;
	iowait) echo "on_both_cpus iowait -d $d -f /dev/vda" ;;
	irqtrain) echo "with_irqfeed irqtrain -d $d -f /dev/ttyS1" ;;
	*) return 1 ;;
	esac
}

# check_names GOVERNORS WORKLOADS: one line and failure for the first
# unknown name.
check_names() {
	for g in $1; do
		case " $known_governors " in
		*" $g "*) ;;
		*) echo "suite: unknown governor '$g' (known: $known_governors)" >&2; return 1 ;;
		esac
	done
	for w in $2; do
		workload_command "$w" >/dev/null || {
			echo "suite: unknown workload '$w' (known: idle periodic<N>us periodic<N>ms" \
				"jitter bimodal poisson pingpong iowait irqtrain)" >&2
			return 1
		}
	done
}

if [ "$1" = --check ]; then
	check_names "$2" "$3"
	exit
fi

. /usr/share/idlescope/lib.sh

per_workload_s=${1:-5}
governors=${2:-$known_governors}
# The default set is the Makefile's WORKLOAD_SET.
workloads=${3:?"usage: suite.sh SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS"}

check_names "$governors" "$workloads" || exit 1
insmod /lib/modules/idlescope_states.ko || exit 1

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
exit $status
