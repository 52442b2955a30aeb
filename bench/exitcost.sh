#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How much the seed's experiment depends on the exit cost, as `make bench`
# measures it: the reduced suite under menu2010 in two boots, the idle
# states spending their declared exit latency on exit (EXIT_COST on, the
# default) and leaving it free (off); bench/exitcost.py prints the seed
# method's table (within F: live menu2010, replayed menu2010fix and
# menu2010rpd) of both side by side, per workload and over them all.
# The 2010 correction factor learns the measured residency minus the
# entered state's exit latency, so the fix/rpd columns are where it shows.
#
# usage: bench/exitcost.sh OUT_DIR   (the caller holds the QEMU lock)
# Knobs (environment): BENCH_EXITCOST_WORKLOADS ("periodic1ms bimodal
# poisson pingpong irqtrain"), BENCH_EXITCOST_S (5);
# BENCH_EXITCOST_WORKLOADS="" skips the boots.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/exitcost.sh OUT_DIR}
workloads=${BENCH_EXITCOST_WORKLOADS-"periodic1ms bimodal poisson pingpong irqtrain"}
seconds=${BENCH_EXITCOST_S:-5}
timeout_s=900

die() {
	echo "exitcost: error: $1" >&2
	exit "${2:-1}"
}

if [ -z "$workloads" ]; then
	echo "bench: exit-cost sensitivity skipped (BENCH_EXITCOST_WORKLOADS is empty)"
	exit 0
fi
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "BENCH_EXITCOST_S wants a positive integer, not '$seconds'" 2
[ -r "$top/build/initramfs.cpio.gz" ] || die "build/initramfs.cpio.gz missing (make bench builds it)"
sh "$top/vm/guest/suite.sh" --check "$top/workloads/suite.txt" menu2010 menu2010 "$workloads" ||
	exit 2

for cost in on off; do
	dir=$out/$cost
	mkdir -p "$dir" || die "cannot create $dir"
	echo "bench: exit cost $cost"
	IDLESCOPE_BOOT_NAME="exit cost $cost" "$top/vm/run.sh" -s "$dir" -t $timeout_s -- \
		"sh /usr/share/idlescope/suite.sh /usr/share/idlescope/suite.txt menu2010 $seconds menu2010 '$workloads' on $cost" \
		>"$dir/run.log" 2>&1 || die "exit cost $cost: the boot failed (log: $dir/console.log)"
	mkdir -p "$dir/report" || die "cannot create $dir/report"
	"$top/build/idlescope" report "$dir/menu2010/run.rec" -o "$dir/report" >/dev/null ||
		die "exit cost $cost: idlescope report failed"
done
python3 "$top/bench/exitcost.py" "$out/on/report/report.json" "$out/off/report/report.json" \
	"$out/exitcost.json" || die "comparing the runs failed"
