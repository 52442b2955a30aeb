#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: why the periods missed.  What ended each idle period is attributed
# to its known source: a periodic sleeper's own timer (known from the
# sleeper's grid), and the IPIs of a cross-CPU wake-up (pingpong), a device
# interrupt (the 9p share's virtio) and the sleeper's timer as the kernel's
# own tracing saw them (ftrace of the same tracepoints, an independent
# ring buffer, matched period by period).  Then a miss becomes a
# reproducer: a pingpong run extracted as a trace and replayed, both with
# the idle states' exit cost off, gives the same share of predictions
# within 2x, within the recorded run's interval or 3 points
# (docs/trace-format.md measures how close it comes).  Runs with
# idlescope_states loaded (20-governors.sh leaves it so).

. /usr/share/idlescope/lib.sh

out=/host/why
T=/sys/kernel/tracing
mkdir -p $out
plan 9

# at_least_99 HITS TOTAL MIN: at least MIN periods, >= 99% of them hits.
at_least_99() {
	[ "$2" -ge "$3" ] && [ $(($1 * 100)) -ge $(($2 * 99)) ]
}

# --- attribution ----------------------------------------------------------
echo mono >$T/trace_clock
echo 16384 >$T/buffer_size_kb
echo 0 >$T/tracing_on
for e in power/cpu_idle irq/irq_handler_entry timer/hrtimer_expire_entry \
	irq_vectors/local_timer_entry irq_vectors/reschedule_entry \
	irq_vectors/call_function_entry irq_vectors/call_function_single_entry \
	irq_vectors/irq_work_entry; do
	echo 1 >$T/events/$e/enable
done
idlescope -g menu -d $UNTIL_STOPPED_S -i 3600 -r $out/attr.rec >$out/attr.txt 2>&1 &
loader=$!
wait_for_loader
# The loader's start (attach, governor switch) is not what is measured.
sleep 2
: >$T/trace
echo 1 >$T/tracing_on
periodic -d 2 -p 1000 -c 1 >$out/periodic.txt 2>&1
pingpong -d 3 >/dev/null 2>&1
idlescope tag disk
dd if=/dev/zero of=$out/junk bs=4k count=200 oflag=sync 2>/dev/null
idlescope tag
echo 0 >$T/tracing_on
kill -INT $loader
wait $loader
rc=$?
for e in $T/events/*/*/enable; do echo 0 >$e 2>/dev/null; done
cat $T/trace >$out/ftrace.txt
: >$T/trace
rm -f $out/junk
idlescope dump $out/attr.rec >$out/attr.csv
check -m "exit $rc" "wakeup: the run with wake-up sources ends cleanly" [ $rc = 0 ]

# The sleeper's own timer: periods of its CPU whose wake-up came within 50 us
# after one of its deadlines (whole milliseconds plus its phase).  With the
# exit cost on, the period's end (the cpu_idle exit) is the wake-up plus the
# entered state's exit latency, spent after it.
phase=$(sed -n 's/.*, phase \([0-9]*\) us, .*/\1/p' $out/periodic.txt)
exit_cost=0
[ "$(exit_cost_state)" = Y ] && exit_cost=1
set -- $(csv_awk -v phase_ns=$((${phase:-0} * 1000)) -v exit_cost=$exit_cost \
		'$col["workload"] == "periodic1ms" && $col["cpu"] == 1 && $col["wake_source"] != "" {
		off = ($col["enter_ns"] + $col["residency_ns"] - phase_ns -
		       exit_cost * $col["exit_latency_ns"]) % 1000000
		if (off < 0) off += 1000000
		if (off >= 50000) next
		n++; if ($col["wake"] == "hrtimer hrtimer_wakeup") a++ }
	END { printf "%d %d", a, n }' $out/attr.csv)
check -m "$1 of $2 (phase ${phase:-?} us)" \
	"wakeup: a periodic sleeper's own timer ends its periods in >= 99% of them" \
	at_least_99 "$1" "$2" 300

# The kernel's own trace: each period (CPU, exit to the microsecond) and
# the first handler inside it, then idlescope's verdict on the same period.
# Matched by the exit: ftrace stamps it 0 to 4 us before the BPF side does
# (the entry is stamped after the BPF side's work, up to 100 us later).
awk '{
	for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
	cpu = substr($i, 2, length($i) - 2) + 0; t = $(i + 2); ev = $(i + 3)
	sub(/:$/, "", t); sub(/:$/, "", ev)
	if (ev == "cpu_idle") {
		if ($(i + 4) == "state=4294967295") {
			split(t, p, ".")
			if (open[cpu]) print cpu, p[1] p[2], first[cpu] == "" ? "-" : first[cpu]
			open[cpu] = 0
		} else { open[cpu] = 1; first[cpu] = "" }
		next
	}
	if (!open[cpu] || (first[cpu] != "" && first[cpu] != "timer")) next
	if (ev == "irq_handler_entry") { sub(/irq=/, "", $(i + 4)); first[cpu] = "irq " $(i + 4) }
	else if (ev == "hrtimer_expire_entry") {
		f = $0; sub(/.*function=/, "", f); sub(/ .*/, "", f)
		first[cpu] = f == "tick_sched_timer" ? "tick" : "hrtimer " f
	} else if (ev == "local_timer_entry") first[cpu] = "timer"
	else { sub(/_entry$/, "", ev); first[cpu] = "ipi " ev }
}' $out/ftrace.txt >$out/ftrace.periods
# oracle KIND: "SAME TOTAL" of the periods ftrace says KIND ended (ipi, irq,
# hrtimer) that idlescope says the same of, matched by CPU and exit (us).
oracle() {
	awk -v kind="$1" 'NR == FNR { want[$1 " " $2] = substr($0, length($1 " " $2) + 2); next }
		FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ us = int(($col["enter_ns"] + $col["residency_ns"]) / 1000); w = ""
		  for (d = 0; d <= 5 && w == ""; d++) w = want[$col["cpu"] " " (us - d)]
		  if (w == "" || index(w, kind " ") != 1) next
		  n++; split($col["wake"], word, " ")
		  if ($col["wake"] == w || (kind == "irq" && word[1] " " word[2] == w)) a++ }
		END { printf "%d %d", a, n }' $out/ftrace.periods FS=, $out/attr.csv
}
matched=$(awk -F, 'NR > 1' $out/attr.csv | wc -l)
check -m "$(wc -l <$out/ftrace.periods) periods traced, $matched recorded" \
	"wakeup: the kernel's trace saw the periods" [ "$(wc -l <$out/ftrace.periods)" -ge 1000 ]
set -- $(oracle ipi)
check -m "$1 of $2" "wakeup: IPIs (cross-CPU wake-ups) are attributed to their vector in >= 99%" \
	at_least_99 "$1" "$2" 300
set -- $(oracle irq)
check -m "$1 of $2" "wakeup: device interrupts are attributed to their IRQ in >= 99%" \
	at_least_99 "$1" "$2" 10
set -- $(oracle hrtimer)
check -m "$1 of $2" "wakeup: hrtimers are attributed to their function in >= 99%" \
	at_least_99 "$1" "$2" 300

# --- extract, replay ---------------------------------------------------------
# report_2x REPORT.txt WORKLOAD: "PCT HALF" of its headline's within 2x row.
report_2x() {
	awk -v w="$2" '/^within 2x %/ { t = 1; next } t && $1 == w { sub(/±/, "", $3); print $2, $3; exit }
		t && !/^[a-z0-9]/ { t = 0 }' "$1"
}
# watched NAME COMMAND...: COMMAND under a menu loader, its records in
# $out/NAME.rec and its reports in $out/NAME/.  Small ring buffers: the
# loader drains them often, in short bursts, the same in the recording and
# the replay, instead of a few long ones that the replay would meet at
# other places of the trace.  The records and reports go to guest memory
# while COMMAND runs and to the share after it: a write to the 9p share
# completes at a host time, which would differ between the two runs.
watched() {
	name=$1
	shift
	rm -rf $out/$name $out/$name.rec /tmp/why-$name
	mkdir -p /tmp/why-$name/report
	idlescope -g menu -d $UNTIL_STOPPED_S -i 3600 -b 1048576 -r /tmp/why-$name/run.rec \
		-o /tmp/why-$name/report >/dev/null 2>&1 &
	loader=$!
	wait_for_loader
	sleep 2
	"$@"
	kill -INT $loader
	wait $loader
	dd if=/tmp/why-$name/run.rec of=$out/$name.rec bs=1M 2>/dev/null
	cp -r /tmp/why-$name/report $out/$name
	rm -rf /tmp/why-$name
}
# The exit cost is off for the round trip.  With it on the replay matched
# in boots whose guest ran at one speed throughout, and not in a CI boot
# whose adaptive shift moved between the recording and the replay (66.8
# recorded, 45.3 replayed): the deep states' exits, hundreds of us each,
# put the replay behind its schedule there (docs/trace-format.md).
exit_cost_off
watched pp pingpong -d 4 >/dev/null 2>&1
idlescope extract $out/pp.rec -w pingpong --all -o $out/pp.trace 2>$out/extract.err
rc=$?
sleeps=$(grep -c '^sleep ' $out/pp.trace 2>/dev/null)
check -m "exit $rc, ${sleeps:-0} sleeps: $(cat $out/extract.err)" \
	"extract: a pingpong run becomes a trace of its sleeps" [ $rc = 0 -a "${sleeps:-0}" -ge 1000 ]
idlescope extract $out/pp.rec -w pingpong -o $out/worst.trace 2>/dev/null
set -- $(sed -n 's/^# worst [0-9]* ms: \([0-9.]*\)% within 2x, the run \([0-9.]*\)%.*/\1 \2/p' \
	$out/worst.trace)
check -m "worst ${1:-?}%, run ${2:-?}%" "extract: the worst stretch scores no better than the run" \
	awk -v w="${1:--1}" -v r="${2:--1}" 'BEGIN { exit !(w >= 0 && w <= r) }'
# One replay, compared as it ran: the fixed clock (vm/run.sh's default)
# has no adaptive shift to stall both CPUs behind the replay's back
# (docs/clock.md), where the virtual clock's boots fell 0.7-2.5 s behind
# and the check retried (docs/trace-format.md).  How far behind its
# schedule the replay fell is in the message.
watched rp replay -f $out/pp.trace -t pingpong >$out/replay.txt 2>&1
behind=$(sed -n 's/.*at most \([0-9.]*\) ms behind the schedule.*/\1/p' $out/replay.txt)
replay_exit=$(exit_cost_state)
exit_cost_restore
set -- $(report_2x $out/pp/report.txt pingpong) $(report_2x $out/rp/report.txt pingpong)
# A recorded run too short for an interval (its half-width "?") has the 3
# points alone: compared as text, "?" let any difference pass.
check -m "recorded ${1:-?} ±${2:-?}, replayed ${3:-?}, exit cost $replay_exit, ${behind:-?} ms behind; $(cat $out/replay.txt)" \
	"replay: the replayed trace's within 2x is within the recorded run's interval or 3 points" \
	awk -v a="${1:--1}" -v h="${2:--1}" -v b="${3:--100}" \
		'BEGIN { if (h == "?") h = 0; a += 0; h += 0; b += 0
			d = a - b; if (d < 0) d = -d; exit !(a >= 0 && h >= 0 && d <= (h > 3 ? h : 3)) }'
