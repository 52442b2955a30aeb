#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: time the builds, boot the bench image once (bench/guest.sh
# makes every in-guest measurement in that boot), time the off-line report
# on synthetic record files, then print one table and write
# out/<UTC time>/bench.json (bench/summarize.py), out/latest pointing at it.
#
# Every guest figure is a ratio or a rate from that one boot: another QEMU
# may share the host's two cores, so absolute numbers of different runs do
# not compare.  Then bench/repro.sh: the same reduced suite twice per clock
# mode, and how far the two runs' reports differ; and bench/exitcost.sh: the
# seed method's table with the idle states' exit cost on and off.  Builds: the cached
# kernel build is timed; a cold one (about 9 minutes) is not repeated, its
# figure is the one kernel/build.sh noted in the cache when it built the
# tree in use.
#
# The guest runs in the fixed clock unless CLOCK says otherwise (as
# vm/run.sh); the table states the mode the guest saw.
#
# Knobs (environment): BENCH_ROUNDS (12), BENCH_PHASE_S (2),
# BENCH_LEVEL_S (3), BENCH_RINGBUFS ("default shared 4096 65536 1048576":
# per-CPU ring buffers of the loader's default size, one shared buffer of
# that size, per-CPU buffers of BYTES), BENCH_LEVELS (the sweep's load
# levels, bench/guest.sh run_level), BENCH_TOP_LEVEL (auto: the level of the
# highest rate in the sweep) and BENCH_TOP_S
# (15): the default loader under that level that long, BENCH_REPORT_RECORDS ("1000000
# 10000000 100000000", bench/replay.sh), the observer effect's
# BENCH_OBSERVER_ROUNDS (4; 0 skips it), BENCH_OBSERVER_S (2: seconds per
# workload, as make run's SECONDS_PER_WORKLOAD), BENCH_OBSERVER_GOVERNORS
# ("menu teo"), BENCH_OBSERVER_MODES ("tp sel full lean share": each beside
# detached, bench/observer.sh) and BENCH_OBSERVER_WORKLOADS (the default
# suite and cyclictest), and bench/repro.sh's BENCH_REPRO_*
# (BENCH_REPRO_CLOCKS="" skips those boots) and bench/exitcost.sh's
# BENCH_EXITCOST_* (BENCH_EXITCOST_WORKLOADS="" skips those).
# BENCH_PROBE_SETS ("tp sel lean"): the probe sets of the overhead rounds
# and the BPF run time, each beside probes off.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
rounds=${BENCH_ROUNDS:-12}
phase_s=${BENCH_PHASE_S:-2}
level_s=${BENCH_LEVEL_S:-3}
ringbufs=${BENCH_RINGBUFS:-"default shared 4096 65536 1048576"}
levels=${BENCH_LEVELS:-"p1000 p200 p50 pp pp+p50 pp+pp"}
top_level=${BENCH_TOP_LEVEL:-auto}
top_s=${BENCH_TOP_S:-15}
report_records=${BENCH_REPORT_RECORDS:-"1000000 10000000 100000000"}
probe_sets=${BENCH_PROBE_SETS:-"tp sel lean"}
obs_rounds=${BENCH_OBSERVER_ROUNDS:-4}
obs_s=${BENCH_OBSERVER_S:-2}
obs_governors=${BENCH_OBSERVER_GOVERNORS:-"menu teo"}
obs_modes=${BENCH_OBSERVER_MODES:-"tp sel full lean share"}
obs_workloads=${BENCH_OBSERVER_WORKLOADS:-"$(sh "$top/vm/guest/suite.sh" --names "$top/workloads/suite.txt" default) cyclictest"}
# The guest's share of the wall time, with room for a slow host: the
# observer effect's blocks (a loader's start and each workload, a second
# between two) 4 times over.
guest_timeout_s=$((1200 + 4 * obs_rounds * $(wc -w <<<"$obs_governors") * \
	($(wc -w <<<"$obs_modes") + 1) * ((obs_s + 1) * ($(wc -w <<<"$obs_workloads") + 7) + 10)))

die() {
	echo "bench: error: $1" >&2
	exit "${2:-1}"
}

for f in idlescope genrec bench-initramfs.cpio.gz linux/arch/x86/boot/bzImage; do
	[ -e "$build/$f" ] || die "$build/$f missing (make bench builds it)"
done
for n in "$rounds" "$phase_s" "$level_s" "$top_s" "$obs_s"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] ||
		die "BENCH_ROUNDS, BENCH_PHASE_S, BENCH_LEVEL_S, BENCH_TOP_S and BENCH_OBSERVER_S want positive integers, not '$n'" 2
done
for s in $probe_sets; do
	[[ $s =~ ^(tp|sel|lean)$ ]] || die "BENCH_PROBE_SETS takes tp, sel and lean, not '$s'" 2
done
[ -n "${probe_sets// /}" ] || die "BENCH_PROBE_SETS wants at least one probe set" 2
[[ $obs_rounds =~ ^[0-9]+$ ]] || die "BENCH_OBSERVER_ROUNDS wants a count, not '$obs_rounds'" 2
for m in $obs_modes; do
	[[ $m =~ ^(tp|sel|full|lean|share)$ ]] ||
		die "BENCH_OBSERVER_MODES takes tp, sel, full, lean and share, not '$m'" 2
done
sh "$top/vm/guest/suite.sh" --check "$top/workloads/suite.txt" "$obs_governors" "$obs_governors" \
	"$obs_workloads" || exit 2
for c in $ringbufs; do
	[[ $c =~ ^(default|shared|[1-9][0-9]*)$ ]] ||
		die "BENCH_RINGBUFS takes default, shared and byte counts, not '$c'" 2
done
for l in $levels ${top_level#auto}; do
	[[ $l =~ ^(pp|p[1-9][0-9]*)(\+(pp|p[1-9][0-9]*))*$ ]] ||
		die "BENCH_LEVELS and BENCH_TOP_LEVEL take levels like pp, p200, pp+p50, not '$l'" 2
done
command -v python3 >/dev/null || die "python3 missing (make deps)" 127

cd "$top" || exit 1
mkdir -p out || die "cannot create out/"
# Always a directory of its own: out/latest may be a `make run` directory.
run_dir=out/$(date -u +%Y%m%dT%H%M%SZ)
while [ -e "$run_dir" ]; do
	sleep 1
	run_dir=out/$(date -u +%Y%m%dT%H%M%SZ)
done
host=$run_dir/host.txt
scratch=$build/bench-scratch
rm -rf "$scratch"
mkdir -p "$scratch" "$run_dir/guest" || die "cannot create $run_dir"
trap 'rm -rf "$scratch"' EXIT

# What `time` prints: wall, user and system seconds, as raw-line keys.
TIMEFORMAT='seconds=%3R user_s=%3U sys_s=%3S'

# timed LOG COMMAND...: run COMMAND, its output into LOG; sets timing to
# what `time` printed and returns COMMAND's status.
timed() {
	local log=$1 rc
	shift
	{ time "$@" >"$log" 2>&1; } 2>"$scratch/time"
	rc=$?
	timing=$(cat "$scratch/time")
	return $rc
}

echo "bench: builds"
timed "$scratch/kernel.log" kernel/build.sh || { cat "$scratch/kernel.log"; die "kernel/build.sh failed"; }
grep -q '^\[kernel\] cache hit' "$scratch/kernel.log" ||
	die "kernel/build.sh missed its cache after make kernel: $(head -n 1 "$scratch/kernel.log")"
echo "build what=kernel_cached $timing" >>"$host"

cache_dir=$(dirname "$(readlink -f "$build/linux")")
# A tree built before kernel/build.sh noted build-seconds still has the
# times of its files: patches applied, then the last line of the build log.
if [ -r "$cache_dir/build-seconds" ]; then
	echo "build what=kernel_cold seconds=$(cat "$cache_dir/build-seconds") : noted by kernel/build.sh" >>"$host"
elif [ -e "$cache_dir/patched" ] && [ -e "$cache_dir/build.log" ]; then
	echo "build what=kernel_cold seconds=$(( $(stat -c %Y "$cache_dir/build.log") - $(stat -c %Y "$cache_dir/patched") )) : config + build, cache file times patched..build.log" >>"$host"
else
	echo "build what=kernel_cold : not measured" >>"$host"
fi

# Everything the initramfs needs from a clean build directory, against the
# same kernel tree: BPF object, skeleton, loader, workloads, module, cpio.
ln -s "$(readlink -f "$build/linux")" "$scratch/linux"
timed "$scratch/make.log" make -s --no-print-directory BUILD="$scratch" "$scratch/initramfs.cpio.gz" ||
	{ cat "$scratch/make.log"; die "clean initramfs build failed"; }
echo "build what=initramfs_clean $timing" >>"$host"
find "$scratch" -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} +

# The boots' progress (scripts/progress.py) on the terminal, or a line per
# event in a log, whatever each step does with its own output.
exec 3>&1
watch_boots() {
	"$top/scripts/progress.py" --title bench --to 3 -- "$@"
}

echo "bench: booting the bench image (log: $run_dir/guest/console.log)"
# iowait reads a disk of its own, as in make run (scripts/boot-job.sh).
truncate -s 64M "$scratch/disk.img" || die "cannot create $scratch/disk.img"
{ time IDLESCOPE_BOOT_NAME=bench watch_boots vm/run.sh -i "$build/bench-initramfs.cpio.gz" \
	-s "$run_dir/guest" -t "$guest_timeout_s" \
	-q -drive -q "file=$scratch/disk.img,if=virtio,format=raw,cache=none" -- \
	sh /usr/share/idlescope/bench.sh "$rounds" "$phase_s" "$level_s" "\"$ringbufs\"" \
	"\"$levels\"" "$top_level" "$top_s" "$obs_rounds" "$obs_s" "\"$obs_governors\"" \
	"\"$obs_modes\"" "\"$obs_workloads\"" "\"$probe_sets\"" 2>&1 |
	grep --line-buffered -a -e '^bench: ' -e '^vm: '; } 2>"$scratch/time"
rc=${PIPESTATUS[0]}
timing=$(cat "$scratch/time")
[ "$rc" = 0 ] || die "the guest bench failed with status $rc (log: $run_dir/guest/console.log)" "$rc"
echo "boot $timing" >>"$host"

echo "bench: off-line reports on the host (bench/replay.sh)"
# shellcheck disable=SC2086 # a list of record counts
BENCH_REPLAY_DIR=$scratch/replay bench/replay.sh -H "$run_dir/guest/template.rec" -o "$host" \
	$report_records || die "the off-line replay bench failed"

python3 bench/summarize.py "$run_dir/guest/raw.txt" "$host" "$run_dir/bench.json" ||
	die "summarizing failed"

watch_boots bench/repro.sh "$run_dir/repro" || die "the reproducibility runs failed"
watch_boots bench/exitcost.sh "$run_dir/exitcost" || die "the exit-cost runs failed"
watch_boots bench/exitshape.sh "$run_dir/exitshape" || die "the exit-shape runs failed"
ln -sfn "$(basename "$run_dir")" out/latest
echo "bench: $run_dir/bench.json (out/latest)"
