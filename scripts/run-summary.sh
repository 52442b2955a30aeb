#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end of `make run`, on the host: one report over every governor's
# record file (report.txt, report.json, summary.md, plots/), its headline
# and seed-method tables on stdout, and a warning for any
# workload with fewer than 1000 periods on a CPU.
#
# usage: scripts/run-summary.sh LOADER RUN_DIR GOVERNOR...

set -euo pipefail
. "$(dirname "$0")/../tests/lib.sh"

loader=$1
dir=$2
shift 2
files=()
for g in "$@"; do
	files+=("$dir/$g/run.rec")
done

"$loader" report "${files[@]}" -o "$dir" -w "$(dirname "$0")/../workloads/suite.txt" >/dev/null
# The one-screen headline and the seed's experiment per workload come
# first; the method and the detail follow in report.txt.
awk '/^== method ==$/ { exit } { print }' "$dir/report.txt"
csvs=()
for f in "${files[@]}"; do
	csvs+=("$f.csv")
	"$loader" dump "$f" >"$f.csv"
done
csv_awk '$col["workload"] != "" { n[$col["workload"] " on cpu" $col["cpu"]]++ }
	END { for (k in n) if (n[k] < 1000)
		printf "run: warning: workload %s: only %d periods\n", k, n[k] }' "${csvs[@]}" | sort
rm -f "${csvs[@]}"
echo "report: $dir/report.txt, $dir/summary.md, $dir/plots/ (out/latest)"
