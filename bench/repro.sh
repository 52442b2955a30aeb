#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reproducibility, as `make bench` measures it: per clock mode, the same
# reduced suite (vm/guest/suite.sh, same seeds) run twice, A and B, like
# two `make run`s, each BENCH_REPRO_REPEATS seeds x the governors, one boot
# per job, BENCH_REPRO_JOBS at a time (scripts/run-boots.sh); then
# bench/repro.py prints max and median |A - B| over the within-F cells of
# the reports, the worst cells, periodic1ms's wake-up lateness, and how
# many cells' A - B lie within their combined intervals: the within-boot
# ones of the within-F cells, the headline's over boots.  Boots rather
# than passes in one boot, so what differs between two runs a user makes
# (boot, QEMU's adaptive icount shift) is in the figure.
#
# usage: bench/repro.sh OUT_DIR   (the caller holds the QEMU lock)
# Knobs (environment): BENCH_REPRO_CLOCKS ("virtual host"; fixed too),
# BENCH_REPRO_GOVERNORS ("menu menu2010rpd"), BENCH_REPRO_WORKLOADS
# ("periodic1ms pingpong bimodal poisson"), BENCH_REPRO_S (5),
# BENCH_REPRO_REPEATS (4, make run's REPEATS), BENCH_REPRO_JOBS (the
# cores), BENCH_REPRO_RECORDS (memory; share: the records go to the 9p
# share during the workloads); BENCH_REPRO_CLOCKS="" skips them.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/repro.sh OUT_DIR}
# Set but empty: no reproducibility boots.
clocks=${BENCH_REPRO_CLOCKS-"virtual host"}
governors=${BENCH_REPRO_GOVERNORS:-"menu menu2010rpd"}
workloads=${BENCH_REPRO_WORKLOADS:-"periodic1ms pingpong bimodal poisson"}
seconds=${BENCH_REPRO_S:-5}
repeats=${BENCH_REPRO_REPEATS:-4}
jobs=${BENCH_REPRO_JOBS:-$(nproc)}

die() {
	echo "repro: error: $1" >&2
	exit "${2:-1}"
}

if [ -z "$clocks" ]; then
	echo "bench: reproducibility skipped (BENCH_REPRO_CLOCKS is empty)"
	exit 0
fi
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "BENCH_REPRO_S wants a positive integer, not '$seconds'" 2
for c in $clocks; do
	case $c in
	virtual | fixed | host) ;;
	*) die "BENCH_REPRO_CLOCKS takes virtual, fixed and host, not '$c'" 2 ;;
	esac
done
[ -r "$top/build/initramfs.cpio.gz" ] || die "build/initramfs.cpio.gz missing (make bench builds it)"
# Checked here, as `make run` checks its names, before any boot.
sh "$top/vm/guest/suite.sh" --check "$top/workloads/suite.txt" "$governors" "$governors" \
	"$workloads" || exit 2

export IDLESCOPE_RECORDS=${BENCH_REPRO_RECORDS:-memory}
for c in $clocks; do
	for run in a b; do
		dir=$out/$c/$run
		mkdir -p "$dir" || die "cannot create $dir"
		echo "bench: reproducibility, clock $c, run $run"
		start_s=$(date +%s.%N)
		CLOCK=$c "$top/scripts/run-boots.sh" "$dir" "$repeats" "$jobs" "$seconds" \
			"$governors" "$workloads" >"$dir/run.log" 2>&1
		rc=$?
		[ $rc = 0 ] || die "clock $c run $run failed with status $rc (log: $dir/run.log)" $rc
		echo "$(date +%s.%N) - $start_s" | bc >"$dir/wall-s"
		# In C order, the order repro.py numbers the boots in.
		(LC_ALL=C; "$top/build/idlescope" report "$dir"/seed-*/*/*/run.rec -o "$dir") \
			>/dev/null ||
			die "clock $c run $run: no report"
	done
done
python3 "$top/bench/repro.py" "$out" "$out/repro.json" || die "comparing the runs failed"
