#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end of `make run KERNELS="K1 K2 ..."`, on the host: each kernel's
# boots are in RUN_DIR/<kernel>/ with their own report (scripts/run-summary.sh);
# here every other kernel is set beside the first, menu beside menu and teo
# beside teo, every headline number of every workload with its interval on
# each kernel and the difference (idlescope compare --across kernel, which
# lists a governor or model one kernel lacks instead of failing), into
# RUN_DIR/kernels-K1-vs-Kn.txt and .json, and the text on stdout.
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
shift
for k in "$@"; do
	out=$dir/kernels-$first-vs-$k
	if ! "$loader" compare --across kernel --allow-missing "$dir/$first" "$dir/$k" \
		>"$out.txt" 2>"$out.err" ||
	   ! "$loader" compare --across kernel --allow-missing -j "$dir/$first" "$dir/$k" \
		>"$out.json" 2>>"$out.err"; then
		echo "run: error: kernel $first beside $k: $(head -n 1 "$out.err")" >&2
		rc=1
		continue
	fi
	echo
	echo "== kernel $first (A) beside kernel $k (B) =="
	cat "$out.txt"
	echo "kernels: $out.txt, $out.json"
done
exit $rc
