#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The measurement `make run` makes, inside the guest: with the synthetic
# idle states loaded, every workload runs under every governor while
# idlescope watches; one loader run per governor, its live dashboard on the
# console, its reports and raw records under /host/<governor>/.  They are
# written to guest memory (/tmp: the initramfs is RAM) while the workloads
# run and copied to the 9p share after them, so no host I/O completes
# during a measurement (IDLESCOPE_RECORDS=share writes them there at once,
# for comparison: bench/README.md).
#
# usage: suite.sh SUITE_FILE KNOWN_GOVERNORS SECONDS_PER_WORKLOAD GOVERNORS WORKLOADS
#        suite.sh --check SUITE_FILE KNOWN_GOVERNORS GOVERNORS WORKLOADS
# SUITE_FILE is workloads/suite.txt (the workloads' names and commands),
# KNOWN_GOVERNORS the governors of bpf/idlescope.h; the Makefile passes
# both.  The second form only checks the names (on the host, before
# building or booting anything).

if [ "$1" = --check ]; then
	check_only=1
	shift
fi
suite_file=$1
known_governors=$2

# workload_command NAME: the command template of workload NAME (it runs
# for $d seconds); fails for an unknown name.
workload_command() {
	awk -v name="$1" '$1 !~ /^#/ && $1 == name {
			sub(/^[^ \t]+[ \t]+/, ""); print; found = 1; exit }
		END { exit !found }' "$suite_file"
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

status=0
for g in $governors; do
	mkdir -p $out/$g /host/$g
	# Runs until SIGINT, which still writes complete reports.
	idlescope -g $g -d 3600 -i 5 -o $out/$g -r $out/$g/run.rec &
	loader=$!
	wait_for_loader
	for w in $workloads; do
		echo "suite: governor $g, workload $w"
		eval "$(workload_command $w)" >>$out/$g/workloads.txt 2>&1 || status=1
		sleep 1
	done
	kill -INT $loader
	wait $loader || status=1
	if [ $out != /host ]; then
		cp -r $out/$g/. /host/$g/ || status=1
		rm -rf $out/$g
	fi
done
exit $status
