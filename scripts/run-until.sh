#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run PRECISION=PP`: boot until the answer is known, by Stein's
# two-stage rule, so that stopping does not depend on what was seen after
# the first look (optional stopping: boots that all happened to land in
# one regime would stop a round-by-round rule early, with an interval too
# narrow).  Stage one: REPEATS seeds (scripts/run-boots.sh).  From them,
# per workload, the widest headline half-width h over its cells (the
# report's own: a t interval over the n0 = REPEATS boots) sets how many
# boots it needs, N = ceil(n0 (h / PRECISION)^2), capped at MAX_BOOTS.
# Stage two boots the seeds up to each workload's N, once; there is no
# third look.  Stein (1945): with N so chosen from stage one's spread, the
# interval of half-width PRECISION around the mean of the N boots covers
# with at least 95%; the report prints its own interval over the N boots
# as always.  A workload that reached the cap is one "run: cap" line with
# the half-width stage one saw (regimes show here: their spread is wide).
#
# usage: scripts/run-until.sh OUT_DIR REPEATS JOBS SECONDS 'GOVERNORS' 'WORKLOADS' \
#            PRECISION MAX_BOOTS [VM_ARG...]
# Environment: FIRST_SEED (0), the first seed; the rest follow it.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$1 repeats=$2 jobs=$3 seconds=$4 governors=$5 workloads=$6 precision=$7 max_boots=$8
shift 8

die() {
	echo "run: error: $1" >&2
	exit "${2:-1}"
}

[[ $precision =~ ^[0-9]*\.?[0-9]+$ ]] && [ "$(echo "$precision > 0" | bc)" = 1 ] ||
	die "PRECISION wants a half-width in percentage points above 0, not '$precision'" 2
[[ $max_boots =~ ^[1-9][0-9]*$ ]] || die "MAX_BOOTS wants a positive number, not '$max_boots'" 2
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "REPEATS wants a positive number of boots, not '$repeats'" 2

[ "$repeats" -ge 2 ] || die "PRECISION needs REPEATS of at least 2 for its first stage" 2

# boots_needed: "WORKLOAD N" per workload of $workloads, N the boots Stein's
# rule asks of it from the first stage's report; a "run: cap" line on
# stderr for each that MAX_BOOTS cuts short.
boots_needed() {
	"$top/build/idlescope" report "$out"/seed-*/*/*/run.rec -j >"$out/stage1.json" ||
		die "the report of $out failed"
	python3 - "$out/stage1.json" "$precision" "$max_boots" "$repeats" $workloads <<'PY'
import json, math, sys
report, precision, cap, n0 = (json.load(open(sys.argv[1])), float(sys.argv[2]),
                              int(sys.argv[3]), int(sys.argv[4]))
for w in sys.argv[5:]:
    cells = [c for c in report["headline_logical"] if c["workload"] == w]
    halves = [(s["hi"] - s["lo"]) / 2 if s["lo"] is not None else math.inf
              for c in cells for s in (c["within_2x"], c["ideal_hit"], c["too_deep"],
                                       c["too_shallow"]) if s["pct"] is not None]
    widest = max(halves, default=math.inf)
    need = n0 if widest <= precision else (
        cap + 1 if math.isinf(widest) else math.ceil(n0 * (widest / precision) ** 2))
    if math.isinf(widest):
        print(f"run: cap: workload {w}: no interval over the first stage's {n0} boots, "
              f"{cap} booted", file=sys.stderr)
        need = cap
    elif need > cap:
        print(f"run: cap: workload {w}: needs {need} boots (first stage: ±{widest:.2f} pp "
              f"over {n0}), {cap} booted", file=sys.stderr)
        need = cap
    print(w, need)
PY
}

seed=${FIRST_SEED:-0}
status=0
echo "run: first stage, boots $seed..$((seed + repeats - 1)) for: $workloads"
FIRST_SEED=$seed "$top/scripts/run-boots.sh" "$out" "$repeats" "$jobs" "$seconds" \
	"$governors" "$workloads" "$@" || status=1
needed=$(boots_needed) || exit 1
echo "$needed" | sed 's/^/run: boots needed: /'
# Stage two, in groups: the seeds up to the next workload's N, for every
# workload that needs at least that many.
done_boots=$repeats
for n in $(echo "$needed" | awk '{ print $2 }' | sort -n -u); do
	[ "$n" -gt "$done_boots" ] || continue
	todo=$(echo "$needed" | awk -v n="$n" '$2 >= n { printf "%s ", $1 }')
	todo=${todo% }
	echo "run: second stage, boots $((seed + done_boots))..$((seed + n - 1)) for: $todo"
	FIRST_SEED=$((seed + done_boots)) "$top/scripts/run-boots.sh" "$out" $((n - done_boots)) \
		"$jobs" "$seconds" "$governors" "$todo" "$@" || status=1
	done_boots=$n
done
exit $status
