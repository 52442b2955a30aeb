#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Reproducibility of one reduced suite: two runs with the same seeds.

usage: repro.py DIR REPRO_JSON

DIR holds one directory per clock mode, DIR/<mode>/{a,b}/, each a `make
run`-like directory (bench/repro.sh boots them): report.json over its
boots, seed-*/*/<governor>/workloads.txt, plus wall-s (the run's wall
seconds).

A cell is one within-F share of the report: per workload (tagged periods
only) x host governor x predictor (the live governor, or a shadow model)
x factor F, in percent of its predictions, over all CPUs.  For each mode
this prints max and median |A - B| over the cells both runs have, the
worst cells, and the periodic1ms workload's own wake-up lateness (median
of its per-CPU medians, largest p99, overruns) in both runs.  REPRO_JSON
gets every figure.
"""

import json
import os
import re
import statistics
import sys

WORST_SHOWN = 5
LATENESS_TAG = "periodic1ms"


def cells(report):
    """{(workload, governor, predictor, F label): (percent, samples)}."""
    out = {}
    for result in report["results"]:
        if not result["workload"]:
            continue
        stats = result["all_cpus"]
        where = (result["workload"], result["governor"])
        scored = [("live", stats["within_factor"], stats["predicted_samples"])]
        scored += [(s["model"], s["within_factor"], s["samples"]) for s in stats["shadow"]]
        for predictor, within, samples in scored:
            if not samples:
                continue
            for w in within:
                out[where + (predictor, w["label"])] = (100 * w["count"] / samples, samples)
    return out


def half(share):
    """Half-width of a {pct, lo, hi} share, None without an interval."""
    if share["lo"] is None or share["hi"] is None:
        return None
    return (share["hi"] - share["lo"]) / 2


def within_cells(report):
    """{cell: (percent, half-width)} of the within-F cells with an interval
    (within one boot: the results pool the boots' periods)."""
    out = {}
    for result in report["results"]:
        if not result["workload"]:
            continue
        stats = result["all_cpus"]
        where = (result["workload"], result["governor"])
        scored = [("live", stats["within_factor"])]
        scored += [(s["model"], s["within_factor"]) for s in stats["shadow"]]
        for predictor, within in scored:
            for w in within:
                if w["pct"] is not None and half(w) is not None:
                    out[where + (predictor, w["label"])] = (w["pct"], half(w))
    return out


def headline_cells(report):
    """{(workload, governor, metric): (percent, half-width)}: the headline's
    shares, their intervals over the run's boots."""
    out = {}
    for h in report["headline"]:
        if not h["workload"]:
            continue
        for metric in ("within_2x", "ideal_hit", "too_deep", "too_shallow"):
            if h[metric]["pct"] is not None and half(h[metric]) is not None:
                out[(h["workload"], h["governor"], metric)] = (h[metric]["pct"],
                                                               half(h[metric]))
    return out


def per_boot_shares(report):
    """{(seed, workload, governor, metric): pct}: each boot's own headline
    shares, keyed by the boot's seed (both runs use the same seeds)."""
    out = {}
    for h in report["headline"]:
        if not h["workload"]:
            continue
        for b in h["per_boot"]:
            seed = report["boot_seeds"].get(b["boot"])
            for metric in ("within_2x", "ideal_hit", "too_deep", "too_shallow"):
                if seed is not None and b[metric]["pct"] is not None:
                    out[(seed, h["workload"], h["governor"], metric)] = b[metric]["pct"]
    return out


def boot_seeds(run_dir):
    """{boot index: seed}: `idlescope report` numbers the boots in the order
    of its files, seed-*/*/*/run.rec as the shell sorts them."""
    files = []
    for seed_dir in sorted(os.listdir(run_dir)):
        if not seed_dir.startswith("seed-"):
            continue
        for job in sorted(os.listdir(os.path.join(run_dir, seed_dir))):
            for gov in sorted(os.listdir(os.path.join(run_dir, seed_dir, job))):
                if os.path.isfile(os.path.join(run_dir, seed_dir, job, gov, "run.rec")):
                    files.append(int(seed_dir[len("seed-"):]))
    return dict(enumerate(files))


def covered(a, b):
    """Cells of both runs whose |A - B| is within the two half-widths added
    in quadrature (the interval of A - B), and how many there are."""
    common = set(a) & set(b)
    inside = sum(abs(a[c][0] - b[c][0]) <= (a[c][1] ** 2 + b[c][1] ** 2) ** 0.5
                 for c in common)
    return inside, len(common)


def run_cells(run_dir):
    """Cells, drops and produced records of one run, and its report."""
    with open(os.path.join(run_dir, "report.json")) as f:
        report = json.load(f)
    report["boot_seeds"] = boot_seeds(run_dir)
    return cells(report), report["dropped_records"], report["records_produced"], report


def workloads_files(run_dir):
    """Every boot's workloads.txt of one run."""
    found = []
    for root, _, files in os.walk(run_dir):
        if "workloads.txt" in files:
            found.append(os.path.join(root, "workloads.txt"))
    return sorted(found)


def lateness(run_dir):
    """The periodic1ms summary lines of one run (every governor, CPU)."""
    pattern = re.compile(r"median ([0-9.]+) us, p99 ([0-9.]+) us.*?(?:, ([0-9]+) overruns)?, "
                         r"tag " + LATENESS_TAG + r"\b")
    medians, p99s, overruns = [], [], 0
    for path in workloads_files(run_dir):
        with open(path) as f:
            for line in f:
                m = pattern.search(line)
                if m:
                    medians.append(float(m.group(1)))
                    p99s.append(float(m.group(2)))
                    overruns += int(m.group(3) or 0)
    if not medians:
        return None
    return {"median_us": statistics.median(medians), "p99_max_us": max(p99s),
            "overruns": overruns, "lines": len(medians)}


def wall_s(run_dir):
    path = os.path.join(run_dir, "wall-s")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return float(f.read())


def compare(mode_dir):
    runs, reports = {}, {}
    for run in ("a", "b"):
        run_dir = os.path.join(mode_dir, run)
        found, dropped, produced, reports[run] = run_cells(run_dir)
        runs[run] = {"cells": found, "dropped": dropped, "produced": produced,
                     "boots": len(reports[run]["boots"]),
                     "lateness": lateness(run_dir), "wall_s": wall_s(run_dir)}
    within_in, within_n = covered(within_cells(reports["a"]), within_cells(reports["b"]))
    head_in, head_n = covered(headline_cells(reports["a"]), headline_cells(reports["b"]))
    pa, pb = per_boot_shares(reports["a"]), per_boot_shares(reports["b"])
    same_seed = sorted(abs(pa[k] - pb[k]) for k in set(pa) & set(pb))
    a, b = runs["a"]["cells"], runs["b"]["cells"]
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit(f"repro: error: no cell in both runs of {mode_dir}")
    diffs = sorted(((abs(a[c][0] - b[c][0]), c) for c in common), reverse=True)
    return {
        "cells": len(common),
        "cells_only_in_one_run": len(set(a) ^ set(b)),
        "max_abs_diff_pp": diffs[0][0],
        "median_abs_diff_pp": statistics.median(d for d, _ in diffs),
        "within_f_cells_inside_interval": within_in,
        "within_f_cells_with_interval": within_n,
        "headline_cells_inside_interval": head_in,
        "headline_cells_with_interval": head_n,
        "same_seed_boot_shares": len(same_seed),
        "same_seed_max_abs_diff_pp": same_seed[-1] if same_seed else None,
        "same_seed_median_abs_diff_pp": statistics.median(same_seed) if same_seed else None,
        "same_seed_p90_abs_diff_pp": same_seed[int(0.9 * (len(same_seed) - 1))]
        if same_seed else None,
        "worst": [{"workload": c[0], "governor": c[1], "predictor": c[2], "factor": c[3],
                   "a_pct": a[c][0], "b_pct": b[c][0], "a_samples": a[c][1],
                   "b_samples": b[c][1], "abs_diff_pp": d}
                  for d, c in diffs[:WORST_SHOWN]],
        "runs": {r: {k: v for k, v in runs[r].items() if k != "cells"} for r in runs},
    }


def fmt_lateness(lat):
    if lat is None:
        return "no periodic1ms lines"
    text = f"median {lat['median_us']:.1f} us, p99 {lat['p99_max_us']:.1f} us"
    return text + f", {lat['overruns']} overruns"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: repro.py DIR REPRO_JSON")
    top = sys.argv[1]
    modes = [m for m in ("virtual", "fixed", "host") if os.path.isdir(os.path.join(top, m))]
    if not modes:
        sys.exit(f"repro: error: no virtual/, fixed/ or host/ directory in {top}")
    result = {"schema_version": 1, "modes": {}}
    for mode in modes:
        r = compare(os.path.join(top, mode))
        result["modes"][mode] = r
        print(f"clock {mode}: {r['cells']} within-F cells, |A-B| max "
              f"{r['max_abs_diff_pp']:.2f} pp, median {r['median_abs_diff_pp']:.2f} pp"
              f" ({r['cells_only_in_one_run']} cells in one run only)")
        for kind, what in (("within_f", "within-F cells, within-boot intervals"),
                           ("headline", "headline cells, intervals over boots")):
            n, k = r[f"{kind}_cells_with_interval"], r[f"{kind}_cells_inside_interval"]
            share = f"{100 * k / n:.1f}%" if n else "-"
            print(f"  A-B within the combined 95% interval: {k} of {n} {what} ({share})")
        if r["same_seed_boot_shares"]:
            print(f"  boots of one seed in A and B, {r['same_seed_boot_shares']} headline shares: "
                  f"|A-B| median {r['same_seed_median_abs_diff_pp']:.2f} pp, 90th percentile "
                  f"{r['same_seed_p90_abs_diff_pp']:.2f} pp, max "
                  f"{r['same_seed_max_abs_diff_pp']:.2f} pp")
        for run, v in r["runs"].items():
            wall = "-" if v["wall_s"] is None else f"{v['wall_s']:.0f} s"
            print(f"  run {run}: {v['boots']} boots; periodic1ms lateness {fmt_lateness(v['lateness'])}; "
                  f"drops {v['dropped']} of {v['produced']}; wall {wall}")
        for w in r["worst"]:
            print(f"  worst: {w['workload']} {w['governor']} {w['predictor']} {w['factor']}: "
                  f"{w['a_pct']:.1f} vs {w['b_pct']:.1f} ({w['abs_diff_pp']:.2f} pp; "
                  f"{w['a_samples']} vs {w['b_samples']} samples)")
    with open(sys.argv[2], "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
