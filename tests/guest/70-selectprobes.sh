#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: the fexit probes on the governors' select functions fill the
# record with select's own verdict (chosen state, stop_tick, the PM QoS
# limit, the chosen state's parameters), and attaching and detaching them
# again and again under load does not stall the machine.  Runs after
# 20-governors.sh, with idlescope_states loaded.

. /usr/share/idlescope/lib.sh
plan 18

out=/host/selectprobes
mkdir -p $out
cpuidle=/sys/devices/system/cpu/cpuidle

RESTARTED=128		# IDLESCOPE_F_RESTARTED
SELECT_PROBED=512	# IDLESCOPE_F_SELECT_PROBED
STOP_TICK=256		# IDLESCOPE_F_STOP_TICK

# Under menu, a 2 ms sleeper without a PM QoS limit, then with a 100 us
# one held (/dev/cpu_dma_latency takes hex), then with 1 us, below the
# exit latency of state 1 (2 us), where menu_select() returns state 0
# before predicting anything, then without again.
# The loader runs until the last workload ends: a fixed duration would cut
# the last one short when starting the others takes longer.
idlescope -g menu -d $UNTIL_STOPPED_S -r $out/menu.rec >$out/menu.txt 2>&1 &
loader=$!
wait_for_loader
periodic -d 2 -p 2000 -c 1 -t free >/dev/null 2>&1
exec 3>/dev/cpu_dma_latency
echo 64 >&3
periodic -d 2 -p 2000 -c 1 -t qos100us >/dev/null 2>&1
exec 3>&-
# Both CPUs poll under 1 us, about 15k periods per second each: 1 s is
# enough, and keeps the record file small for the guest's dump and replay.
exec 3>/dev/cpu_dma_latency
echo 1 >&3
periodic -d 1 -p 2000 -c 1 -t qos1us >/dev/null 2>&1
exec 3>&-
periodic -d 2 -p 2000 -c 1 -t after >/dev/null 2>&1
kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc" "select probes: loader exits 0 with the select probes" [ $rc = 0 ]
check "select probes: the loader says they are attached" \
	grep -q 'select probes on [0-9]* governors' $out/menu.txt
idlescope dump $out/menu.rec >$out/menu.csv

set -- $(count_flag $out/menu.csv menu $SELECT_PROBED)
check -m "$2 of $1" "select probes: every menu record is probed" [ "$1" -gt 1000 -a "$1" = "$2" ]
# The loader's switch to menu restarts its history on every CPU, and the
# records must say where, or no model is ever compared on that CPU: even
# when the CPU's first selects after the switch entered no state, before
# any earlier count was seen to compare with.
restarts= missing=0
for cpu in $(seq 0 $(($(nproc) - 1))); do
	set -- $(count_flag $out/menu.csv menu $RESTARTED $cpu)
	restarts="$restarts cpu$cpu $2 of $1;"
	[ "$1" -gt 0 -a "$2" -gt 0 ] || missing=$((missing + 1))
done
check -m "$restarts" "select probes: the switch to menu shows as a restart on every CPU" \
	[ $missing = 0 ]
set -- $(count_flag $out/menu.csv menu $STOP_TICK)
check -m "$2 of $1" "select probes: menu asked to stop the tick on some periods" \
	[ "$2" -gt 0 -a "$2" -lt "$1" ]
# cpuidle_enter_state() enters another state than select's only when the
# tick broadcast fails, which this driver never needs.
set -- $(csv_awk '$col["governor"] == "menu" {
		n++; if ($col["state"] == $col["chosen_state"]) same++ }
	END { printf "%d %d", n, same }' $out/menu.csv)
check -m "$2 of $1" "select probes: menu's chosen state is the entered one" \
	[ "$1" -gt 1000 -a "$1" = "$2" ]
# The state parameters are those of the sysfs table (us there, ns here).
bad=0
for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
	i=${s##*state}
	lat_ns=$(($(cat $s/latency) * 1000))
	res_ns=$(($(cat $s/residency) * 1000))
	n=$(csv_awk -v i=$i -v l=$lat_ns -v r=$res_ns \
		'$col["governor"] == "menu" && $col["chosen_state"] == i {
		if ($col["exit_latency_ns"] != l || $col["target_residency_ns"] != r) bad++ }
		END { print bad + 0 }' $out/menu.csv)
	bad=$((bad + n))
done
check -m "$bad differ" "select probes: exit latency and target residency match sysfs" \
	[ $bad = 0 ]
qos=$(csv_awk '$col["workload"] == "qos100us" && $col["governor"] == "menu"' \
	$out/menu.csv | grep -c .)
qos_ok=$(csv_awk '$col["workload"] == "qos100us" && $col["governor"] == "menu" &&
	$col["latency_req_ns"] == 100000' $out/menu.csv | grep -c .)
check -m "$qos_ok of $qos" "select probes: a 100 us PM QoS limit reaches the records" \
	[ "$qos" -gt 100 -a "$qos_ok" -gt $((qos * 99 / 100)) ]
free_ok=$(csv_awk '$col["workload"] == "free" && $col["governor"] == "menu" &&
	$col["latency_req_ns"] == 2000000000000' $out/menu.csv | grep -c .)
check -m "$free_ok records" \
	"select probes: without a limit the records hold PM QoS's default 2000 s" \
	[ "$free_ok" -gt 100 ]

# The limits change what menu does: at 1 us it predicts nothing on nearly
# every period (the record says -1, unknown).  The stock menu model,
# replayed off-line on the recorded limits, must still make every
# prediction the kernel made, before, under and after them.
set -- $(csv_awk '$col["workload"] == "qos1us" && $col["governor"] == "menu" {
		n++; if ($col["predicted_ns"] == -1) none++ }
	END { printf "%d %d", n, none }' $out/menu.csv)
check -m "$2 of $1" "PM QoS: under a 1 us limit menu predicts nothing on >= 99% of periods" \
	[ "$1" -gt 100 -a $(($2 * 100)) -ge $(($1 * 99)) ]
mkdir -p $out/menu-report
idlescope report $out/menu.rec -o $out/menu-report >/dev/null 2>&1
set -- $(agreement $out/menu-report/report.txt menu)
resets=$(grep -o '[0-9]* history resets' $out/menu-report/report.txt)
check -m "${1:-0} of ${2:-0}, ${resets:-no history resets line}" \
	"PM QoS: with limits set and lifted mid-run the menu model agrees on >= 99.9%" \
	[ "${2:-0}" -ge 1000 -a $((${1:-0} * 1000)) -ge $((${2:-0} * 999)) ]

# The same run with --no-select-probes: tracepoints only, no probed record.
idlescope --no-select-probes -d 2 -r $out/tp.rec >$out/tp.txt 2>&1
check "tracepoints only: --no-select-probes runs and says so" \
	grep -q 'tracepoints only' $out/tp.txt
idlescope dump $out/tp.rec >$out/tp.csv
set -- $(count_flag $out/tp.csv menu $SELECT_PROBED)
check -m "$2 of $1" "tracepoints only: no record is probed" [ "$1" -gt 0 -a "$2" = 0 ]

# Attach/detach cycles of the fexit set under load on both CPUs, with
# menu2010 selecting: each attach and detach patches the entry of the
# select function the idle loop is running.  A stall never returns; the
# boot's timeout then reports it.  Each cycle waits for RCU-tasks grace
# periods: about 0.7 s of guest time, and under pingpong about 6 s of the
# host's with the test boot's fixed clock.  25 cycles: the freeze this
# guards against came within 1 to 25 cycles, and only under multi-threaded
# TCG (docs/bpf.md); `attachcycles` alone runs more.
echo menu2010 >$cpuidle/current_governor
pingpong -d 3600 >/dev/null 2>&1 &
load=$!
attachcycles -n 25 -t 1 -e 5 >$out/cycles.txt 2>&1
rc=$?
kill -INT $load
wait $load
check -m "exit $rc, $(tail -n 1 $out/cycles.txt)" \
	"attach cycles: 25 attach/detach cycles under menu2010 and pingpong exit 0" [ $rc = 0 ]
selects=$(sed -n 's/.* \([0-9]*\) selects probed.*/\1/p' $out/cycles.txt)
check -m "${selects:-0} selects" "attach cycles: the probes saw menu2010's selects" \
	[ "${selects:-0}" -gt 0 ]
echo menu >$cpuidle/current_governor

# One ring buffer per CPU (the default): a 2-CPU pingpong, the guest's
# fastest wake-ups, loses no record, and each CPU's seq runs
# without a gap.  The same run counts the sleeps' timer lateness.  The
# loader runs until the sleeps are over: with a fixed duration, what the
# guest's clock spent before them (a wait for the 9p share moves it on; a
# slow guest under the adaptive shift: docs/clock.md) cut the last sleeps
# off (470 of 500 counted in a CI boot).
idlescope -d $UNTIL_STOPPED_S -r $out/pp.rec >$out/pp.txt 2>&1 &
loader=$!
wait_for_loader
pingpong -d 3 -t pingpong >$out/pingpong.txt 2>&1
periodic -d 1 -p 2000 -c 1 -t late >/dev/null 2>&1
kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc" "per-CPU ring buffers: loader exits 0" [ $rc = 0 ]
dropped=$(awk '$1 ~ /^[0-9]+$/ && NF == 5 { d += $5 } END { print d + 0 }' $out/pp.txt)
idlescope dump $out/pp.rec >$out/pp.csv
set -- $(csv_awk '{ c = $col["cpu"]; s = $col["seq"]
		if (c in last && s != last[c] + 1) gaps++; last[c] = s
		if ($col["workload"] == "pingpong") n++ } END { printf "%d %d", n, gaps }' $out/pp.csv)
check -m "$1 records, $dropped dropped, $2 seq gaps" \
	"per-CPU ring buffers: a 2-CPU pingpong loses no record and no seq" \
	[ "$1" -gt 1000 -a "$dropped" = 0 -a "$2" = 0 ]
sleeps=$(sed -n 's/^timer lateness: \([0-9]*\) sleeps.*/\1/p' $out/pp.txt)
check -m "${sleeps:-0} sleeps" "timer lateness: the 500 sleeps of 2 ms are counted" \
	[ "${sleeps:-0}" -ge 500 ]
