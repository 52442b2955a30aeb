#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: the models of teo and stock menu against the kernel's own
# decisions, with the select probes on.  Under each governor, workloads
# that wake on timers, on other CPUs' IPIs and at random, with the tick
# stopped and running, and under a PM QoS limit; then the report of the
# run must show the model of the running governor on this kernel (teo-6.1,
# menu) reproducing the kernel's chosen state (teo) or prediction (menu)
# on >= 99.9% of >= 1000 selects, and the other kernel's models (teo-6.12,
# menu-6.12) replayed on the same periods, scored by ideal state.  Runs
# with idlescope_states loaded (20-governors.sh leaves it so).

. /usr/share/idlescope/lib.sh

out=/host/statemodels
mkdir -p $out
plan 14

# IDLESCOPE_F_* bits of bpf/idlescope.h
HAS_TICK_STATE=524288
HAS_TEO_SPAN=1048576
RESTARTED=128

# ideal_periods REPORT MODEL: periods MODEL chose a state on, summed over
# the "shadow state choices" tables of report.txt (its "periods" row).
ideal_periods() {
	awk -v m="$2" '$1 == "ideal" { col = 0; for (i = 2; i <= NF; i++) if ($i == m) col = i }
		$1 == "periods" && col { n += $col; col = 0 }
		END { print n + 0 }' "$1"
}

# model_samples REPORT MODEL GOVERNOR: predictions MODEL made on
# GOVERNOR's periods, summed over the "samples" rows of the shadow tables
# of report.txt's sections of GOVERNOR.
model_samples() {
	awk -v m="$2" -v g="$3" '/^== workload / { ours = $(NF - 2) == "governor" && $(NF - 1) == g }
		$1 == "within" { col = 0; for (i = 2; i <= NF; i++) if ($i == m) col = i }
		$1 == "samples" && col && ours { n += $col; col = 0 }
		END { print n + 0 }' "$1"
}

for g in teo menu; do
	mkdir -p $out/$g
	idlescope -g $g -d $UNTIL_STOPPED_S -i 3600 -o $out/$g -r $out/$g.rec >$out/$g.txt 2>&1 &
	loader=$!
	wait_for_loader
	# Timers under and over the tick (1 ms): the tick runs, then stops.
	periodic -d 2 -p 300 -c 1 -t short >/dev/null 2>&1
	periodic -d 2 -p 5000 -c 1 -t long >/dev/null 2>&1
	# Wake-ups no timer announces: the intercepts.
	pingpong -d 1 >/dev/null 2>&1
	poisson -d 2 -m 400 -c 1 -t random >/dev/null 2>&1
	# A 20 us PM QoS limit: only POLL, C1 and C1E are within it.
	exec 3>/dev/cpu_dma_latency
	echo 14 >&3
	periodic -d 1 -p 2000 -c 1 -t qos20us >/dev/null 2>&1
	exec 3>&-
	kill -INT $loader
	wait $loader
	rc=$?
	check -m "exit $rc" "state models: the $g run ends cleanly" [ $rc = 0 ]
	check_report_json "state models: the $g report.json matches the schema" $out/$g/report.json
	idlescope dump $out/$g.rec >$out/$g.csv
	set -- $(count_flag $out/$g.csv $g $HAS_TICK_STATE)
	check -m "$2 of $1" "state models: every $g record holds the tick at select" \
		[ "$1" -ge 1000 -a "$1" = "$2" ]
done

# teo's span reaches each record but the first after its ->enable() on a CPU.
set -- $(count_flag $out/teo.csv teo $HAS_TEO_SPAN)
spans="$1 $2"
set -- $(count_flag $out/teo.csv teo $RESTARTED)
check -m "$spans, $2 restarts" "state models: teo's records hold its span but after a restart" \
	[ "${spans% *}" -ge 1000 -a $((${spans#* } + $2)) -ge "${spans% *}" ]

set -- $(state_agreement $out/teo/report.txt teo-6.1)
check -m "$1 of $2" "state models: on 6.1, model teo-6.1 reproduces teo's chosen state on >= 99.9%" \
	agrees_999 $1 $2
set -- $(agreement $out/menu/report.txt menu)
check -m "$1 of $2" "state models: on 6.1, model menu reproduces menu's prediction on >= 99.9%" \
	agrees_999 $1 $2
# The 6.12 models are not the running governors' here: never checked.
checked=$(grep -c "model [a-z]*-6.12 reproduces" $out/teo/report.txt $out/menu/report.txt |
	awk -F: '{ n += $2 } END { print n }')
check -m "$checked lines" "state models: on 6.1 no 6.12 model is checked against the kernel" \
	[ "$checked" = 0 ]

# What 6.12's governors would have chosen on 6.1's periods.
n=$(ideal_periods $out/teo/report.txt teo-6.12)
check -m "$n periods" "state models: teo-6.12 is scored by ideal state on 6.1's teo periods" \
	[ "$n" -ge 1000 ]
n=$(ideal_periods $out/teo/report.txt teo-6.1)
live=$(grep -c '^    ideal  *teo-6.1  *teo-6.12  *live' $out/teo/report.txt)
check -m "$n periods, $live tables" "state models: ... beside teo-6.1 and the live teo" \
	[ "$n" -ge 1000 -a "$live" -ge 1 ]
n=$(ideal_periods $out/menu/report.txt menu-6.12)
p=$(model_samples $out/menu/report.txt menu-6.12 menu)
check -m "$n states, $p predictions" \
	"state models: menu-6.12 chooses and predicts on 6.1's menu periods" \
	[ "$n" -ge 1000 -a "$p" -ge 1000 ]
# teo's periods lack what menu's models need (tick wakeup, I/O waiters).
p=$(model_samples $out/teo/report.txt menu-6.12 teo)
check -m "$p predictions" "state models: menu-6.12 is not scored on teo's periods" [ "$p" = 0 ]
