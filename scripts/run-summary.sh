#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end of `make run`, on the host: one report over every boot's record
# files (RUN_DIR/seed-*/*/<governor>/run.rec, scripts/boot-job.sh), in
# report.txt, report.json, summary.md, report.html, plots/; its headline and
# seed-method tables on stdout, and a warning for any workload with fewer
# than 1000 periods on a CPU in a boot.
#
# usage: scripts/run-summary.sh LOADER RUN_DIR

set -euo pipefail
. "$(dirname "$0")/../tests/lib.sh"

loader=$1
dir=$2
files=()
for f in "$dir"/seed-*/*/*/run.rec; do
	[ -f "$f" ] && files+=("$f")
done
[ ${#files[@]} -gt 0 ] || { echo "run: error: no record file under $dir/seed-*/" >&2; exit 1; }

"$loader" report "${files[@]}" -o "$dir" -w "$(dirname "$0")/../workloads/suite.txt" >/dev/null
# The one-screen headline and the seed's experiment per workload come
# first; the method and the detail follow in report.txt.
awk '/^== method ==$/ { exit } { print }' "$dir/report.txt"
csvs=()
for f in "${files[@]}"; do
	csvs+=("$f.csv")
	"$loader" dump "$f" >"$f.csv"
done
for csv in "${csvs[@]}"; do
	boot=${csv#"$dir"/}
	csv_awk -v boot="${boot%/run.rec.csv}" '$col["workload"] != "" {
			n[$col["workload"] " on cpu" $col["cpu"]]++ }
		END { for (k in n) if (n[k] < 1000)
			printf "run: warning: %s: workload %s: only %d periods\n", boot, k, n[k] }' \
		"$csv" | sort
done
rm -f "${csvs[@]}"
echo "report: $dir/report.txt, $dir/summary.md, $dir/plots/ (out/latest)"
echo "report page: $dir/report.html"
