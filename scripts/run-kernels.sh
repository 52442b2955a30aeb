#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end of `make run KERNELS="K1 K2 ..."`, on the host: each kernel's
# boots are in RUN_DIR/<kernel>/ with their own report (scripts/run-summary.sh);
# here every other kernel is set beside the first, menu beside menu and teo
# beside teo (idlescope compare --across kernel, which lists a governor or
# model one kernel lacks instead of failing): on stdout, the headline's
# shares of both kernels side by side with their intervals (--format
# headline), then how well each kernel's models reproduced its own
# governors; in RUN_DIR/kernels-K1-vs-Kn.txt and .json, every number of
# every workload on each kernel and the difference.
#
# usage: scripts/run-kernels.sh LOADER RUN_DIR K1 K2 ...
# Exits 1 when a kernel has no record files or a comparison fails.

set -uo pipefail

loader=$1
dir=$2
shift 2
first=$1
rc=0

for k in "$@"; do
	if ! compgen -G "$dir/$k/seed-*/*/*/run.rec" >/dev/null; then
		echo "run: error: kernel $k: no record file under $dir/$k/seed-*/" >&2
		rc=1
	fi
done
[ $rc = 0 ] || exit 1

# models KERNEL: each model's agreement with the kernel's own governor,
# summed over the workloads of the kernel's report (the lines "model M
# reproduces the kernel's prediction|chosen state on P% (A of C) of ..."
# under each workload's shadow table; the seed method repeats some).
models() {
	[ -r "$dir/$1/report.txt" ] || { echo "  (no report.txt)"; return; }
	awk '/^ +model [^ ]+ reproduces the kernel.s (prediction|chosen state) / {
			m = $2; what = $6 == "prediction" ? "prediction" : "chosen state"
			line = $0; sub(/.*\(/, "", line); split(line, n, " ")
			if (!(m in seen)) { seen[m] = 1; order[++nr] = m }
			agreed[m, what] += n[1]; checked[m, what] += n[3] }
		END { for (i = 1; i <= nr; i++) {
			m = order[i]; out = ""
			if (checked[m, "prediction"])
				out = sprintf("prediction %d of %d", agreed[m, "prediction"], checked[m, "prediction"])
			if (checked[m, "chosen state"])
				out = out (out == "" ? "" : ", ") sprintf("chosen state %d of %d",
					agreed[m, "chosen state"], checked[m, "chosen state"])
			printf "  %-12s %s\n", m, out } }' "$dir/$1/report.txt"
}

first_dir=$dir/$first
shift
for k in "$@"; do
	out=$dir/kernels-$first-vs-$k
	if ! "$loader" compare --across kernel --allow-missing "$first_dir" "$dir/$k" \
		>"$out.txt" 2>"$out.err" ||
	   ! "$loader" compare --across kernel --allow-missing -j "$first_dir" "$dir/$k" \
		>"$out.json" 2>>"$out.err" ||
	   ! "$loader" compare --across kernel --allow-missing --format headline \
		"$first_dir" "$dir/$k" >"$out.headline.txt" 2>>"$out.err"; then
		echo "run: error: kernel $first beside $k: $(head -n 1 "$out.err")" >&2
		rc=1
		continue
	fi
	echo
	echo "== kernel $first (A) beside kernel $k (B) =="
	cat "$out.headline.txt"
	for kk in "$first" "$k"; do
		echo
		echo "models on kernel $kk, agreement with its own governors (periods, selects):"
		models "$kk"
	done
	echo "kernels: $out.headline.txt; every number: $out.txt, $out.json"
done
exit $rc
