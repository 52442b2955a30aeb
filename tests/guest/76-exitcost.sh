#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: real exit cost.  idlescope_states spends each state's declared exit
# latency on exit by default (exit_delay=1), in guest time: with one state
# enabled at a time and 5 ms sleeps on both CPUs, the median exit time the
# records measure (idlescope_exit_wait(), fentry to fexit) is the state's
# declared exit latency within 5%.  The report says the exit cost is on.
# Runs with idlescope_states loaded (20-governors.sh leaves it so).

. /usr/share/idlescope/lib.sh

cpuidle=/sys/devices/system/cpu/cpu0/cpuidle
nr_states=$(ls -d $cpuidle/state* | wc -l)
# One check per state but POLL, then the parameter and the report's word.
plan $((nr_states - 1 + 2))

out=/host/exitcost
mkdir -p $out/menu
check "exitcost: exit_delay is on by default" \
	[ "$(cat /sys/module/idlescope_states/parameters/exit_delay)" = Y ]

# only_state K: every state of every CPU disabled but K (K empty: none).
only_state() {
	for s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		[ "${s##*state}" = "$1" ] && echo 0 >$s/disable || echo 1 >$s/disable
	done
}

idlescope -g menu --exit-timing -d $UNTIL_STOPPED_S -i 3600 -o $out/menu -r $out/menu.rec >$out/menu.txt 2>&1 &
loader=$!
wait_for_loader
k=1
while [ $k -lt $nr_states ]; do
	only_state $k
	periodic -d 1 -p 5000 -c 0 -t exit$k >/dev/null 2>&1 &
	first=$!
	periodic -d 1 -p 5000 -c 1 -s 2 -t exit$k >/dev/null 2>&1
	wait $first
	k=$((k + 1))
done
for s in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
	echo 0 >$s/disable
done
kill -INT $loader
wait $loader
idlescope dump $out/menu.rec >$out/menu.csv

k=1
while [ $k -lt $nr_states ]; do
	name=$(cat $cpuidle/state$k/name)
	declared_ns=$(($(cat $cpuidle/state$k/latency) * 1000))
	# The median measured exit of the state's periods under its tag.
	median=$(csv_awk -v t=exit$k -v k=$k '$col["workload"] == t && $col["state"] == k &&
			$col["exit_ns"] >= 0 { print $col["exit_ns"] }' $out/menu.csv |
		sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : -1 }')
	check -m "median ${median} ns of ${declared_ns} ns" \
		"exitcost: $name's measured exit is its declared latency within 5%" \
		awk -v m="$median" -v d="$declared_ns" \
		'BEGIN { exit !(m >= 0 && m >= 0.95 * d && m <= 1.05 * d) }'
	k=$((k + 1))
done
check -m "$(grep -m1 '^clock' $out/menu/report.txt)" "exitcost: the report says the exit cost is on" \
	grep -q '^clock .*, exit cost on,' $out/menu/report.txt
