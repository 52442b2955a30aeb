# SPDX-License-Identifier: GPL-2.0
"""The observer effect of `make bench` (bench/observer.sh's lines): per
governor, workload and mode, the kernel's own idle counters and the
workload's own figures, as a mean over the rounds with a 95% interval, and
each mode against idlescope detached, paired by round (both ran in the same
round, minutes apart at most, so a drift of the guest's speed over the boot
cancels out of the difference).

summarize.py imports it: observer(lines) gives the figures, observer_rows()
and print_observer() the table.
"""

import re
import statistics

# Two-sided 95% Student t quantiles by degrees of freedom (n - 1).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}
# The modes, as bench/observer.sh names them, and what the table calls them.
MODE_NAMES = {"off": "detached", "tp": "tracepoints", "sel": "select probes",
              "full": "full loader", "lean": "lean", "share": "records on 9p"}
# The workloads whose overruns the issue's target bounds: the 100 us sleepers.
SLEEPERS = "periodic100us"
SLEEPERS_MAX_RATIO = 2.0
# A workload's own figures, from its summary lines: (name, regex, how the
# instances combine: the two of on_both_cpus, the threads of cyclictest).
FIGURES = [
    ("overruns", r"(\d+) overruns", "sum"),
    ("lateness_median_us", r"lateness mean [0-9.]+ us, median ([0-9.]+) us", "mean"),
    ("round_trips_per_s", r"([0-9.]+) round trips/s", "sum"),
    ("read_latency_median_us", r"read latency mean [0-9.]+ us, median ([0-9.]+) us", "mean"),
    ("irq_hz", r"([0-9.]+) Hz of", "sum"),
]
# What the table shows of each workload, beside the kernel's counters.
MEASURES = [("above_pct", "above %"), ("below_pct", "below %"),
            ("periods_per_s", "idle periods/s"), ("overruns", "overruns"),
            ("lateness_median_us", "lateness median us"),
            ("round_trips_per_s", "round trips/s"),
            ("read_latency_median_us", "read latency median us"), ("irq_hz", "device Hz"),
            ("latency_avg_us", "cyclictest avg us"), ("latency_max_us", "cyclictest max us"),
            ("state_shift_pp", "states: max |share - detached| pp")]


def t95(n):
    """The t quantile for n samples (n >= 2), the next lower table entry."""
    dof = n - 1
    return T95[max(k for k in T95 if k <= dof)]


def interval(values):
    """Mean and 95% half-width over rounds (None with one value)."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return {"mean": mean, "half_width": None, "n": len(values)}
    return {"mean": mean, "half_width": t95(len(values)) * statistics.stdev(values)
            / len(values) ** 0.5, "n": len(values)}


def states(keys):
    """{(cpu, state): (usage, time, above, below)} of one obs line."""
    out = {}
    for k, v in keys.items():
        m = re.fullmatch(r"c(\d+)\.s(\d+)", k)
        if m:
            out[(int(m.group(1)), int(m.group(2)))] = tuple(int(x) for x in v.split(","))
    return out


def cyclictest(lines):
    """cyclictest's average (weighted by loops) and largest latency, or {}."""
    loops = total = 0
    worst = None
    for line in lines:
        m = re.match(r"T: *\d+ .*C: *(\d+).*Avg: *(\d+) +Max: *(\d+)", line)
        if m:
            c, avg, mx = (int(x) for x in m.groups())
            loops += c
            total += avg * c
            worst = mx if worst is None else max(worst, mx)
    if not loops:
        return {}
    return {"latency_avg_us": total / loops, "latency_max_us": worst}


def figures(lines):
    """A workload's own figures from its output lines."""
    out = {}
    for name, pattern, how in FIGURES:
        found = [float(m.group(1)) for line in lines for m in [re.search(pattern, line)] if m]
        if found:
            out[name] = sum(found) if how == "sum" else statistics.mean(found)
    # A timer pattern without an overrun says none.
    if "lateness_median_us" in out and "overruns" not in out:
        out["overruns"] = 0.0
    out.update(cyclictest(lines))
    return out


def one_run(lines, keys):
    """The kernel's counters and the workload's figures of one workload run."""
    start = [k for s, k, _ in lines if s == "obs" and k.get("at") == "start"
             and all(k.get(n) == v for n, v in keys.items())]
    end = [k for s, k, _ in lines if s == "obs" and k.get("at") == "end"
           and all(k.get(n) == v for n, v in keys.items())]
    if len(start) != 1 or len(end) != 1:
        return None
    a, b = states(start[0]), states(end[0])
    delta = {cs: tuple(y - x for x, y in zip(a[cs], b[cs])) for cs in b if cs in a}
    usage = sum(d[0] for d in delta.values())
    seconds = float(end[0]["uptime_s"]) - float(start[0]["uptime_s"])
    by_state = {}
    for (_, st), d in delta.items():
        by_state[st] = by_state.get(st, 0) + d[0]
    run = {
        "seconds": seconds,
        "periods_per_s": usage / seconds if seconds > 0 else None,
        "above_pct": 100 * sum(d[2] for d in delta.values()) / usage if usage else None,
        "below_pct": 100 * sum(d[3] for d in delta.values()) / usage if usage else None,
        "state_usage_share": {st: n / usage for st, n in sorted(by_state.items())} if usage
        else {},
    }
    out = [t for s, k, t in lines if s == "obsout"
           and all(k.get(n) == v for n, v in keys.items())]
    run.update(figures(out))
    return run


def observer(lines):
    """Every (governor, workload, mode): its runs and their intervals, and
    each mode's paired difference from detached."""
    cells = {}
    for s, k, _ in lines:
        if s == "obs" and k.get("at") == "start":
            cells.setdefault((k["governor"], k["workload"], k["mode"]), set()).add(k["round"])
    if not cells:
        return None
    result = {"modes": [], "governors": [], "workloads": [], "cells": {}}
    for (g, w, m), rounds in cells.items():
        for lst, v in (("governors", g), ("workloads", w), ("modes", m)):
            if v not in result[lst]:
                result[lst].append(v)
        runs = {}
        for r in sorted(rounds, key=int):
            run = one_run(lines, {"round": r, "governor": g, "workload": w, "mode": m})
            if run:
                runs[r] = run
        result["cells"].setdefault(g, {}).setdefault(w, {})[m] = {"runs": runs}
    for g, per_w in result["cells"].items():
        for w, per_m in per_w.items():
            off = per_m.get("off", {"runs": {}})["runs"]
            for m, cell in per_m.items():
                add_intervals(cell, off)
    return result


def state_shift(run, off_run):
    """The largest change of a state's share of the periods, in points."""
    a, b = run["state_usage_share"], off_run["state_usage_share"]
    return max((100 * abs(a.get(s, 0) - b.get(s, 0)) for s in set(a) | set(b)), default=0.0)


def add_intervals(cell, off):
    """Per measure: the mean over rounds and the difference from detached."""
    runs = cell["runs"]
    for r, run in runs.items():
        if r in off:
            run["state_shift_pp"] = state_shift(run, off[r])
    cell["measures"] = {}
    for name, _ in MEASURES:
        values = [run[name] for run in runs.values() if run.get(name) is not None]
        if not values:
            continue
        entry = interval(values)
        diffs = [runs[r][name] - off[r][name] for r in runs
                 if r in off and runs[r].get(name) is not None and off[r].get(name) is not None]
        if diffs and name != "state_shift_pp":
            entry["diff"] = interval(diffs)
        cell["measures"][name] = entry
    shares = [run["state_usage_share"] for run in runs.values() if run["state_usage_share"]]
    cell["state_usage_pct"] = {st: 100 * statistics.mean(s.get(st, 0.0) for s in shares)
                               for st in sorted({st for s in shares for st in s})}


def covers_zero(diff):
    """The difference's interval contains 0 (no effect shown)."""
    hw = diff.get("half_width")
    return hw is not None and abs(diff["mean"]) <= hw


def fmt_cell(entry, off_mode):
    if entry is None:
        return "-"
    mean = entry["mean"]
    text = f"{mean:.3g}" if abs(mean) < 1000 else f"{mean:.0f}"
    if off_mode:
        hw = entry.get("half_width")
        return text + (f"±{hw:.2g}" if hw is not None else "")
    diff = entry.get("diff")
    if diff is None:
        return text
    # "*": the difference from detached is outside its 95% interval.
    return text + ("" if covers_zero(diff) else "*")


def verdicts(obs, default_mode):
    """The issue's targets for the default mode: every kernel above% and
    below% and every workload figure within the interval of its difference
    from detached; the 100 us sleepers' overruns within 2x of detached."""
    shown, within, outside = 0, 0, []
    ratio = None
    for g, per_w in obs["cells"].items():
        for w, per_m in per_w.items():
            cell = per_m.get(default_mode)
            if not cell:
                continue
            for name, label in MEASURES:
                entry = cell["measures"].get(name)
                if not entry or "diff" not in entry or name == "periods_per_s":
                    continue
                shown += 1
                if covers_zero(entry["diff"]):
                    within += 1
                else:
                    outside.append(f"{g} {w} {label} {entry['diff']['mean']:+.3g}")
            if w == SLEEPERS and "off" in per_m:
                on = cell["measures"].get("overruns", {}).get("mean")
                off = per_m["off"]["measures"].get("overruns", {}).get("mean")
                if on is not None and off is not None:
                    r = on / max(off, 1.0)
                    ratio = r if ratio is None else max(ratio, r)
    return {"cells": shown, "within": within, "outside": outside,
            "sleepers_overrun_ratio": ratio}


def print_observer(obs, default_mode):
    """The table: per governor and workload, a row per measure, a column
    per mode (detached: mean±half-width over rounds; the others: mean, *
    when its difference from detached is outside the difference's 95%
    interval)."""
    modes = ["off"] + [m for m in obs["modes"] if m != "off"]
    header = ["governor", "workload", "measure"] + [
        MODE_NAMES.get(m, m) + (" (make run)" if m == default_mode else "") for m in modes]
    rows = []
    for g in obs["governors"]:
        for w in obs["workloads"]:
            per_m = obs["cells"].get(g, {}).get(w, {})
            for name, label in MEASURES:
                cells = [fmt_cell(per_m.get(m, {}).get("measures", {}).get(name), m == "off")
                         for m in modes]
                if all(c == "-" for c in cells):
                    continue
                rows.append([g, w, label] + cells)
            # The kernel's usage per state: each state's share of the
            # periods, in percent, mean over rounds, state 0 first.
            cells = ["/".join(f"{v:.0f}" for v in per_m[m]["state_usage_pct"].values())
                     if per_m.get(m, {}).get("state_usage_pct") else "-" for m in modes]
            if any(c != "-" for c in cells):
                rows.append([g, w, "usage % per state"] + cells)
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    rounds = max((len(c["runs"]) for pw in obs["cells"].values() for pm in pw.values()
                  for c in pm.values()), default=0)
    print(f"\nobserver effect: {rounds} rounds in one boot, each mode beside detached in "
          "every round; detached: mean±95% half-width over rounds; other modes: mean, "
          "* where its difference from detached (paired by round) is outside that "
          "difference's 95% interval")
    last = None
    for r in [header] + rows:
        key = tuple(r[:2])
        shown = r if key != last or r is header else ["", ""] + r[2:]
        last = key
        print("  ".join(c.ljust(wd) for c, wd in zip(shown, widths)).rstrip())


def loader_cpu(lines, runs):
    """Per observer mode with records: the loader's CPU per 1M records, from
    ready to just before SIGINT, summed over its blocks."""
    per_mode = {}
    for r in runs:
        m = re.fullmatch(r"obs-\d+-[^-]+-(\w+)", r["run"])
        if not m or not r["records"]:
            continue
        acc = per_mode.setdefault(m.group(1), {"cpu_s": 0.0, "records": 0})
        acc["cpu_s"] += r["cpu_s"]
        acc["records"] += r["records"]
    for acc in per_mode.values():
        acc["cpu_s_per_million_records"] = acc["cpu_s"] / acc["records"] * 1e6
    return per_mode
