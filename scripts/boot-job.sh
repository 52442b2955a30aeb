#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One boot job of `make run`: boot the guest once, with one workload seed,
# and run the suite (vm/guest/suite.sh) under the given governors, one
# after the other; the guest's share, and so its record files, is
# OUT_DIR/seed-SEED/G1+G2+... (<governor>/run.rec inside, as the suite
# writes them).  Jobs are
# independent of each other: scripts/run-boots.sh hands a list of them to
# GNU parallel, on this machine or, over ssh, on others.
#
# usage: scripts/boot-job.sh OUT_DIR SEED SECONDS_PER_WORKLOAD 'GOVERNORS' 'WORKLOADS' \
#            [VM_ARG...]
# GOVERNORS: separated by spaces or '+' (scripts/run-boots.sh's job lines).
# VM_ARGs go to vm/run.sh before its own (KERNEL=debian's kernel and
# initramfs).  Prints one line; exits with vm/run.sh's status.
# Environment (make run exports them): IRQTRAIN_PERIOD_US; BGTIMERS and
# EXIT_COST, on or off (default on), vm/guest/suite.sh's.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$1 seed=$2 seconds=$3 governors=${4//+/ } workloads=$5
shift 5
dir=$out/seed-$seed/${governors// /+}
irqfeed=$top/build/irqfeed
period_us=${IRQTRAIN_PERIOD_US:-1000}

mkdir -p "$dir" || exit 1
# irqtrain's interrupts and iowait's disk, one of each per job so that
# jobs side by side share nothing: the socket's path must stay short.
scratch=$(mktemp -d /tmp/idlescope-job.XXXXXX) || exit 1
trap 'kill $feeder 2>/dev/null; rm -rf "$scratch"' EXIT
truncate -s 64M "$scratch/disk.img"
"$irqfeed" -u "$scratch/irq.sock" -p "$period_us" -d 86400 -w "$dir/irqfeed.on" \
	>"$dir/irqfeed.txt" 2>&1 &
feeder=$!

# The suite's guest seconds (vm/guest/suite.sh: idle runs 8 x SECONDS, the
# others SECONDS, a second between two), 8 times over, a minute more per
# workload for a program's start and end (the real suite), and the boot.
nr_workloads=$(wc -w <<<"$workloads")
timeout_s=$((120 + $(wc -w <<<"$governors") * \
	(8 * (seconds * (nr_workloads + 7) + nr_workloads) + 60 * nr_workloads)))
start_s=$(date +%s)
# IDLESCOPE_SEED: every workload of this boot draws from seed + SEED << 32.
# IDLESCOPE_RECORDS (vm/guest/suite.sh): where the records go meanwhile.
cmd="IDLESCOPE_SEED=$seed IDLESCOPE_RECORDS=${IDLESCOPE_RECORDS:-memory}"
cmd+=" IDLESCOPE_SETTLE_S=${IDLESCOPE_SETTLE_S:-5}"
cmd+=" sh /usr/share/idlescope/suite.sh /usr/share/idlescope/suite.txt"
# The governors are their own list of known names: make run checked them.
cmd+=" '$governors' $seconds '$governors' '$workloads' ${BGTIMERS:-on} ${EXIT_COST:-on}"
IDLESCOPE_BOOT_NAME="seed $seed ${governors// /+}" \
	"$top/vm/run.sh" "$@" -s "$dir" -t $timeout_s \
	-q -drive -q "file=$scratch/disk.img,if=virtio,format=raw,cache=none" \
	-q -serial -q mon:stdio -q -serial -q chardev:irq \
	-q -chardev -q "socket,id=irq,path=$scratch/irq.sock,server=on,wait=off" \
	-- "$cmd" >/dev/null 2>"$dir/run.log"
rc=$?
echo "boot seed $seed, governors $governors: status $rc, $(($(date +%s) - start_s)) s" \
	"($dir)"
exit $rc
