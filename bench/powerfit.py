#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The power simulation's generator, fitted to real runs.

usage: powerfit.py REPORT_JSON... [--governors=G1,G2,...]

Exit status 2, with one line on stderr, on a usage error or a file that
is not a report.json with per-boot shares.

Reads the per-boot shares of each run's report.json (the headline's within
2x over raw periods and the logical headline's ideal hit: the gate's
primary family, stats/comparison.h) and, per primary row (workload x
metric), pools over every pair of the given governors of one boot
(default: the three menu2010 variants, the closest thing in a default run
to a governor against a patched copy of itself) and over the runs:

  diff_sd    the spread of a pair's B - A over the boots (root mean square
             of each pair's sample SD): what the paired test sees
  side_sd    the spread of one side's boots (likewise): what each side's
             interval over boots sees
  rho        1 - diff_sd^2 / (2 side_sd^2): the correlation of the two
             sides' boots that pairing by boot cancels (0 when negative)
  half       a boot's own 95% half-width (root mean square over the boots
             that have one): the within-boot floor of the paired variance
  regimes    pairs whose differences the regimes test (stats/regimes.h)
             splits, of all pairs

It prints one line per row; over the rows, the median diff_sd and the
kurtosis of the pooled standardised differences (heavy tails); then the
rows of tests/unit/stats/test_power.c's family[].
"""

import itertools
import json
import math
import statistics
import sys

PRIMARY = (("headline", "within_2x"), ("headline_logical", "ideal_hit"))
GAP_PP, GAP_RATIO, MIN_BOOTS = 5.0, 3.0, 3	# stats/regimes.h


def cells(path):
    """(workload, metric, governor) -> {boot: (pct, half or None)}."""
    report = json.load(open(path))
    out = {}
    for key, metric in PRIMARY:
        for cell in report[key]:
            boots = {}
            for b in cell.get("per_boot", []):
                share = b[metric]
                if share["pct"] is None:
                    continue
                half = None if share["hi"] is None else (share["hi"] - share["lo"]) / 2
                boots[b["boot"]] = (share["pct"], half)
            if len(boots) >= 2:
                out[(cell["workload"], metric, cell["governor"])] = boots
    return out


def regimes(values):
    """Whether stats/regimes.c splits these values (ranges only)."""
    v = sorted(values)
    if len(v) < MIN_BOOTS:
        return False
    gap, split = max((v[i] - v[i - 1], i) for i in range(1, len(v)))
    wider = max(v[split - 1] - v[0], v[-1] - v[split])
    return gap >= GAP_PP and gap >= GAP_RATIO * wider


def pairs_of(runs, governors):
    """(workload, metric) -> [(diffs, a values, b values, halves)]."""
    rows = {}
    for run in runs:
        c = cells(run)
        for ga, gb in itertools.combinations(governors, 2):
            for (w, m, g), va in c.items():
                if g != ga or (w, m, gb) not in c:
                    continue
                vb = c[(w, m, gb)]
                boots = sorted(set(va) & set(vb))
                if len(boots) < 3:
                    continue
                a = [va[k][0] for k in boots]
                b = [vb[k][0] for k in boots]
                halves = [x[k][1] for x in (va, vb) for k in boots if x[k][1] is not None]
                rows.setdefault((w, m), []).append(
                    ([y - x for x, y in zip(a, b)], a, b, halves))
    return rows


def rms(values):
    return math.sqrt(statistics.mean(values)) if values else float("nan")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--governors")]
    governors = ["menu2010", "menu2010fix", "menu2010rpd"]
    for a in sys.argv[1:]:
        if a.startswith("--governors="):
            governors = a.split("=", 1)[1].split(",")
    if not args:
        print("usage: powerfit.py REPORT_JSON... [--governors=G1,G2,...]", file=sys.stderr)
        sys.exit(2)
    try:
        rows = pairs_of(args, governors)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("powerfit.py: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        sys.exit(2)
    if not rows:
        print("powerfit.py: no row has 3 boots of two of %s" % ",".join(governors),
              file=sys.stderr)
        sys.exit(2)
    fitted, residuals = [], []
    for (w, m), pairs in sorted(rows.items()):
        diff_sd = rms([statistics.variance(d) for d, _, _, _ in pairs])
        side_sd = rms([(statistics.variance(a) + statistics.variance(b)) / 2
                       for _, a, b, _ in pairs])
        rho = max(0.0, 1 - diff_sd ** 2 / (2 * side_sd ** 2)) if side_sd else 1.0
        half = rms([h * h for _, _, _, hs in pairs for h in hs])
        split = sum(regimes(d) for d, _, _, _ in pairs)
        fitted.append((w or "(none)", m, diff_sd, side_sd, rho, half, split, len(pairs)))
        print("%-14s %-9s diff_sd %6.2f side_sd %6.2f rho %4.2f half %5.2f regimes %d/%d"
              % fitted[-1])
        for d, _, _, _ in pairs:
            if diff_sd > 0:
                mean = statistics.mean(d)
                scale = math.sqrt(len(d) / (len(d) - 1)) / diff_sd
                residuals += [(x - mean) * scale for x in d]
    sds = [f[2] for f in fitted]
    print("median diff_sd over %d rows: %.2f" % (len(sds), statistics.median(sds)))
    if residuals:
        m2 = statistics.mean(r * r for r in residuals)
        m4 = statistics.mean(r ** 4 for r in residuals)
        print("pooled standardised differences: %d, kurtosis %.2f"
              % (len(residuals), m4 / m2 ** 2 if m2 else float("nan")))
    print("family[] (the tail and the regimes are test_power.c's choice):")
    for w, m, diff_sd, side_sd, _, half, _, _ in fitted:
        print('\tROW("%s", %s, %.2f, %.2f, %.2f, ...),'
              % (w if w != "(none)" else "", m.upper(), diff_sd, side_sd, half))


if __name__ == "__main__":
    main()
