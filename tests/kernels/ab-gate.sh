#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The A/B gate end to end, in the guest (issue 37): `make ab` on
# menu2010rpd against menu2010mf2, its copy with one constant changed
# (kernel/patches/6.1/0005: the performance multiplier's floor 2, not 1),
# then the same command on other seeds, and `idlescope compare` of
# menu2010rpd's runs in the two against each other.
#
# What the change does is known before the boots: the copy predicts as the
# original (its within 2x cannot move), and only periods predicted just
# above a state's target residency choose a shallower state.  Replayed as
# a model on default runs, that costs poisson about 3.5 points of ideal
# hit and bimodal about 2.3, every other workload at most 0.3
# (docs/ab.md, "End to end").  So the verdict must flag poisson, may flag
# bimodal, and must flag nothing else; two runs of one governor must flag
# nothing.  The seed bases are fixed (AB_GATE_SEED, AB_GATE_SEED2), so a
# verdict can be booted again; each "nothing else" is a test at the gate's
# family-wise 5%, by design the rate at which it fails on a governor pair
# that differs in nothing.
#
# Not part of `make test`: two A/B runs of 10 boots (docs/ab.md has their
# wall time); `make test-kernels` or `tests/run.sh` on this file.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
seed1=${AB_GATE_SEED:-370000}
seed2=${AB_GATE_SEED2:-380000}
out=$top/build/test/ab-gate
plan 6

rm -rf "$out" && mkdir -p "$out" || exit 1
acts_on="bimodal poisson"

# ab DIR SEED: one make ab of the pair, its wall time on stdout.
ab() {
	local start
	start=$(date +%s)
	make -C "$top" --no-print-directory ab A=menu2010rpd B=menu2010mf2 SEED="$2" \
		AB_DIR="$1" >"$1.log" 2>&1
	echo "ab-gate: make ab SEED=$2: status $?, $(($(date +%s) - start)) s" >&2
}

# flagged JSON: the flagged rows, "workload metric view" a line.
flagged() {
	python3 - "$1" <<'EOF'
import json, sys
for d in json.load(open(sys.argv[1]))['differences']:
    if d['flagged']:
        print(d['workload'], d['metric'], d['view'])
EOF
}

ab "$out/one" "$seed1"
ab "$out/two" "$seed2"
check "ab gate: both A/B runs end with a verdict of 10 pairs by boot" \
	python3 -c '
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    assert d["design"] == "paired by boot" and d["pairs"] == 10, (f, d["design"], d["pairs"])
' "$out/one/verdict.json" "$out/two/verdict.json"
flagged "$out/one/verdict.json" >"$out/one.flagged"
flagged "$out/two/verdict.json" >"$out/two.flagged"
cat "$out/one.flagged" "$out/two.flagged" >"$out/both.flagged"
check "ab gate: menu2010mf2 is flagged on poisson's ideal hit, in both runs" \
	test "$(grep -c '^poisson ideal_hit logical$' "$out/both.flagged")" = 2
check "ab gate: no workload the constant does not act on is flagged" \
	test -z "$(awk -v ok=" $acts_on " 'index(ok, " " $1 " ") == 0' "$out/both.flagged")"
check "ab gate: no within 2x is flagged: the copy predicts as the original" \
	test -z "$(grep -v ' ideal_hit ' "$out/both.flagged")"
"$top/build/idlescope" compare --pair menu2010rpd:menu2010rpd --allow-missing -j \
	-w "$out/one/workloads.txt" "$out/one" "$out/two" >"$out/same.json" 2>"$out/same.err"
check "ab gate: menu2010rpd in two runs of other seeds: compared independently" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["design"].startswith("independent"), d["design"]
' "$out/same.json"
check "ab gate: menu2010rpd in two runs of other seeds: nothing flagged" \
	test -z "$(flagged "$out/same.json")"
