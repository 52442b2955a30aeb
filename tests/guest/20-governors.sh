#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: the synthetic idle driver and the six runtime-switchable governors.

. /usr/share/idlescope/lib.sh

cpuidle=/sys/devices/system/cpu/cpuidle
cpu0=/sys/devices/system/cpu/cpu0/cpuidle
module=/lib/modules/idlescope_states.ko
governors="menu teo ladder menu2010 menu2010fix menu2010rpd"
# The governors whose choices must spread over the states.
spreading="menu menu2010 menu2010fix menu2010rpd"
# 11 single checks, one per governor, one per spreading governor, and
# one per bad states= table (five, at the end).
plan $((11 + $(echo $governors | wc -w) + $(echo $spreading | wc -w) + 5))

# state_table: "name:latency:residency" of every cpu0 state, comma separated.
state_table() {
	for s in $cpu0/state*; do
		printf '%s:%s:%s,' "$(cat $s/name)" "$(cat $s/latency)" "$(cat $s/residency)"
	done
}

# usage_snapshot: usage of every cpu0 state, then every cpu1 state, one per line.
usage_snapshot() {
	for s in $cpu0/state* /sys/devices/system/cpu/cpu1/cpuidle/state*; do
		cat $s/usage
	done
}

check "driver: no cpuidle driver before insmod" [ "$(cat $cpuidle/current_driver)" = none ]
insmod $module
check "driver: insmod with the default table exits 0" [ $? = 0 ]
check "driver: idlescope_states owns the cpuidle driver slot" \
	[ "$(cat $cpuidle/current_driver)" = idlescope_states ]
# The default table (intel_idle's Skylake, idlescope_states_table.h) is the
# module's states= default, which sysfs shows: the states are POLL + it.
default_states=$(cat /sys/module/idlescope_states/parameters/states)
check "driver: default states are POLL + the module's default states= table" \
	[ "$(state_table)" = "POLL:0:0,$default_states," ]

avail=$(cat $cpuidle/available_governors)
for g in $governors; do
	case " $avail " in
	*" $g "*) pass "governors: $g is available" ;;
	*) fail "governors: $g is available" "available_governors: $avail" ;;
	esac
done
check "governors: stock menu is the default" [ "$(cat $cpuidle/current_governor)" = menu ]

# Switch between every ordered pair while a waker keeps the CPUs idling.
periodic -d 60 -p 300 -t switching >/dev/null 2>&1 &
waker=$!
bad=
for from in $governors; do
	for to in $governors; do
		[ $from = $to ] && continue
		echo $from >$cpuidle/current_governor
		echo $to >$cpuidle/current_governor
		now=$(cat $cpuidle/current_governor)
		[ "$now" = $to ] || bad="$bad $from->$to:$now"
		usleep 20000
	done
done
kill $waker
wait $waker 2>/dev/null
check -m "failed:$bad" "governors: every pair switches and reads back" [ -z "$bad" ]
oops=$(dmesg | grep -c -E 'BUG:|WARNING:|Oops')
check -m "$oops lines" "governors: no oops or warning while switching" [ "$oops" = 0 ]

# Short, medium and long sleeps must spread over at least three states.
nr_states=$(ls -d $cpu0/state* | grep -c .)
for g in $spreading; do
	echo $g >$cpuidle/current_governor
	before=$(usage_snapshot | tr '\n' ' ')
	for gap in 50 500 5000; do
		periodic -d 1 -p $gap -c 0 -t sleep${gap}us >/dev/null 2>&1
	done
	after=$(usage_snapshot | tr '\n' ' ')
	grown=$(echo "$before|$after" | awk -F'|' -v nr_states=$nr_states '{
		n = split($1, b, " "); split($2, a, " ");
		for (i = 1; i <= n; i++) if (a[i] > b[i]) { s = (i - 1) % nr_states; seen[s] = 1 }
		c = 0; for (s in seen) c++; print c }')
	check -m "$grown states used" "states: under $g, 50us/500us/5ms sleeps use >= 3 states" \
		[ "$grown" -ge 3 ]
done
echo menu >$cpuidle/current_governor

rmmod idlescope_states
check "driver: rmmod exits 0" [ $? = 0 ]
check "driver: rmmod frees the driver slot" [ "$(cat $cpuidle/current_driver)" = none ]

insmod $module states=C1:2:2,C6:85:200
check "driver: insmod with states=C1:2:2,C6:85:200 exits 0" [ $? = 0 ]
check "driver: custom table is POLL + C1 + C6" [ "$(state_table)" = "POLL:0:0,C1:2:2,C6:85:200," ]
rmmod idlescope_states

for bad_states in C1:2:2,C6:x:200 C1:5:2 C6:85:200,C1:2:2 C1 ""; do
	dmesg -c >/dev/null
	insmod $module states="$bad_states" 2>/dev/null
	rc=$?
	# busybox insmod retries init_module() after a failed finit_module(),
	# so the module's init may run (and print) twice: count distinct lines.
	msg=$(dmesg | grep 'idlescope_states: ' | sort -u | grep -c .)
	name="driver: states='$bad_states' is refused with one dmesg line"
	if [ $rc != 0 ] && [ "$msg" = 1 ] && [ "$(cat $cpuidle/current_driver)" = none ]; then
		pass "$name"
	else
		fail "$name" "insmod exit $rc, $msg dmesg lines, driver $(cat $cpuidle/current_driver)"
	fi
done

# Leave the default driver loaded for the tests that follow.
insmod $module
