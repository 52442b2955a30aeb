#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How much the headline depends on the exit being exactly the declared
# latency, as `make bench` measures it: the same workloads under menu and
# teo in two boots of the same seed, the idle states spending their
# declared exit latency (EXIT_COST on, the default) and a share of it drawn
# from a spread shape, the declared latency its worst case (EXIT_COST
# spread: idlescope_states' exit_spread, median half the declared as
# wult's histograms of real C-states show).  bench/exitshape.py prints the
# primary shares of both (within 2x over raw periods, ideal hit over
# logical ones), their difference, and the exits each spent per state.  A
# sensitivity table, not a default.
#
# usage: bench/exitshape.sh OUT_DIR   (the caller holds the QEMU lock)
# Knobs (environment): BENCH_EXITSHAPE_WORKLOADS ("periodic1ms
# periodic100us jitter bimodal poisson pingpong"), BENCH_EXITSHAPE_S (4);
# BENCH_EXITSHAPE_WORKLOADS="" skips the boots.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/exitshape.sh OUT_DIR}
workloads=${BENCH_EXITSHAPE_WORKLOADS-"periodic1ms periodic100us jitter bimodal poisson pingpong"}
seconds=${BENCH_EXITSHAPE_S:-4}
governors="menu teo"
timeout_s=1800

die() {
	echo "exitshape: error: $1" >&2
	exit "${2:-1}"
}

if [ -z "$workloads" ]; then
	echo "bench: exit-shape sensitivity skipped (BENCH_EXITSHAPE_WORKLOADS is empty)"
	exit 0
fi
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "BENCH_EXITSHAPE_S wants a positive integer, not '$seconds'" 2
[ -r "$top/build/initramfs.cpio.gz" ] || die "build/initramfs.cpio.gz missing (make bench builds it)"
sh "$top/vm/guest/suite.sh" --check "$top/workloads/suite.txt" "$governors" "$governors" \
	"$workloads" || exit 2

for shape in on spread; do
	dir=$out/$shape
	mkdir -p "$dir" || die "cannot create $dir"
	echo "bench: exit cost $shape"
	IDLESCOPE_BOOT_NAME="exit cost $shape" "$top/vm/run.sh" -s "$dir" -t $timeout_s -- \
		"IDLESCOPE_SEED=1 sh /usr/share/idlescope/suite.sh /usr/share/idlescope/suite.txt" \
		"'$governors' $seconds '$governors' '$workloads' on $shape" \
		>"$dir/run.log" 2>&1 || die "exit cost $shape: the boot failed (log: $dir/console.log)"
	mkdir -p "$dir/report" || die "cannot create $dir/report"
	# shellcheck disable=SC2086 # the governors' record files
	"$top/build/idlescope" report $(printf "$dir/%s/run.rec " $governors) -o "$dir/report" \
		>/dev/null || die "exit cost $shape: idlescope report failed"
done
python3 "$top/bench/exitshape.py" "$out/on/report/report.json" \
	"$out/spread/report/report.json" "$out/exitshape.json" || die "comparing the runs failed"
