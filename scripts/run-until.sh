#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run PRECISION=PP`: boot until the answer is known.  Rounds of
# REPEATS more seeds (scripts/run-boots.sh), each round only for the
# workloads whose headline intervals are still wider than PRECISION
# percentage points (half-width, any governor or share), until none is or
# their cells have MAX_BOOTS boots; then one line per workload that hit
# that cap, with the half-width it reached.
#
# usage: scripts/run-until.sh OUT_DIR REPEATS JOBS SECONDS 'GOVERNORS' 'WORKLOADS' \
#            PRECISION MAX_BOOTS [VM_ARG...]

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

# still_wide: the workloads of $todo whose widest headline half-width is
# above PRECISION and whose cells have fewer than MAX_BOOTS boots; a
# "run: cap" line on stderr for those that reached the cap first.
still_wide() {
	"$top/build/idlescope" report "$out"/seed-*/*/*/run.rec -j >"$out/until.json" ||
		die "the report of $out failed"
	python3 - "$out/until.json" "$precision" "$max_boots" $todo <<'PY'
import json, math, sys
report, precision, cap = json.load(open(sys.argv[1])), float(sys.argv[2]), int(sys.argv[3])
for w in sys.argv[4:]:
    cells = [c for c in report["headline_logical"] if c["workload"] == w]
    if not cells:
        print(f"run: cap: workload {w}: no periods", file=sys.stderr)
        continue
    halves = [(s["hi"] - s["lo"]) / 2 if s["lo"] is not None else math.inf
              for c in cells for s in (c["within_2x"], c["ideal_hit"], c["too_deep"],
                                       c["too_shallow"]) if s["pct"] is not None]
    widest, boots = max(halves, default=math.inf), min(c["boots"] for c in cells)
    if widest <= precision:
        continue
    if boots >= cap:
        print(f"run: cap: workload {w}: {boots} boots, widest interval ±{widest:.2f} pp "
              f"> {precision:g} pp", file=sys.stderr)
        continue
    print(w)
PY
}

seed=0
todo=$workloads
status=0
while [ -n "$todo" ]; do
	echo "run: boots $seed..$((seed + repeats - 1)) for: $todo"
	FIRST_SEED=$seed "$top/scripts/run-boots.sh" "$out" "$repeats" "$jobs" "$seconds" \
		"$governors" "$todo" "$@" || status=1
	seed=$((seed + repeats))
	todo=$(still_wide | tr '\n' ' ')
	todo=${todo% }
done
exit $status
