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
#   observer  bench/observer.sh: OBS_ROUNDS rounds of the suite's
#             workloads, OBS_SECONDS each, under each of OBS_GOVERNORS,
#             detached and in each of OBS_MODES: the kernel's own idle
#             counters and the workloads' own output
#   overhead  ROUNDS rounds of the same two loads with no probes (off),
#             the tracepoint probes only (tp: a loader with
#             --no-select-probes), all probes (sel: a loader as `make run`
#             starts one, with the select probes) and the lean set (lean:
#             -m lean), those of PROBE_SET (all three by default), in
#             a different order each round (a rotation, every other
#             round backwards, bench/observer.sh) so that a drift of
#             the host's speed cancels out of the median ratio: pingpong
#             round trips/s, and periodic wake-up lateness on both CPUs.
#             The loaders are of `make run`'s mode (vm/guest/suite.sh)
#   runtime   per probe set, and for all probes with one shared ring
#             buffer, the same two loads once more with bpf_stats_enabled
#             on (off everywhere else: it costs two clock reads per run):
#             the run time of every BPF program per idle period and per
#             pingpong round trip
#   sweep     one loader per ring-buffer configuration (per-CPU default,
#             per-CPU -b BYTES, shared), under load levels of rising
#             wake-up rate; the BPF side's counters (records, drops)
#             before and after each level
#   sustain   the default loader under the top level for TOP_SECONDS:
#             drops over a stretch longer than a level.  TOP_LEVEL auto is
#             the level of the highest idle-period rate in the sweep of the
#             default configuration (of the first one without it)
# Every loader's CPU ticks and peak RSS are noted when it is ready and just
# before SIGINT.
#
# usage: guest.sh ROUNDS PHASE_SECONDS LEVEL_SECONDS "CONFIG ..." "LEVEL ..."
#                 TOP_LEVEL TOP_SECONDS OBS_ROUNDS OBS_SECONDS "OBS_GOVERNOR ..."
#                 "OBS_MODE ..." "OBS_WORKLOAD ..." "PROBE_SET ..."
#
# CONFIG: default (the loader's own ring buffers), shared
# (--shared-ringbuf) or BYTES (-b BYTES, per CPU).  LEVEL: see run_level.
#
# Raw lines: SECTION key=value ... [: text]
#   snap KEYS uptime_s=S usage=N      time and the kernel's idle entry count
#   stat KEYS : LINE                  a progstats line at that snapshot
#   out KEYS : LINE                   a workload's summary line
#   snap sustain ... config=CONFIG    the sustained run's configuration
#   loader KEYS cpu_ticks=N vmhwm_kb=N  the loader's utime + stime, VmHWM
#   probes set=SET : LINE             what that loader attached (its line)
#   mode run=MODE                     the mode of make run's loaders
#   done run=RUN : LINE               that loader's own CPU use at its exit
#   clock mode=MODE                   idlescope.clock= of the command line
#   time at=end uptime_s=S            the end, for the boot time on the host

. /usr/share/idlescope/lib.sh
. /usr/share/idlescope/bench-observer.sh

rounds=$1
phase_s=$2
level_s=$3
configs=$4
levels=$5
top_level=$6
top_s=$7
obs_rounds=$8
obs_s=$9
shift 9
obs_governors=$1
obs_modes=$2
obs_workloads=$3
# The probe sets of the overhead rounds (tp, sel, lean), each beside off.
probe_sets=${4:-tp sel lean}

raw=/host/raw.txt
work=/tmp/bench
run_governor=menu
governor=$run_governor
# The mode of `make run`'s loaders, from the one place that says it.
run_mode=$(sed -n 's/.*IDLESCOPE_MODE:-\([a-z]*\)}.*/\1/p' /usr/share/idlescope/suite.sh)
# cyclictest's default interval: long enough that TCG does not overrun it.
lateness_period_us=1000
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

# snapshot KEYS...: time, idle entries and every progstats line under KEYS;
# snap_uptime_s and snap_periods (records sent and dropped) keep the time
# and the BPF side's count.
snapshot() {
	snap_uptime_s=$(uptime_s)
	emit "snap $* uptime_s=$snap_uptime_s usage=$(usage_sum)"
	progstats >$work/progstats.txt || die "progstats failed"
	snap_periods=$(awk '$1 == "map" { for (i = 5; i < NF; i += 2)
		if ($i == "records" || $i == "dropped") n += $(i + 1) } END { print n + 0 }' \
		$work/progstats.txt)
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

# start_loader RUN MODE ARGS...: a loader as `make run` starts one, in
# MODE (-m), its reports in $work/RUN, recording to $loader_record or
# $work/RUN/run.rec (nothing in a lean run); returns when it is ready.
start_loader() {
	run=$1
	mode=$2
	shift 2
	mkdir -p $work/$run
	record="-r ${loader_record:-$work/$run/run.rec}"
	[ $mode = lean ] && record=
	# shellcheck disable=SC2086 # no flag or two
	idlescope -m $mode -g $governor -d $UNTIL_STOPPED_S -i 5 -o $work/$run $record "$@" \
		>$work/$run/loader.txt 2>&1 &
	loader=$!
	if ! wait_for_loader; then
		cat $work/$run/loader.txt
		die "loader $run not ready within 20 s"
	fi
	loader_note $run ready
}

stop_loader() {
	# A light loader drains when asked (SIGUSR1): its CPU then counts the
	# records it took; a full one takes them as they come.
	kill -USR1 $loader
	sleep 1
	loader_note $1 stop
	kill -INT $loader
	if ! wait $loader; then
		tail -n 20 $work/$1/loader.txt
		die "loader $1 failed"
	fi
	emit "done run=$1 : $(grep -m 1 '^loader CPU:' $work/$1/loader.txt)"
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

# measure "KEYS": both loads, each between two snapshots.
measure() {
	snapshot $1 load=pingpong at=start
	workload "$1 load=pingpong" pingpong -d $phase_s
	snapshot $1 load=pingpong at=end
	snapshot $1 load=periodic at=start
	periodic_both "$1 load=periodic" $lateness_period_us $phase_s
	snapshot $1 load=periodic at=end
}

# probe_flags SET: the loader's mode and flags for a probe set.
probe_flags() {
	case $1 in
	tp) echo $run_mode --no-select-probes ;;
	sel) echo $run_mode ;;
	shared) echo $run_mode $(config_flags shared) ;;
	lean) echo lean ;;
	*) die "unknown probe set '$1'" ;;
	esac
}

# with_probes SET RUN "KEYS": measure under a loader of probe set SET (none
# for off), and say what it attached.
with_probes() {
	if [ $1 != off ]; then
		# shellcheck disable=SC2046 # no flags or one
		start_loader $2 $(probe_flags $1)
	fi
	measure "$3"
	if [ $1 != off ]; then
		stop_loader $2
		# Its stdout is a file: the line is there once it exited.
		emit "probes set=$1 run=$2 : $(grep -m 1 -e 'select probes' -e 'tracepoints only' \
			$work/$2/loader.txt)"
		rm -rf $work/$2
	fi
}

overhead_round() {
	for set in $(rotation $1 "off $probe_sets"); do
		with_probes $set overhead-$1-$set "overhead round=$1 probes=$set"
	done
}

# config_flags CONFIG: the loader's flags for a ring-buffer configuration.
config_flags() {
	case $1 in
	default) ;;
	shared) echo --shared-ringbuf ;;
	*) echo -b $1 ;;
	esac
}

# run_level "KEYS" LEVEL: one load level of the sweep for level_s seconds,
# its parts joined by +, all at once: pp is one pingpong (CPUs 0 and 1),
# pPERIOD periodic at PERIOD us on both CPUs; e.g. pp+pp+p50.
run_level() {
	pids=
	part=0
	for load in $(echo $2 | tr + ' '); do
		part=$((part + 1))
		case $load in
		pp) workload "$1 load=pingpong n=$part" pingpong -d $level_s & ;;
		p[0-9]*) periodic_both "$1 load=periodic n=$part" ${load#p} $level_s & ;;
		*) die "unknown load '$load' in level '$2'" ;;
		esac
		pids="$pids $!"
	done
	for pid in $pids; do
		wait $pid || die "level $2 failed"
	done
}

rm -f $raw
mkdir -p $work
[ -d /sys/module/idlescope_states ] || insmod /lib/modules/idlescope_states.ko ||
	die "insmod idlescope_states failed"
[ -w $stats_sysctl ] || die "$stats_sysctl missing: no BPF run time statistics"
echo 0 >$stats_sysctl

echo "bench: warm-up"
start_loader warmup full
workload "warmup load=pingpong" pingpong -d 2
periodic_both "warmup load=periodic" $lateness_period_us 2
stop_loader warmup
cp $work/warmup/run.rec /host/template.rec || die "cannot keep the warm-up records"
rm -rf $work/warmup

emit "clock mode=$(sed -n 's/.*idlescope\.clock=\([a-z]*\).*/\1/p' /proc/cmdline)"
emit "mode run=$run_mode"
# The observer effect first: most of the boot, and what a bench cut short
# should still have.
[ $obs_rounds -gt 0 ] &&
	observer_section $obs_rounds $obs_s "$obs_governors" "$obs_modes" "$obs_workloads"
round=1
while [ $round -le $rounds ]; do
	echo "bench: overhead round $round of $rounds"
	overhead_round $round
	round=$((round + 1))
done

echo 1 >$stats_sysctl
# All probes with one shared ring buffer, beside the select probes.
for set in $(echo " $probe_sets " | sed 's/ sel / sel shared /'); do
	echo "bench: BPF run time, probes $set"
	with_probes $set runtime-$set "runtime probes=$set"
done
echo 0 >$stats_sysctl

top_config=$(echo $configs | cut -d' ' -f1)
case " $configs " in
*" default "*) top_config=default ;;
esac
top_rate=-1
top_level_auto=no
[ $top_level = auto ] && top_level_auto=yes
for config in $configs; do
	echo "bench: sweep, ring buffers $config"
	# shellcheck disable=SC2046 # no flags, one or two
	start_loader sweep-$config $run_mode $(config_flags $config)
	for level in $levels; do
		snapshot sweep ringbuf=$config level=$level at=start
		start_s=$snap_uptime_s
		start_periods=$snap_periods
		run_level "sweep ringbuf=$config level=$level" $level
		snapshot sweep ringbuf=$config level=$level at=end
		rate=$(awk "BEGIN { print ($snap_periods - $start_periods) / ($snap_uptime_s - $start_s) }")
		if [ $config = $top_config ] && [ $top_level_auto = yes ] &&
			awk "BEGIN { exit !($rate > $top_rate) }"; then
			top_rate=$rate
			top_level=$level
		fi
	done
	stop_loader sweep-$config
	rm -rf $work/sweep-$config
done

echo "bench: sustain, $top_level for $top_s s"
# shellcheck disable=SC2046 # the top configuration's flags
start_loader sustain $run_mode $(config_flags $top_config)
level_s=$top_s
snapshot sustain config=$top_config level=$top_level at=start
run_level "sustain config=$top_config level=$top_level" $top_level
snapshot sustain config=$top_config level=$top_level at=end
stop_loader sustain
rm -rf $work/sustain

emit "time at=end uptime_s=$(uptime_s)"
echo "bench: done"
