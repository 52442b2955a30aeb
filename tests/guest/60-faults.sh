#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: faults during a run.  A governor switched from outside, CPU 1
# taken offline and back, the idle driver unloaded and reloaded: the
# loader survives each, no period spans a gap, and every record names the
# governor that chose its state.  Runs with idlescope_states loaded.

. /usr/share/idlescope/lib.sh

out=/host/faults
mkdir -p $out
cpuidle=/sys/devices/system/cpu/cpuidle
cpu1=/sys/devices/system/cpu/cpu1
switched="menu2010 teo menu2010rpd"
# One check per governor switched to from outside, nine more.
plan $(($(echo $switched | wc -w) + 9))

# uptime_ns: CLOCK_BOOTTIME, which in this guest (no suspend) is the
# CLOCK_MONOTONIC of bpf_ktime_get_ns(), to 10 ms.
uptime_ns() {
	awk '{ printf "%d", $1 * 1000000000 }' /proc/uptime
}

idlescope -d $UNTIL_STOPPED_S -i 3600 -o $out -r $out/run.rec >$out/loader.txt 2>&1 &
loader=$!
wait_for_loader

# Governor switches from outside the loader, each with its own tagged
# window well inside it.
for g in $switched; do
	echo $g >$cpuidle/current_governor
	usleep 300000
	periodic -d 1 -p 2000 -c 1 -t sw-$g >/dev/null 2>&1
done

# CPU 1 offline for about a second, then back, with a workload on CPU 0.
periodic -d 4 -p 1000 -c 0 -t hotplug >/dev/null 2>&1 &
waker=$!
sleep 1
off_ns=$(uptime_ns)
echo 0 >$cpu1/online
offline_rc=$?
sleep 1
echo 1 >$cpu1/online
online_rc=$?
on_ns=$(uptime_ns)
wait $waker
check -m "exit $offline_rc, $online_rc" "hotplug: CPU 1 went offline and came back" \
	[ $offline_rc = 0 -a $online_rc = 0 -a "$(cat $cpu1/online)" = 1 ]
periodic -d 1 -p 1000 -c 1 -t after-hotplug >/dev/null 2>&1

# The idle driver unloaded and loaded again mid-run.
rmmod idlescope_states
rmmod_rc=$?
periodic -d 1 -p 1000 -c 1 -t no-driver >/dev/null 2>&1
insmod /lib/modules/idlescope_states.ko
insmod_rc=$?
echo menu >$cpuidle/current_governor
periodic -d 1 -p 1000 -c 1 -t driver-again >/dev/null 2>&1

kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc" "faults: the loader survived switches, hotplug and driver reload" [ $rc = 0 ]
check -m "exit $rmmod_rc, $insmod_rc" "faults: the driver unloaded and loaded again" \
	[ $rmmod_rc = 0 -a $insmod_rc = 0 ]
check_report_json "faults: the report.json of a run with faults matches the schema" \
	$out/report.json
idlescope dump $out/run.rec >$out/run.csv

for g in $switched; do
	counts=$(csv_awk -v tag=sw-$g -v g=$g '$col["workload"] == tag {
			n++; if ($col["governor"] != g) bad++ }
		END { printf "%d %d", n, bad }' $out/run.csv)
	set -- $counts
	check -m "$2 of $1 name another" "switch: all records of the $g window name $g" \
		[ "$1" -gt 0 -a "$2" = 0 ]
done
set -- $(agreement $out/report.txt menu2010rpd)
check -m "$1 of $2" "switch: the model of a governor switched to from outside is in step" \
	agrees_99 $1 $2

spanning=$(csv_awk -v off=$off_ns -v on=$on_ns '$col["cpu"] == 1 &&
	$col["enter_ns"] < on - 50000000 &&
	$col["enter_ns"] + $col["residency_ns"] > off + 50000000' $out/run.csv | grep -c .)
check -m "$spanning span it" "hotplug: no CPU 1 period spans the offline gap" [ "$spanning" = 0 ]
after=$(csv_awk '$col["cpu"] == 1 && $col["workload"] == "after-hotplug"' $out/run.csv |
	grep -c .)
check -m "$after records" "hotplug: CPU 1 records resume after it comes back" [ "$after" -gt 0 ]

counts=$(csv_awk '$col["workload"] == "no-driver" { n++; if ($col["governor"] != "none") bad++ }
	$col["workload"] == "driver-again" { m++; if ($col["governor"] == "menu") good++ }
	END { printf "%d %d %d %d", n, bad, m, good }' $out/run.csv)
set -- $counts
check -m "$2 of $1 name one" "driver reload: without the driver no record names a governor" \
	[ "$1" -gt 0 -a "$2" = 0 ]
check -m "$4 of $3" "driver reload: after insmod records name menu again" \
	[ "$3" -gt 0 -a "$4" -gt $(($3 * 9 / 10)) ]
