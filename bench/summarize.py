#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw lines of one `make bench` into its figures.

usage: summarize.py GUEST_RAW HOST_RAW BENCH_JSON

GUEST_RAW is what bench/guest.sh wrote (its header describes the lines),
HOST_RAW what bench/run.sh timed.  Both hold lines "SECTION key=value ...
[: text]".  Prints one table and writes BENCH_JSON.  Every guest figure is
a ratio of runs made side by side in one boot, or a rate within one run:
the host is shared, so absolute figures of two benches do not compare.
"""

import datetime
import json
import re
import statistics
import sys

USER_HZ = 100            # /proc/PID/stat clock ticks: fixed at 100 on x86
GUEST_CPUS = 2           # vm/run.sh -smp 2
PROBE_PROGRAMS = ("cpu_idle", "cpu_idle_miss")

# The targets.
OVERHEAD_MAX_PCT = 2.0
OVERHEAD_MIN_RATE = 10000
DROP_FREE_MIN_RATE = 100000
LOADER_MAX_S_PER_M = 1.0
HOST_MAX_S_PER_M = 0.2          # the same per-record path, natively
REPORT_MIN_RATE = 5e6           # off-line replay, records per CPU second


def parse(path):
    """Lines as (section, {key: value}, text)."""
    lines = []
    with open(path) as f:
        for line in f:
            head, _, text = line.rstrip("\n").partition(" : ")
            section, *words = head.split()
            # "snap sweep ringbuf=4096 ...": a bare word says which part.
            keys = dict(w.split("=", 1) if "=" in w else ("part", w) for w in words)
            lines.append((section, keys, text))
    return lines


def matching(lines, section, **want):
    return [(k, t) for s, k, t in lines
            if s == section and all(k.get(n) == v for n, v in want.items())]


def one(lines, section, **want):
    found = matching(lines, section, **want)
    if len(found) != 1:
        sys.exit(f"summarize: error: {len(found)} '{section}' lines for {want}")
    return found[0]


class Snapshot:
    """One `snapshot` of guest.sh: time, idle entries, progstats lines."""

    def __init__(self, lines, **want):
        keys, _ = one(lines, "snap", **want)
        self.uptime_s = float(keys["uptime_s"])
        self.usage = int(keys["usage"])
        self.counters = {}
        self.progs = {}
        for _, text in matching(lines, "stat", **want):
            words = text.split()
            fields = {words[i]: int(words[i + 1]) for i in range(2, len(words), 2)}
            if words[0] == "map":
                self.counters = fields
            else:
                self.progs[words[1]] = fields

    def periods(self):
        """Idle periods the BPF side saw: sent or dropped."""
        return self.counters.get("records", 0) + self.counters.get("dropped", 0)


def number_after(pattern, text):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"summarize: error: no '{pattern}' in: {text}")
    return float(m.group(1))


def spread(values):
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return {"median": median, "q1": q1, "q3": q3, "min": min(values), "max": max(values),
            "rounds": len(values)}


def overhead(lines):
    """Per round: probes on / probes off, for both loads."""
    rounds = sorted({int(k["round"]) for k, _ in matching(lines, "out", load="pingpong")
                     if "round" in k})
    per_round = []
    for r in rounds:
        phase = {}
        for probes in ("off", "on"):
            keys = {"round": str(r), "probes": probes}
            _, pp = one(lines, "out", load="pingpong", **keys)
            start = Snapshot(lines, load="pingpong", at="start", **keys)
            end = Snapshot(lines, load="pingpong", at="end", **keys)
            medians = [number_after(r"median ([0-9.]+) us", t)
                       for _, t in matching(lines, "out", load="periodic", **keys)]
            phase[probes] = {
                "round_trips_per_s": number_after(r"([0-9.]+) round trips/s", pp),
                "idle_periods_per_s": (end.usage - start.usage) / (end.uptime_s - start.uptime_s),
                "lateness_median_us": statistics.mean(medians),
            }
        per_round.append({
            "round": r,
            "off": phase["off"],
            "on": phase["on"],
            "round_trip_overhead_pct":
                100 * (1 - phase["on"]["round_trips_per_s"] / phase["off"]["round_trips_per_s"]),
            "lateness_ratio":
                phase["on"]["lateness_median_us"] / phase["off"]["lateness_median_us"],
        })
    return {
        "rounds": per_round,
        "round_trip_overhead_pct": spread([r["round_trip_overhead_pct"] for r in per_round]),
        "lateness_ratio": spread([r["lateness_ratio"] for r in per_round]),
        "pingpong_idle_periods_per_s":
            statistics.median(r["off"]["idle_periods_per_s"] for r in per_round),
        "pingpong_round_trips_per_s":
            statistics.median(r["off"]["round_trips_per_s"] for r in per_round),
        "periodic_lateness_median_us":
            statistics.median(r["off"]["lateness_median_us"] for r in per_round),
    }


def probe_cost(start, end):
    """BPF run time between two snapshots (bpf_stats_enabled was on)."""
    runs = {p: end.progs[p]["run_cnt"] - start.progs[p]["run_cnt"] for p in PROBE_PROGRAMS}
    ns = {p: end.progs[p]["run_time_ns"] - start.progs[p]["run_time_ns"] for p in PROBE_PROGRAMS}
    periods = end.periods() - start.periods()
    seconds = end.uptime_s - start.uptime_s
    return {
        "ns_per_run": {p: ns[p] / runs[p] if runs[p] else None for p in PROBE_PROGRAMS},
        "ns_per_idle_period": sum(ns.values()) / periods if periods else None,
        "cpu_share_pct": 100 * sum(ns.values()) / 1e9 / seconds / GUEST_CPUS,
    }


def sweep(lines):
    sizes = sorted({int(k["ringbuf"]) for k, _ in matching(lines, "snap") if "ringbuf" in k})
    result = []
    for size in sizes:
        levels = []
        first = last = None
        for keys, _ in matching(lines, "snap", ringbuf=str(size), at="start"):
            level = keys["level"]
            start = Snapshot(lines, ringbuf=str(size), level=level, at="start")
            end = Snapshot(lines, ringbuf=str(size), level=level, at="end")
            first, last = first or start, end
            seconds = end.uptime_s - start.uptime_s
            levels.append({
                "level": level,
                "seconds": seconds,
                "idle_periods_per_s": (end.periods() - start.periods()) / seconds,
                "dropped": end.counters["dropped"] - start.counters["dropped"],
                "probe": probe_cost(start, end),
            })
        clean = [lv["idle_periods_per_s"] for lv in levels if lv["dropped"] == 0]
        dropping = [lv["idle_periods_per_s"] for lv in levels if lv["dropped"]]
        result.append({
            "ringbuf_bytes": size,
            "levels": levels,
            "max_drop_free_idle_periods_per_s": max(clean) if clean else None,
            "min_dropping_idle_periods_per_s": min(dropping) if dropping else None,
            "probe": probe_cost(first, last),
        })
    return result


def loaders(lines):
    """CPU and RSS of each loader run, from ready to just before SIGINT."""
    runs = []
    for keys, _ in matching(lines, "loader", at="ready"):
        run = keys["run"]
        stop, _ = one(lines, "loader", run=run, at="stop")
        first = Snapshot(lines, run=run, at="ready")
        last = Snapshot(lines, run=run, at="stop")
        records = last.counters["records"] - first.counters["records"]
        # The kernel's count of the same periods: sysfs usage grows once per
        # cpuidle_enter_state(), which every probed period under a governor
        # goes through.
        periods = last.periods() - first.periods()
        usage = last.usage - first.usage
        cpu_s = (int(stop["cpu_ticks"]) - int(keys["cpu_ticks"])) / USER_HZ
        runs.append({
            "run": run,
            "startup_cpu_s": int(keys["cpu_ticks"]) / USER_HZ,
            "cpu_s": cpu_s,
            "records": records,
            "cpu_s_per_million_records": cpu_s / records * 1e6 if records else None,
            "peak_rss_kb": int(stop["vmhwm_kb"]),
            "periods_vs_sysfs_usage_pct": 100 * (periods - usage) / usage if usage else None,
        })
    return runs


def host_figures(lines):
    builds = {k["what"]: {"seconds": float(k["seconds"]) if "seconds" in k else None,
                          "source": t}
              for k, t in matching(lines, "build")}
    reports = [{"records": int(k["records"]), "seconds": float(k["seconds"]),
                "cpu_s": float(k["user_s"]) + float(k["sys_s"]),
                "peak_rss_kb": int(k["rss_kb"])}
               for k, _ in matching(lines, "report")]
    boot, _ = one(lines, "boot")
    return builds, reports, float(boot["seconds"])


def fmt_rate(rate):
    return "-" if rate is None else f"{rate / 1000:.1f}k/s"


def fmt_s(seconds):
    return "not measured" if seconds is None else f"{seconds:.1f} s"


def verdict(met):
    return "yes" if met else "no"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: summarize.py GUEST_RAW HOST_RAW BENCH_JSON")
    guest = parse(sys.argv[1])
    builds, reports, boot_wall_s = host_figures(parse(sys.argv[2]))

    ready = Snapshot(guest, run="warmup", at="ready")
    end, _ = one(guest, "time", at="end")
    boot_to_loader_s = boot_wall_s - (float(end["uptime_s"]) - ready.uptime_s)

    ovh = overhead(guest)
    swp = sweep(guest)
    runs = loaders(guest)
    # The largest ring buffer is the default one (as `make run` uses it) in
    # the default sweep: its loader is the one to judge.
    largest = swp[-1]
    judged = next(r for r in runs if r["run"] == f"sweep-{largest['ringbuf_bytes']}")
    # What the probes alone should cost pingpong: their run time per idle
    # period (pingpong level of the sweep) at pingpong's rate, probes off.
    pp_probe = next(lv["probe"] for lv in largest["levels"] if lv["level"] == "pp")
    expected_pct = (pp_probe["ns_per_idle_period"] * ovh["pingpong_idle_periods_per_s"] / 1e9 *
                    100)
    ovh["expected_from_bpf_run_time_pct"] = expected_pct
    host_per_m = [r["cpu_s"] / r["records"] * 1e6 for r in reports]

    rows = []
    oh = ovh["round_trip_overhead_pct"]
    rate = ovh["pingpong_idle_periods_per_s"]
    rows.append(("probe overhead, pingpong round trips",
                 f"{oh['median']:+.1f}% median (quartiles {oh['q1']:+.1f}..{oh['q3']:+.1f}, "
                 f"{oh['rounds']} rounds) at {fmt_rate(rate)} idle periods, "
                 f"{ovh['pingpong_round_trips_per_s']:.0f} round trips/s",
                 f"<= {OVERHEAD_MAX_PCT:.0f}% at >= {fmt_rate(OVERHEAD_MIN_RATE)}",
                 verdict(oh["median"] <= OVERHEAD_MAX_PCT and rate >= OVERHEAD_MIN_RATE)))
    rows.append(("  expected from BPF run time",
                 f"{expected_pct:.1f}% ({pp_probe['ns_per_idle_period'] / 1000:.1f} us "
                 f"per idle period x {fmt_rate(rate)})", "", ""))
    lr = ovh["lateness_ratio"]
    rows.append(("probe overhead, periodic 1 ms lateness",
                 f"x{lr['median']:.2f} median (quartiles {lr['q1']:.2f}..{lr['q3']:.2f}), "
                 f"probes off: {ovh['periodic_lateness_median_us']:.0f} us", "", ""))
    for s in swp:
        clean = s["max_drop_free_idle_periods_per_s"]
        dropping = s["min_dropping_idle_periods_per_s"]
        if dropping is None:
            result = f"{fmt_rate(clean)}, no drops at any level"
        elif clean is None:
            result = f"none: drops at every level, from {fmt_rate(dropping)}"
        else:
            result = f"{fmt_rate(clean)} (drops from {fmt_rate(dropping)})"
        rows.append((f"drop-free rate, ring buffer {s['ringbuf_bytes']} B", result, "", ""))
    best = max((s["max_drop_free_idle_periods_per_s"] or 0) for s in swp)
    rows.append(("drop-free rate, best of all sizes", fmt_rate(best),
                 f">= {fmt_rate(DROP_FREE_MIN_RATE)}", verdict(best >= DROP_FREE_MIN_RATE)))
    probe = largest["probe"]
    rows.append(("BPF run time (ring buffer "
                 f"{largest['ringbuf_bytes']} B)",
                 f"{probe['ns_per_idle_period'] / 1000:.1f} us per idle period "
                 f"(cpu_idle {probe['ns_per_run']['cpu_idle'] / 1000:.1f} us/run), "
                 f"{probe['cpu_share_pct']:.1f}% of {GUEST_CPUS} vCPUs", "", ""))
    per_m = [r["cpu_s_per_million_records"] for r in runs if r["records"]]
    rows.append(("loader CPU per 1M records, guest",
                 f"{judged['cpu_s_per_million_records']:.1f} s ({judged['run']}, "
                 f"{judged['records']} records; all runs {min(per_m):.1f}..{max(per_m):.1f} s; "
                 f"startup {judged['startup_cpu_s']:.1f} s)",
                 f"<= {LOADER_MAX_S_PER_M:.0f} s",
                 verdict(judged["cpu_s_per_million_records"] <= LOADER_MAX_S_PER_M)))
    if host_per_m:
        rows.append(("  same per-record path, host native",
                     f"{max(host_per_m):.2f} s (idlescope report CPU per 1M records)",
                     f"<= {HOST_MAX_S_PER_M:.1f} s",
                     verdict(max(host_per_m) <= HOST_MAX_S_PER_M)))
    vs_usage = [r["periods_vs_sysfs_usage_pct"] for r in runs
                if r["periods_vs_sysfs_usage_pct"] is not None]
    if vs_usage:
        rows.append(("idle periods seen vs sysfs usage",
                     f"{min(vs_usage):+.2f}..{max(vs_usage):+.2f}% over {len(vs_usage)} loader runs",
                     "", ""))
    rows.append(("loader peak RSS", f"{max(r['peak_rss_kb'] for r in runs) / 1024:.1f} MiB",
                 "", ""))
    for r in reports:
        rate = r["records"] / r["cpu_s"] if r["cpu_s"] else float("inf")
        rows.append((f"offline report, {r['records'] / 1e6:g}M records",
                     f"{r['seconds']:.1f} s wall, {r['cpu_s']:.2f} s CPU, "
                     f"{rate / 1e6:.1f} M records/CPU-s, peak RSS {r['peak_rss_kb'] / 1024:.1f} MiB",
                     f">= {REPORT_MIN_RATE / 1e6:.0f} M/s", verdict(rate >= REPORT_MIN_RATE)))
    if len(reports) > 1 and host_per_m[0] and reports[0]["peak_rss_kb"]:
        small, big = reports[0], reports[-1]
        rows.append((f"  growth {small['records'] / 1e6:g}M -> {big['records'] / 1e6:g}M",
                     f"CPU per record x{host_per_m[-1] / host_per_m[0]:.2f}, "
                     f"peak RSS x{big['peak_rss_kb'] / small['peak_rss_kb']:.2f} "
                     "(1: linear time, flat memory)", "", ""))
    cold = builds.get("kernel_cold", {})
    rows.append(("kernel build, on a cache miss",
                 f"{fmt_s(cold.get('seconds'))} ({cold.get('source', '')})", "", ""))
    rows.append(("kernel build, cached", fmt_s(builds["kernel_cached"]["seconds"]), "", ""))
    rows.append(("initramfs build, clean", fmt_s(builds["initramfs_clean"]["seconds"]), "", ""))
    rows.append(("boot to loader ready", f"{boot_to_loader_s:.1f} s "
                 f"(kernel uptime {ready.uptime_s:.1f} s)", "", ""))

    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    header = ("measure", "result", "target", "met")
    widths = [max(w, len(h)) for w, h in zip(widths, header)]
    for row in (header,) + tuple(rows):
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())

    bench = {
        "schema_version": 1,
        "time_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "guest_cpus": GUEST_CPUS,
        "probe_overhead": ovh,
        "drop_free": swp,
        "loader_runs": runs,
        "offline_report": reports,
        "build": builds,
        "boot_to_loader_s": boot_to_loader_s,
        "boot_wall_s": boot_wall_s,
        "targets": [{"measure": r[0], "result": r[1], "target": r[2], "met": r[3] == "yes"}
                    for r in rows if r[2]],
    }
    with open(sys.argv[3], "w") as f:
        json.dump(bench, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
