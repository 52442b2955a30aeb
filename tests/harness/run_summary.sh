#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run's warning of a thin run (scripts/run-summary.sh): a run is
# judged against the same governor's runs of the same workload.  genrec
# writes 5000 periods per workload and CPU in turn (periodic1ms, pingpong,
# poisson2ms), so three boots of 30000 records warn of nothing, and a third
# boot of 22000 has poisson2ms's last 2000 split over its two CPUs: those
# two runs are warned of, exactly, and nothing else is; with poisson2ms
# host-timed in the run's workloads.txt (its pace follows the host's
# load), nothing is.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 4

make -s -C "$top" build/idlescope build/genrec >/dev/null || exit 1

# boots DIR N1 N2 N3: three boots of menu, N records each.
boots() {
	local dir=$1 s=0 n
	shift
	for n in "$@"; do
		s=$((s + 1))
		mkdir -p "$dir/seed-$s/menu/menu"
		"$top/build/genrec" -n "$n" -c 2 -s "$s" -o "$dir/seed-$s/menu/menu/run.rec" ||
			return 1
	done
}

boots "$tmp/even" 30000 30000 30000 && boots "$tmp/thin" 30000 30000 22000 || exit 1
"$top/scripts/run-summary.sh" "$top/build/idlescope" "$tmp/even" >"$tmp/even.out" 2>&1
check "run summary: runs of one size warn of nothing" \
	test "$(grep -c 'warning' "$tmp/even.out")" = 0
"$top/scripts/run-summary.sh" "$top/build/idlescope" "$tmp/thin" >"$tmp/thin.out" 2>&1
cat >"$tmp/want" <<'WANT'
run: warning: seed-3/menu/menu: workload poisson2ms on cpu0: only 1000 periods (the median of its runs: 5000)
run: warning: seed-3/menu/menu: workload poisson2ms on cpu1: only 1000 periods (the median of its runs: 5000)
WANT
grep warning "$tmp/thin.out" >"$tmp/got"
check "run summary: a thin run is warned of, with the median it fell short of" \
	cmp -s "$tmp/want" "$tmp/got"
check "run summary: the warnings come before the report's path" \
	test "$(grep -n -m1 warning "$tmp/thin.out" | cut -d: -f1)" -lt \
	"$(grep -n '^report: ' "$tmp/thin.out" | cut -d: -f1)"
printf '# NAME SUITES EVENTS COMMAND\npoisson2ms default host poisson\n' >"$tmp/thin/workloads.txt"
"$top/scripts/run-summary.sh" "$top/build/idlescope" "$tmp/thin" >"$tmp/host.out" 2>&1
check "run summary: a host-timed workload's thin runs are no warning" \
	test "$(grep -c warning "$tmp/host.out")" = 0
