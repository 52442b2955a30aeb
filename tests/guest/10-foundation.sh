#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: the VM has both CPUs, and the loader's tracepoint programs attach
# and see the idle entries and exits of each CPU.

. /usr/share/idlescope/lib.sh
plan 6

check -m "nproc $(nproc)" "guest: 2 CPUs online" [ "$(nproc)" = 2 ]

idlescope -d 2 >/tmp/counts.txt 2>&1
rc=$?
check -m "exit $rc" "loader: -d 2 exits 0" [ $rc = 0 ]
for cpu in 0 1; do
	line=$(awk -v cpu=$cpu '$1 == cpu && NF == 5' /tmp/counts.txt)
	set -- $line
	entries=${2:-0}
	exits=${3:-0}
	check -m "$entries entries" "loader: cpu$cpu counts idle entries" [ "$entries" -gt 0 ]
	diff=$((entries - exits))
	check -m "$entries entries, $exits exits" "loader: cpu$cpu entries and exits differ by at most 1" \
		[ "${diff#-}" -le 1 ]
done
