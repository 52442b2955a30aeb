# SPDX-License-Identifier: GPL-2.0
#
# The observer effect, the part of bench/guest.sh that asks whether
# watching changes the answer: the workloads of `make run`'s suite, each
# its own command as suite.txt has it, under each governor, with idlescope
# detached (off) and attached in each mode, the modes in another order
# every round so that a drift of the guest's speed cannot pose as an
# effect.  Around each workload, the kernel's own counters, which need no
# BPF at all (cpuN/cpuidle/stateK/{usage,time,above,below}), and the
# workload's own output.  Sourced by bench/guest.sh (its emit, start_loader,
# stop_loader); bench/observer.py reads the lines.
#
# Modes: off (no loader: the governor switched by hand, as -g does), tp
# (a light loader, tracepoints only), sel (a light loader with the select
# probes: `make run`'s), full (the loader that aggregates, replays and
# reports in the guest: `make run`'s before issue 38), lean (-m lean), share
# (as sel, its record file on the 9p share while the workloads run: a
# transport that streams to the host during the measurement).
#
# Raw lines (guest.sh's header has the others):
#   obs KEYS at=start|end uptime_s=S cC.sK=USAGE,TIME_US,ABOVE,BELOW ...
#   obsout KEYS : LINE          a line of the workload's output
# KEYS: round=R governor=G mode=M workload=W.

obs_suite=/usr/share/idlescope/suite.txt
obs_raw=/tmp/bench/obs.raw

# obs_emit LINE: a raw line kept in guest memory until the block ends.
# Written to the 9p share at once, the line read just before a workload
# started would be written inside its window: the guest waits for the
# host there, and in the fixed clock its time jumps on to the next timer
# (docs/clock.md), an idle period as long as the host is slow.
obs_emit() {
	echo "$*" >>$obs_raw
}

# sysfs_states: "cC.sK=usage,time,above,below" for every CPU and state.
sysfs_states() {
	for dir in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*; do
		cpu=${dir#/sys/devices/system/cpu/cpu}
		cpu=${cpu%%/*}
		printf ' c%s.s%s=%s,%s,%s,%s' "$cpu" "${dir##*state}" "$(cat $dir/usage)" \
			"$(cat $dir/time)" "$(cat $dir/above)" "$(cat $dir/below)"
	done
}

# obs_switch GOVERNOR: as the loader's -g, by way of another governor, so
# that the governor starts from its ->enable().
obs_switch() {
	gov_file=/sys/devices/system/cpu/cpuidle/current_governor
	for other in $(cat /sys/devices/system/cpu/cpuidle/available_governors); do
		[ "$other" = "$1" ] || break
	done
	echo "$other" >$gov_file && echo "$1" >$gov_file || die "cannot switch to governor $1"
}

# obs_loader MODE: start_loader's mode and flags for an observer mode.
obs_loader() {
	case $1 in
	tp) echo light --no-select-probes ;;
	sel | share) echo light ;;
	full | lean) echo $1 ;;
	*) die "unknown observer mode '$1'" ;;
	esac
}


# obs_block ROUND GOVERNOR MODE "WORKLOADS" SECONDS: every workload once
# under one loader (or none), each between two readings of sysfs.
obs_block() {
	run=obs-$1-$2-$3
	governor=$2
	if [ $3 = off ]; then
		obs_switch $2
	else
		loader_record=
		[ $3 = share ] && loader_record=/host/obs-$run.rec
		# shellcheck disable=SC2046 # a mode and a flag
		start_loader $run $(obs_loader $3)
	fi
	for w in $4; do
		keys="round=$1 governor=$2 mode=$3 workload=$w"
		progress_step "observer round $1: $2, $3, $w"
		obs_emit "obs $keys at=start uptime_s=$(uptime_s)$(sysfs_states)"
		# shellcheck disable=SC2034 # $d is what the suite's commands read
		d=$5
		(eval "$(workload_command $w)") >$work/obs.out 2>&1 ||
			echo "bench: workload $w failed under $2, $3" >&2
		obs_emit "obs $keys at=end uptime_s=$(uptime_s)$(sysfs_states)"
		# As make run's suite: a light loader drains between workloads.
		[ $3 = off ] || kill -USR1 $loader
		while read -r line; do
			obs_emit "obsout $keys : $line"
		done <$work/obs.out
		sleep 1
	done
	if [ $3 != off ]; then
		stop_loader $run
		rm -rf $work/$run /host/obs-$run.rec
	fi
	cat $obs_raw >>$raw && rm -f $obs_raw || die "cannot write $raw"
	governor=$run_governor
}

# rotation ROUND "ITEMS": the items in round ROUND's order: round R starts
# at item R (mod the count) and, every other round, goes through them
# backwards, so that a drift of the guest's speed cancels out.
rotation() {
	echo $2 | tr ' ' '\n' | awk -v r=$1 -v n="$(echo $2 | wc -w)" '
		{ m[NR - 1] = $0 }
		END { for (i = 0; i < n; i++) {
			k = (r - 1 + (r % 2 ? i : n - i)) % n; printf "%s ", m[k] } }'
}

# observer_section ROUNDS SECONDS "GOVERNORS" "MODES" "WORKLOADS"
observer_section() {
	suite_file=$obs_suite
	. /usr/share/idlescope/helpers.sh
	tag_pin=/sys/fs/bpf/idlescope/workload
	# helpers.sh's program, without its figures file, and tagging only
	# while a loader runs: detached, there is no tag.
	program() {
		shift
		[ -e $tag_pin ] && idlescope tag "$w"
		"$@"
		rc=$?
		[ -e $tag_pin ] && idlescope tag
		return $rc
	}
	round=1
	while [ $round -le $1 ]; do
		echo "bench: observer round $round of $1"
		order=$(rotation $round "off $4")
		for g in $3; do
			for mode in $order; do
				obs_block $round $g $mode "$5" $2
			done
		done
		round=$((round + 1))
	done
	# What the parts after this one compare without a loader runs under
	# make run's governor, as their loaders do.
	obs_switch $run_governor
}
