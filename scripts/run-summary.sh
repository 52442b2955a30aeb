#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end of `make run`, on the host: one report over every boot's record
# files (RUN_DIR/seed-*/*/<governor>/run.rec, scripts/boot-job.sh), in
# report.txt, report.json, summary.md, report.html, plots/; its headline and
# seed-method tables on stdout, and a warning for any workload run with far
# fewer periods on a CPU than that workload's other runs.
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
# A run's count is judged against the same governor's runs of the same
# workload (a governor's choices change how fast a workload goes): below
# half their median over every boot and CPU, or under 100 periods, it
# warns (a workload that stalled, a run cut short).  Long sleepers have
# few periods in every run and say nothing; nor do the workloads whose
# events the host times (EVENTS host in the run's workloads.txt), whose
# pace follows the host's load.
host_timed=
if [ -r "$dir/workloads.txt" ]; then
	host_timed=$(awk '$1 !~ /^#/ && NF >= 3 && $3 == "host" { printf "%s ", $1 }' \
		"$dir/workloads.txt")
fi
for csv in "${csvs[@]}"; do
	boot=${csv#"$dir"/}
	csv_awk -v boot="${boot%/run.rec.csv}" '$col["workload"] != "" {
			n[$col["workload"] "\t" $col["cpu"]]++ }
		END { for (k in n) print boot "\t" k "\t" n[k] }' "$csv"
done | sort -t "$(printf '\t')" -k2,2 -k4,4n | awk -F '\t' -v host_timed=" $host_timed" '
	index(host_timed, " " $2 " ") { next }
	{
		r++; boot[r] = $1; cpu[r] = $3; n[r] = $4
		k = $1; sub(/.*\//, "", k); k = k " " $2	# governor, workload
		key[r] = k; count[k]++; row[k, count[k]] = $4
	}
	END {
		for (k in count)
			median[k] = row[k, int((count[k] + 1) / 2)]
		for (i = 1; i <= r; i++) {
			k = key[i]; w = k; sub(/^[^ ]* /, "", w)
			if (n[i] < 100 || n[i] < median[k] / 2)
				printf "run: warning: %s: workload %s on cpu%s: only %d periods" \
					" (the median of its runs: %d)\n", boot[i], w, cpu[i], n[i],
					median[k]
		}
	}' | sort
rm -f "${csvs[@]}"
echo "report: $dir/report.txt, $dir/summary.md, $dir/plots/ (out/latest)"
echo "report page: $dir/report.html"
