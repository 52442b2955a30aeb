#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the governors' order in a boot (vm/guest/helpers.sh's
# turn_order, which vm/guest/suite.sh applies with the boot's seed): over
# as many seeds as governors each governor runs in each place once.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 3
suite_file=$top/workloads/suite.txt
. "$top/vm/guest/helpers.sh"

orders=$(for s in 0 1 2 3; do turn_order $s menu teo ladder; done | tr '\n' ';')
check -m "$orders" "suite order: seeds 0-3 turn menu teo ladder, then start over" \
	[ "$orders" = "menu teo ladder;teo ladder menu;ladder menu teo;menu teo ladder;" ]
places=$(for s in 0 1 2 3 4 5; do turn_order $s a b c d e f; done |
	awk '{ for (i = 1; i <= NF; i++) seen[$i, i]++ }
	     END { n = 0; for (k in seen) n += seen[k] == 1; print n }')
check -m "$places of 36 (governor, place) pairs seen once" \
	"suite order: over 6 seeds each of 6 governors stands in each place once" [ "$places" = 36 ]
check -m "'$(turn_order 7 menu)'" "suite order: one governor is its own order" \
	[ "$(turn_order 7 menu)" = menu ]
