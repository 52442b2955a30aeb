#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The seed method's table with exit cost on and off, side by side.

usage: exitcost.py ON_REPORT_JSON OFF_REPORT_JSON OUT_JSON

Each report is one menu2010 run (bench/exitcost.sh); its seed_method
entries give, per workload, the within-F shares of the live menu2010
("before"), and of menu2010fix ("patch 1") and menu2010rpd ("patch 1+2")
replayed on the same periods.  Printed per workload and as the mean over
the workloads (each workload weighs the same: exit cost changes how many
periods a workload makes, pingpong's by 30 times), with the difference on
- off in points.  Untagged periods (the gaps between workloads) are left out.
"""

import json
import sys


def seed_counts(report):
    """{workload: {column: {factor: (hits, samples)}}} from the pct and samples."""
    out = {}
    for entry in report["seed_method"]:
        cols = {}
        for col in entry["columns"]:
            n = col["samples"]
            cols[col["column"]] = {w["factor"]: (w["pct"] * n / 100 if n else 0, n)
                                   for w in col["within_factor"]}
        if entry["workload"]:
            out[entry["workload"]] = cols
    return out


def mean_over(per_workload, workloads):
    """The workloads' shares averaged, as (pct, 100) cells; n: their periods."""
    total = {}
    for w in workloads:
        for column, factors in per_workload[w].items():
            for factor, cell in factors.items():
                s, m, n = total.setdefault(column, {}).get(factor, (0, 0, 0))
                total[column][factor] = (s + pct(cell), m + 1, n + cell[1])
    return {c: {f: (s / m, 100, n) for f, (s, m, n) in fs.items()} for c, fs in total.items()}


def pct(cell):
    if len(cell) == 3:	# a mean over workloads: (pct, 100, periods)
        return cell[0]
    hits, n = cell
    return 100 * hits / n if n else float("nan")


def table(title, on, off, rows):
    columns = [c for c in on if c in off]
    print(f"\n{title}")
    head = f"{'F':<6}" + "".join(f"{c + ' on':>16}{'off':>8}{'diff':>8}" for c in columns)
    print(head)
    for factor in next(iter(on.values())):
        line = f"{factor:<6}"
        for c in columns:
            a, b = pct(on[c][factor]), pct(off[c][factor])
            line += f"{a:>15.1f}%{b:>7.1f}%{a - b:>+8.1f}"
            rows.append({"table": title, "factor": factor, "column": c,
                         "on_pct": a, "off_pct": b, "on_samples": on[c][factor][-1],
                         "off_samples": off[c][factor][-1]})
        print(line)
    print(f"{'n':<6}" + "".join(f"{next(iter(on[c].values()))[-1]:>16}"
                                f"{next(iter(off[c].values()))[-1]:>8}{'':>8}" for c in columns))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: exitcost.py ON_REPORT_JSON OFF_REPORT_JSON OUT_JSON")
    with open(sys.argv[1]) as f:
        on = seed_counts(json.load(f))
    with open(sys.argv[2]) as f:
        off = seed_counts(json.load(f))
    rows = []
    print("exit-cost sensitivity: seed method, % within F, exit cost on vs off "
          "(before = live menu2010, patch 1 = menu2010fix, patch 1+2 = menu2010rpd)")
    workloads = sorted(w for w in on if w in off)
    table("mean of the workloads", mean_over(on, workloads), mean_over(off, workloads), rows)
    for workload in workloads:
        table(f"workload {workload}", on[workload], off[workload], rows)
    with open(sys.argv[3], "w") as f:
        json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
