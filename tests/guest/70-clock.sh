#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: in the virtual clocks (idlescope.clock=virtual, vm/run.sh's default,
# and fixed) a timer fires when the guest says, not when the host gets round
# to it: a 1 ms periodic sleeper on each CPU is late by less than 200 us at
# p99 and misses at most 1 period in 1000.  The bounds are generous
# (measured: about 5 us median, 12 us p99; under the host clock 2.5-7 ms
# p99): it tells the clock modes apart, it does not time anything.  Under
# the host clock the property does not hold and nothing is checked.
#
# QEMU's adaptive shift (shift=auto) is still moving in the first seconds
# after boot and TCG is translating the code for the first time: measured
# right after boot, the same sleeper was late by 1067 us at p99 with 185
# overruns in 3 s.  A settling run, not checked, comes first.
#
# The idle states' exit cost (idlescope_states exit_delay, on by default)
# is switched off meanwhile: a wake-up from C8 then takes its 200 us, which
# is the state's cost, not the clock's.

. /usr/share/idlescope/lib.sh

max_p99_us=200
settle_s=3
clock=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^idlescope\.clock=//p')
case $clock in
virtual|fixed) ;;
*)	plan 0
	exit 0 ;;
esac
plan 4

out=/tmp/clock
mkdir -p $out
exit_cost_off
periodic -d $settle_s -p 1000 -t clock-settle >$out/settle.txt 2>&1
for cpu in 0 1; do
	periodic -d 3 -p 1000 -c $cpu -t clock-test >$out/cpu$cpu.txt 2>&1 &
done
wait
exit_cost_restore

for cpu in 0 1; do
	# The summary line; periodic warns on another line without a loader.
	line=$(grep '^periodic: period' $out/cpu$cpu.txt)
	p99_us=$(echo "$line" | sed -n 's/.* p99 \([0-9.]*\) us.*/\1/p')
	overruns=$(echo "$line" | sed -n 's/.*, \([0-9]*\) overruns.*/\1/p')
	check -m "p99 ${p99_us:-none} us: $line" "clock: cpu$cpu 1 ms sleeper lateness p99 < $max_p99_us us" \
		awk -v p="$p99_us" -v max=$max_p99_us 'BEGIN { exit !(p != "" && p < max) }'
	# 3000 periods: at most 3 missed.  Seen in the virtual clock: 0 or 1
	# (one CI run); under the host clock 276-1042 in 5000.
	check -m "${overruns:-0} overruns" \
		"clock: cpu$cpu 1 ms sleeper misses at most 1 period in 1000" \
		[ "${overruns:-0}" -le 3 ]
done
