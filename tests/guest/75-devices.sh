#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: device interrupts in guest time.  irqtrain's HPET comparator (one
# per CPU, 1 kHz) interrupts at its configured rate within 1% in guest time,
# and the idle periods its interrupts end are not what a timer announced:
# the next-timer input is longer than the period in >= 90% of the train's
# periods that have one.  An irregular train (-i, 4 s at 500 Hz from
# seed 1) says it is irregular, delivers the rate of the schedule it drew
# within 1%, that rate is 500 Hz within the draws' sampling error, and
# every event it armed arrives once (below).  Runs with idlescope_states
# loaded (20-governors.sh leaves it so).

. /usr/share/idlescope/lib.sh

plan 7

out=/host/devices
mkdir -p $out/menu
idlescope -g menu -d 3600 -i 3600 -o $out/menu -r $out/menu.rec >$out/menu.txt 2>&1 &
loader=$!
wait_for_loader
irqtrain -d 4 -c 0 -t irqtest >$out/cpu0.txt 2>&1 &
first=$!
irqtrain -d 4 -c 1 -s 2 -t irqtest >$out/cpu1.txt 2>&1
wait $first
irqtrain -d 4 -c 1 -i -r 500 -t irqrandom >$out/irregular.txt 2>&1
kill -INT $loader
wait $loader

for cpu in 0 1; do
	line=$(grep '^irqtrain: ' $out/cpu$cpu.txt)
	err=$(echo "$line" | sed -n 's/.* Hz (\([-+0-9.]*\)%).*/\1/p')
	check -m "${line:-no summary: $(cat $out/cpu$cpu.txt)}" \
		"devices: cpu$cpu HPET train keeps its 1000 Hz within 1% in guest time" \
		awk -v e="$err" 'BEGIN { exit !(e != "" && e < 1 && e > -1) }'
done

idlescope dump $out/menu.rec >$out/menu.csv
# Of the train's periods with a next timer, how many it ends before it.
set -- $(csv_awk '$col["workload"] == "irqtest" && $col["next_timer_ns"] > 0 {
		n++; if ($col["next_timer_ns"] > $col["residency_ns"]) longer++ }
	END { print longer + 0, n + 0 }' $out/menu.csv)
check -m "$1 of $2" "devices: the next timer outlasts >= 90% of the train's idle periods" \
	awk -v a="$1" -v n="$2" 'BEGIN { exit !(n >= 1000 && a >= 0.9 * n) }'

check -m "$(grep -c . $out/irregular.txt) lines" "devices: the irregular train says it is irregular" \
	grep -q 'events device, irregular' $out/irregular.txt

# The irregular train arms each event at a time drawn from the seed
# (workloads/irqtrain.c); its rate is the schedule's, up to the reader's
# lateness at the two ends of the run: 1%.
line=$(grep '^irqtrain: ' $out/irregular.txt)
set -- $(echo "$line" | sed -n 's/.* \([0-9]*\) interrupts in .* \([0-9.]*\) Hz of 500 Hz.* schedule \([0-9.]*\) Hz.* \([0-9]*\) armed.*/\1 \2 \3 \4/p')
check -m "${line:-no summary: $(cat $out/irregular.txt)}" \
	"devices: the irregular HPET train delivers its schedule's rate within 1% in guest time" \
	awk -v got="$2" -v want="$3" 'BEGIN { exit !(want > 0 && got > 0.99 * want && got < 1.01 * want) }'
# Exponential gaps: N of them have a mean within 1/sqrt(N) of 1/rate at
# one standard deviation; seed 1 drew 519.7 Hz for 4 s (+3.9%, 1.8 sd).
# (busybox awk may lack sqrt: the error squared, times N, below 9.)
check -m "$2 Hz, $1 interrupts" \
	"devices: the irregular HPET train keeps 500 Hz within 3/sqrt(interrupts)" \
	awk -v got="$2" -v n="$1" 'BEGIN { e = (got - 500) / 500; exit !(n >= 1000 && e * e * n < 9) }'
# The last event armed is pending when the run ends.  An event that comes
# before the reader replaced the driver's re-arm gap comes twice: 1%.
check -m "$1 interrupts, $4 armed" \
	"devices: every event the irregular train armed arrives once, within 1%" \
	awk -v n="$1" -v armed="$4" 'BEGIN { d = n - (armed - 1); if (d < 0) d = -d; exit !(armed > 0 && d <= 0.01 * armed) }'
