#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make bench`: every measurement that needs the guest
# kernel, in one boot, so that each ratio compares runs seconds apart on
# the same (noisy, shared) host.  bench/run.sh boots it; it writes raw
# lines to /host/raw.txt, which bench/summarize.py turns into figures.
#
#   warm-up   the first loader (boot-to-loader time), a short pingpong and
#             periodic run so that TCG has translated the hot code before
#             anything is compared; its records are genrec's template
#   overhead  ROUNDS rounds of the same two loads with the probes off and
#             on (a loader started as `make run` starts one), in the order
#             off-on, on-off, ... so that a drift of the host's speed
#             cancels out of the median ratio: pingpong round trips/s, and
#             periodic wake-up lateness on both CPUs
#   sweep     one loader per ring buffer size, under load levels of rising
#             wake-up rate; the BPF side's counters (records, drops) and
#             the programs' run time (bpf_stats_enabled, off during the
#             overhead rounds: it costs two clock reads per run) before and
#             after each level
# Every loader's CPU ticks and peak RSS are noted when it is ready and just
# before SIGINT.
#
# usage: guest.sh ROUNDS PHASE_SECONDS LEVEL_SECONDS "RINGBUF_BYTES ..."
#
# Raw lines: SECTION key=value ... [: text]
#   snap KEYS uptime_s=S usage=N      time and the kernel's idle entry count
#   stat KEYS : LINE                  a progstats line at that snapshot
#   out KEYS : LINE                   a workload's summary line
#   loader KEYS cpu_ticks=N vmhwm_kb=N  the loader's utime + stime, VmHWM
#   time at=end uptime_s=S            the end, for the boot time on the host

. /usr/share/idlescope/lib.sh

rounds=$1
phase_s=$2
level_s=$3
ringbufs=$4

raw=/host/raw.txt
work=/tmp/bench
governor=menu
# cyclictest's default interval: long enough that TCG does not overrun it.
lateness_period_us=1000
# Load levels of the sweep, in order of rising wake-up rate (see run_level).
levels="p1000 p200 pp pp+p200 pp+p50"
stats_sysctl=/proc/sys/kernel/bpf_stats_enabled

die() {
	echo "bench: error: $*"
	exit 1
}

emit() {
	echo "$*" >>$raw
}

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

usage_sum() {
	cat /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*/usage |
		awk '{ sum += $1 } END { print sum }'
}

# snapshot KEYS...: time, idle entries and every progstats line under KEYS.
snapshot() {
	emit "snap $* uptime_s=$(uptime_s) usage=$(usage_sum)"
	progstats >$work/progstats.txt || die "progstats failed"
	while read -r line; do
		emit "stat $* : $line"
	done <$work/progstats.txt
}

# loader_note RUN AT: the running loader's CPU time and peak RSS.
loader_note() {
	# Fields 14 and 15 of stat: utime, stime (comm has no space here).
	ticks=$(awk '{ print $14 + $15 }' /proc/$loader/stat)
	hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/$loader/status)
	emit "loader run=$1 at=$2 cpu_ticks=$ticks vmhwm_kb=$hwm"
	snapshot loader run=$1 at=$2
}

# start_loader RUN ARGS...: a loader as `make run` starts one, recording to
# $work/RUN/run.rec; returns when it is ready.
start_loader() {
	run=$1
	shift
	mkdir -p $work/$run
	idlescope -g $governor -d 3600 -i 5 -o $work/$run -r $work/$run/run.rec "$@" \
		>$work/$run/loader.txt 2>&1 &
	loader=$!
	if ! wait_for_loader; then
		cat $work/$run/loader.txt
		die "loader $run not ready within 20 s"
	fi
	loader_note $run ready
}

stop_loader() {
	loader_note $1 stop
	kill -INT $loader
	if ! wait $loader; then
		tail -n 20 $work/$1/loader.txt
		die "loader $1 failed"
	fi
}

# workload "KEYS" COMMAND...: run it, keep its summary line under KEYS.
workload() {
	workload_keys=$1
	shift
	out=$(mktemp $work/workload.XXXXXX)
	if ! "$@" >$out 2>$out.err; then
		cat $out $out.err
		die "workload failed: $*"
	fi
	emit "out $workload_keys : $(cat $out)"
	rm -f $out $out.err
}

# periodic_both "KEYS" PERIOD_US SECONDS: one periodic per CPU, at once.
periodic_both() {
	workload "$1 cpu=0" periodic -p $2 -d $3 -c 0 &
	first=$!
	workload "$1 cpu=1" periodic -p $2 -d $3 -c 1
	wait $first || exit 1
}

# One phase of the overhead rounds: both loads, with probes $2 (on/off).
measure_overhead() {
	phase_keys="overhead round=$1 probes=$2"
	snapshot $phase_keys load=pingpong at=start
	workload "$phase_keys load=pingpong" pingpong -d $phase_s
	snapshot $phase_keys load=pingpong at=end
	snapshot $phase_keys load=periodic at=start
	periodic_both "$phase_keys load=periodic" $lateness_period_us $phase_s
	snapshot $phase_keys load=periodic at=end
}

overhead_round() {
	for probes in "$@"; do
		[ $probes = on ] && start_loader overhead-$round
		measure_overhead $round $probes
		[ $probes = on ] && stop_loader overhead-$round
		rm -rf $work/overhead-$round
	done
}

# run_level "KEYS" LEVEL: one load level of the sweep for level_s seconds:
# pPERIOD is periodic on both CPUs, pp pingpong, pp+pPERIOD both at once.
run_level() {
	case $2 in
	pp) workload "$1 load=pingpong" pingpong -d $level_s ;;
	pp+p*)
		workload "$1 load=pingpong" pingpong -d $level_s &
		pp=$!
		periodic_both "$1 load=periodic" ${2#pp+p} $level_s
		wait $pp || exit 1
		;;
	p*) periodic_both "$1 load=periodic" ${2#p} $level_s ;;
	esac
}

rm -f $raw
mkdir -p $work
insmod /lib/modules/idlescope_states.ko || die "insmod idlescope_states failed"
[ -w $stats_sysctl ] || die "$stats_sysctl missing: no BPF run time statistics"
echo 0 >$stats_sysctl

echo "bench: warm-up"
start_loader warmup
workload "warmup load=pingpong" pingpong -d 2
periodic_both "warmup load=periodic" $lateness_period_us 2
stop_loader warmup
cp $work/warmup/run.rec /host/template.rec || die "cannot keep the warm-up records"
rm -rf $work/warmup

round=1
while [ $round -le $rounds ]; do
	echo "bench: overhead round $round of $rounds"
	if [ $((round % 2)) = 1 ]; then
		overhead_round off on
	else
		overhead_round on off
	fi
	round=$((round + 1))
done

echo 1 >$stats_sysctl
for bytes in $ringbufs; do
	echo "bench: sweep, ring buffer $bytes bytes"
	start_loader sweep-$bytes -b $bytes
	for level in $levels; do
		snapshot sweep ringbuf=$bytes level=$level at=start
		run_level "sweep ringbuf=$bytes level=$level" $level
		snapshot sweep ringbuf=$bytes level=$level at=end
	done
	stop_loader sweep-$bytes
	rm -rf $work/sweep-$bytes
done
echo 0 >$stats_sysctl

emit "time at=end uptime_s=$(uptime_s)"
echo "bench: done"
