#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: the observation fields.  Under each 2010 governor the prediction
# the kernel stored follows the sleep length and never exceeds the next
# timer; under stock menu it is there too.  Runs with idlescope_states
# loaded (20-governors.sh leaves it so).

. /usr/share/idlescope/lib.sh

out=/host/predictions
mkdir -p $out
governors="menu2010 menu2010fix menu2010rpd menu"
# Four checks per governor, a bound per 2010 governor, menu's rebuilt
# prediction, four at the end.
plan $((4 * $(echo $governors | wc -w) + $(echo $governors | tr ' ' '\n' | grep -c '^menu2010') + 5))

for g in $governors; do
	mkdir -p $out/$g
	idlescope -g $g -d $UNTIL_STOPPED_S -i 3600 -o $out/$g -r $out/$g.rec >$out/$g.txt 2>&1 &
	loader=$!
	wait_for_loader
	periodic -d 2 -p 500 -c 1 -t sleep500us >/dev/null 2>&1
	periodic -d 2 -p 5000 -c 1 -t sleep5ms >/dev/null 2>&1
	# Wake-ups the next timer does not know: where selects get lost.
	pingpong -d 1 >/dev/null 2>&1
	kill -INT $loader
	wait $loader
	rc=$?
	check -m "exit $rc" "predictions: $g run ends cleanly on SIGINT" [ $rc = 0 ]
	check_report_json "predictions: the $g report.json matches the schema" $out/$g/report.json
	idlescope dump $out/$g.rec >$out/$g.csv
	# Mean stored prediction per tag, on the sleeper's CPU, of this governor.
	means=$(csv_awk -v g=$g '$col["governor"] == g && $col["cpu"] == 1 &&
			$col["predicted_ns"] > 0 {
			s[$col["workload"]] += $col["predicted_ns"]; n[$col["workload"]]++ }
		END { printf "%d %d", n["sleep500us"] ? s["sleep500us"] / n["sleep500us"] / 1000 : -1,
			n["sleep5ms"] ? s["sleep5ms"] / n["sleep5ms"] / 1000 : -1 }' $out/$g.csv)
	set -- $means
	grows=no
	[ "$1" -gt 0 ] && [ "$2" -gt "$1" ] && grows=yes
	check -m "${1} us -> ${2} us" "predictions: under $g the mean prediction grows with the sleep" \
		[ $grows = yes ]
	# The 2010 correction factor stays at or below unity until a period
	# lasts longer than its next timer (TCG wakes timers late), so until
	# then on a CPU no prediction may exceed the next timer rounded up to
	# whole microseconds (expected_us).
	# The model of the running governor, replayed on the same inputs,
	# must make the kernel's prediction: else the model or the port is
	# wrong.
	set -- $(agreement $out/$g/report.txt $g)
	check -m "$1 of $2" "predictions: model $g reproduces the kernel's prediction on >= 99%" \
		agrees_99 $1 $2
	case $g in
	menu2010*)
		over=$(csv_awk -v g=$g '$col["governor"] == g {
				p = $col["predicted_ns"]; t = $col["next_timer_ns"]
				if (p >= 0 && p > int((t + 999) / 1000) * 1000 && !late[$col["cpu"]])
					n++
				if ($col["residency_ns"] > t) late[$col["cpu"]] = 1 }
			END { print n + 0 }' $out/$g.csv)
		total=$(csv_awk -v g=$g '$col["governor"] == g && $col["predicted_ns"] >= 0' \
			$out/$g.csv | grep -c .)
		bounded=no
		[ "$total" -gt 0 ] && [ "$over" = 0 ] && bounded=yes
		check -m "$over of $total" \
			"predictions: under $g no prediction exceeds the next timer before a late wake-up" \
			[ $bounded = yes ]
		;;
	menu)
		# Rebuilt from menu's data as on a distribution kernel
		# (loader/replay/reconstruct.c), the prediction must be the stored one.
		set -- $(reconstruction $out/$g/report.txt)
		check -m "$1 of $2" "predictions: menu's prediction rebuilt from its data is the kernel's own" \
			[ "$2" -ge 100 -a "$1" = "$2" ]
		;;
	esac
done
check "predictions: the governor is restored after -g" \
	[ "$(cat /sys/devices/system/cpu/cpuidle/current_governor)" = menu ]

# The 2010 pattern detector compares the *sum* of the last 8 intervals with
# the next timer.  A periodic timer is its own next timer, so the sum is 8
# times too large and the detector cannot fire: on periodic sleeps
# menu2010rpd's predictions come from the correction factor alone.
detected=$(csv_awk '$col["governor"] == "menu2010rpd" && $col["workload"] == "sleep500us" &&
	$col["predicted_ns"] > 0 { n++; if ($col["typical_interval_us"] > 0) d++ }
	END { printf "%d %d", d, n }' $out/menu2010rpd.csv)
set -- $detected
check -m "$1 of $2" "predictions: on a periodic timer the 2010 pattern detector fires on < 5%" \
	[ "$2" -ge 100 -a $(($1 * 20)) -lt "$2" ]

# The four runs in one report: its first screen fits 60 lines and names
# every workload; the seed's experiment follows for the menu2010 run.
mkdir -p $out/all
idlescope report $out/menu2010.rec $out/menu2010fix.rec $out/menu2010rpd.rec $out/menu.rec \
	-o $out/all >/dev/null 2>&1
headline=$(awk '/^== seed method/ { exit } { print }' $out/all/report.txt)
lines=$(echo "$headline" | grep -c '')
named=yes
for w in sleep500us sleep5ms pingpong; do
	echo "$headline" | grep -q "^$w " || named=no
done
check -m "$lines lines" "headline: at most 60 lines, every workload named" \
	[ "$lines" -le 60 -a $named = yes ]
check "headline: the seed method on the menu2010 run follows it" \
	grep -q '^== seed method, workload pingpong: the menu2010 run' $out/all/report.txt
