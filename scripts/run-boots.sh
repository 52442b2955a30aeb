#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The boots of `make run`: a list of independent boot jobs, one per seed x
# governor set (scripts/boot-job.sh: one boot, the governors of the set one
# after the other, each over the whole workload list), run by GNU parallel,
# JOBS at a time (one QEMU per core: in the virtual clock a guest's timing
# does not depend on host load).  GOVERNORS_PER_BOOT governors share a
# boot (default: all of them): a boot and its settling run cost about what
# a governor's pass over the suite does, so fewer, longer boots finish
# sooner, and the boot stays the unit of replication of every cell.
# With SSHLOGINFILE, parallel spreads the jobs over the machines it names
# (its --sshloginfile format); each must have this checkout, built, at the
# same path, and OUT_DIR must be the same shared directory on all.
#
# usage: scripts/run-boots.sh OUT_DIR REPEATS JOBS SECONDS 'GOVERNORS' 'WORKLOADS' \
#            [VM_ARG...]
# Environment: SSHLOGINFILE (empty: this machine only), FIRST_SEED (0),
# GOVERNORS_PER_BOOT (empty: all).
# The workload list goes to OUT_DIR/workloads.txt.
# The jobs are appended to OUT_DIR/jobs.txt, parallel's log of each (host,
# start, run time, status) to OUT_DIR/jobs.log, each boot's start and end
# to OUT_DIR/boots.log: a later call with other seeds (scripts/run-until.sh)
# adds to them.  PROGRESS_TITLE (run) starts each progress line.  Exits 1
# if a job failed.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$1 repeats=$2 jobs=$3 seconds=$4 governors=$5 workloads=$6
shift 6
first_seed=${FIRST_SEED:-0}

die() {
	echo "run: error: $1" >&2
	exit "${2:-1}"
}

[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "REPEATS wants a positive number of boots, not '$repeats'" 2
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "JOBS wants a positive number, not '$jobs'" 2
[[ $first_seed =~ ^[0-9]+$ ]] || die "FIRST_SEED wants a number, not '$first_seed'" 2
per_boot=${GOVERNORS_PER_BOOT:-$(wc -w <<<"$governors")}
[[ $per_boot =~ ^[1-9][0-9]*$ ]] ||
	die "GOVERNORS_PER_BOOT wants a positive number, not '$per_boot'" 2
command -v parallel >/dev/null || die "GNU parallel missing (make deps)"
if [ -n "${SSHLOGINFILE:-}" ] && [ ! -r "$SSHLOGINFILE" ]; then
	die "SSHLOGINFILE $SSHLOGINFILE: cannot read it" 2
fi

mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
# Where each workload's events come from, beside its records: `idlescope
# compare` leaves a host-timed workload's rows out of its test by it.
cp "$top/workloads/suite.txt" "$out/workloads.txt" || die "cannot write $out/workloads.txt"
# The governor sets, "+" between the governors of one (a job's list line
# is "SEED SET", split at the space by parallel).
groups=()
group=
n=0
for g in $governors; do
	group+=${group:++}$g
	n=$((n + 1))
	if [ $n = "$per_boot" ]; then
		groups+=("$group")
		group= n=0
	fi
done
[ -z "$group" ] || groups+=("$group")
list=
for ((seed = first_seed; seed < first_seed + repeats; seed++)); do
	for group in "${groups[@]}"; do
		list+="$seed $group"$'\n'
	done
done
printf '%s' "$list" >>"$out/jobs.txt"

where=(-j "$jobs")
[ -n "${SSHLOGINFILE:-}" ] && where=(--sshloginfile "$SSHLOGINFILE")
# The job's arguments are quoted for the shell that runs it (ssh's too).
vm_args=
[ $# = 0 ] || vm_args=$(printf ' %q' "$@")
# A boot that hangs (a guest stuck in early boot was seen once in 24 on a
# host loaded 10x over) times out (scripts/boot-job.sh) and is booted
# again, once.
# What the boots do as they run (scripts/progress.py): vm/run.sh's start
# and end lines in OUT_DIR/boots.log, each boot's console log for its
# steps; a line per event where stdout is no terminal.  The events file is
# named on the job's command line, so that boots on other machines (their
# OUT_DIR the same shared directory) report there too.
total=$((repeats * ${#groups[@]}))
events=$out/boots.log
slots=$jobs
[ -z "${SSHLOGINFILE:-}" ] || slots=0	# as many as progress.py sees at once
"$top/scripts/progress.py" --title "${PROGRESS_TITLE:-run}" --total $total \
	--jobs "$slots" --events "$events" -- \
	parallel --will-cite "${where[@]}" --colsep ' ' --joblog "+$out/jobs.log" --line-buffer \
	--retries 2 \
	"cd $(printf %q "$top") && IDLESCOPE_PROGRESS=$(printf %q "$events${IDLESCOPE_PROGRESS:+:$IDLESCOPE_PROGRESS}")" \
	"scripts/boot-job.sh $(printf %q "$out") {1} $seconds {2}" \
	"$(printf %q "$workloads")$vm_args" <<<"${list%$'\n'}"
rc=$?
[ $rc = 0 ] || echo "run: $rc of $total boot jobs failed" \
	"(see $out/jobs.log)" >&2
[ $rc = 0 ]
