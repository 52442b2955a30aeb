#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The headline's primary shares with the exit as declared and spread.

usage: exitshape.py ON_REPORT_JSON SPREAD_REPORT_JSON OUT_JSON

Each report is one boot of the same seed under menu and teo
(bench/exitshape.sh): the idle states spent their declared exit latency
(on), or a share of it drawn from a spread shape (spread).  Printed per
workload and governor: within 2x over the raw periods and ideal hit over
the logical ones (compare's primary rows), each with its within-boot
95% interval, and spread - on in points; then each state's exits spent
(p50, p99, max against the declared latency) in both boots.
"""

import json
import sys

METRICS = (("headline", "within_2x", "within 2x % raw"),
           ("headline_logical", "ideal_hit", "ideal hit % logical"))


def cells(report):
    """{(view, workload, governor): headline cell}."""
    return {(view, h["workload"], h["governor"]): h
            for view in ("headline", "headline_logical") for h in report[view]}


def share(cell, metric):
    """'pct ±half', or '-' when the cell has none."""
    r = cell[metric] if cell else None
    if not r or r["pct"] is None:
        return "-", None
    if r["lo"] is None:
        return "%.1f" % r["pct"], r["pct"]
    return "%.1f ±%.1f" % (r["pct"], (r["hi"] - r["lo"]) / 2), r["pct"]


def main():
    on, spread = (json.load(open(p)) for p in sys.argv[1:3])
    a, b = cells(on), cells(spread)
    rows = []
    print("exit shape: declared (on) against spread (median half the declared, worst case it)")
    for view, metric, title in METRICS:
        print(title)
        print("  %-14s %-12s %14s %14s %10s" % ("workload", "governor", "on", "spread",
                                                "spread-on"))
        for key in sorted(k for k in a if k[0] == view and k[1]):
            sa, va = share(a.get(key), metric)
            sb, vb = share(b.get(key), metric)
            if va is None and vb is None:
                continue
            d = "%+.1f" % (vb - va) if va is not None and vb is not None else "-"
            print("  %-14s %-12s %14s %14s %10s" % (key[1], key[2], sa, sb, d))
            rows.append({"view": view, "metric": metric, "workload": key[1],
                         "governor": key[2], "on_pct": va, "spread_pct": vb})
    print("exits spent per state, us (p50 / p99 / max, declared):")
    for name, rep in (("on", on), ("spread", spread)):
        for e in rep["exit_spent"]:
            print("  %-6s state %d: %.1f / %.1f / %.1f (%.1f), %d exits" % (
                name, e["state"], e["p50_ns"] / 1e3, e["p99_ns"] / 1e3, e["max_ns"] / 1e3,
                e["exit_latency_ns"] / 1e3, e["periods"]))
    json.dump({"rows": rows, "exit_spent": {"on": on["exit_spent"],
                                            "spread": spread["exit_spent"]}},
              open(sys.argv[3], "w"), indent=1)


if __name__ == "__main__":
    main()
