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
import os
import re
import statistics
import sys

from observer import loader_cpu, observer, print_observer, verdicts

USER_HZ = 100            # /proc/PID/stat clock ticks: fixed at 100 on x86
GUEST_CPUS = 2           # vm/run.sh -smp 2
PROBE_SETS = {"tp": "tracepoints only", "sel": "with select probes", "lean": "lean set"}
# bench/guest.sh's runtime phases: the probe sets, and all probes with one
# shared ring buffer instead of one per CPU.
RUNTIME_SETS = dict(PROBE_SETS, shared="with select probes, one shared ring buffer")
RINGBUF_HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bpf",
                              "idlescope.h")

# The targets (issue 38): the probes' cost on a pingpong round trip per
# set (the select probes' goal is 2%), the light loader's CPU per record
# against the full one's, the off-line replay's rate.
OVERHEAD_MAX_PCT = {"tp": 5.0, "sel": 10.0, "lean": 3.0}
LIGHT_MAX_CPU_RATIO = 0.2
HOST_MAX_S_PER_M = 0.2          # the same per-record path, natively
REPORT_MIN_RATE = 10e6          # off-line replay, records per CPU second
# The observer mode that is `make run`'s, by its loaders' mode.
RUN_MODE_OBSERVER = {"light": "sel", "full": "full"}


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
        self.ps_per_insn = None
        for _, text in matching(lines, "stat", **want):
            words = text.split()
            if words[0] == "clock":
                self.ps_per_insn = int(words[2]) or None
                continue
            fields = {words[i]: int(words[i + 1]) for i in range(2, len(words), 2)}
            if words[0] == "map":
                self.counters = fields
            else:
                self.progs[words[1]] = fields

    def periods(self):
        """Idle periods the BPF side saw: sent or dropped (a lean run sends
        none: its completed ones)."""
        sent = self.counters.get("records", 0) + self.counters.get("dropped", 0)
        return sent or self.counters.get("exits", 0)


def number_after(pattern, text):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"summarize: error: no '{pattern}' in: {text}")
    return float(m.group(1))


def spread(values):
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return {"median": median, "q1": q1, "q3": q3, "min": min(values), "max": max(values),
            "rounds": len(values)}


def fmt_spread(s, fmt):
    return (f"{s['median']:{fmt}} median (quartiles {s['q1']:{fmt}}..{s['q3']:{fmt}}, "
            f"range {s['min']:{fmt}}..{s['max']:{fmt}})")


def phase(lines, **keys):
    """One measure() of guest.sh: pingpong, then periodic on both CPUs."""
    _, pp = one(lines, "out", load="pingpong", **keys)
    start = Snapshot(lines, load="pingpong", at="start", **keys)
    end = Snapshot(lines, load="pingpong", at="end", **keys)
    medians = [number_after(r"median ([0-9.]+) us", t)
               for _, t in matching(lines, "out", load="periodic", **keys)]
    return {
        "round_trips": number_after(r"([0-9]+) round trips in", pp),
        "round_trips_per_s": number_after(r"([0-9.]+) round trips/s", pp),
        "round_trip_mean_us": number_after(r"round trip mean ([0-9.]+) us", pp),
        "round_trip_median_us": number_after(r"median ([0-9.]+) us", pp),
        "idle_periods_per_s": (end.usage - start.usage) / (end.uptime_s - start.uptime_s),
        "lateness_median_us": statistics.mean(medians),
    }


def present_sets(lines):
    """The probe sets the overhead rounds ran (BENCH_PROBE_SETS), in
    PROBE_SETS' order."""
    ran = {k.get("probes") for k, _ in matching(lines, "out", load="pingpong")}
    return tuple(s for s in PROBE_SETS if s in ran)


def overhead(lines):
    """Per round and probe set: the set's figure against probes off."""
    rounds = sorted({int(k["round"]) for k, _ in matching(lines, "out", load="pingpong")
                     if "round" in k})
    per_round = []
    sets = present_sets(lines)
    for r in rounds:
        phases = {s: phase(lines, round=str(r), probes=s) for s in ("off",) + sets}
        off = phases["off"]
        entry = {"round": r, "phases": phases}
        for s in sets:
            on = phases[s]
            entry[s] = {
                "round_trip_median_pct":
                    100 * (on["round_trip_median_us"] / off["round_trip_median_us"] - 1),
                "round_trip_mean_pct":
                    100 * (off["round_trips_per_s"] / on["round_trips_per_s"] - 1),
                "lateness_ratio": on["lateness_median_us"] / off["lateness_median_us"],
                "idle_periods_per_s": on["idle_periods_per_s"],
            }
        per_round.append(entry)
    result = {"rounds": per_round, "off": {
        name: statistics.median(r["phases"]["off"][name] for r in per_round)
        for name in ("idle_periods_per_s", "round_trips_per_s", "round_trip_median_us",
                     "lateness_median_us")}}
    for s in sets:
        result[s] = {name: spread([r[s][name] for r in per_round])
                     for name in ("round_trip_median_pct", "round_trip_mean_pct",
                                  "lateness_ratio", "idle_periods_per_s")}
    return result


def run_time(start, end):
    """BPF run time of every program between two snapshots, in ns."""
    return {p: end.progs[p]["run_time_ns"] - start.progs.get(p, {}).get("run_time_ns", 0)
            for p in end.progs}


def runtime(lines, off_round_trip_us):
    """Per runtime set, with bpf_stats_enabled: BPF time per idle period and
    as a share of pingpong's round trip, probes off and in that phase."""
    result = {}
    ran = {k.get("probes") for k, _ in matching(lines, "snap", part="runtime")}
    for s in (s for s in RUNTIME_SETS if s in ran):
        keys = {"part": "runtime", "probes": s, "load": "pingpong"}
        start = Snapshot(lines, at="start", **keys)
        end = Snapshot(lines, at="end", **keys)
        pp = phase(lines, part="runtime", probes=s)
        ns = run_time(start, end)
        total_ns = sum(ns.values())
        periods = end.periods() - start.periods()
        ns_per_round_trip = total_ns / pp["round_trips"]
        # Guest ns per instruction drift within a boot: instructions do not.
        ps = [x.ps_per_insn for x in (start, end) if x.ps_per_insn]
        insns = total_ns * 1000 / statistics.mean(ps) if ps else None
        result[s] = {
            "run_time_ns": ns,
            "idle_periods": periods,
            "ns_per_idle_period": total_ns / periods if periods else None,
            "ps_per_insn": statistics.mean(ps) if ps else None,
            "insns_per_idle_period": insns / periods if insns and periods else None,
            "idle_periods_per_round_trip": periods / pp["round_trips"],
            "ns_per_round_trip": ns_per_round_trip,
            "round_trip_median_us": pp["round_trip_median_us"],
            "share_of_off_round_trip_pct": ns_per_round_trip / (off_round_trip_us * 10),
            "share_of_round_trip_pct": ns_per_round_trip / (pp["round_trip_median_us"] * 10),
        }
    return result


def level_figures(lines, **keys):
    """Idle periods/s and drops of one load level between its snapshots."""
    start = Snapshot(lines, at="start", **keys)
    end = Snapshot(lines, at="end", **keys)
    seconds = end.uptime_s - start.uptime_s
    return {
        "level": keys["level"],
        "seconds": seconds,
        "idle_periods_per_s": (end.periods() - start.periods()) / seconds,
        "dropped": end.counters["dropped"] - start.counters["dropped"],
    }


def sweep(lines, runs):
    """Per ring-buffer configuration, in the order run: drops per level."""
    configs = []
    for k, _ in matching(lines, "snap", part="sweep", at="start"):
        if k["ringbuf"] not in configs:
            configs.append(k["ringbuf"])
    result = []
    for config in configs:
        levels = [level_figures(lines, ringbuf=config, level=k["level"])
                  for k, _ in matching(lines, "snap", ringbuf=config, at="start")]
        clean = [lv["idle_periods_per_s"] for lv in levels if lv["dropped"] == 0]
        loader = next(r for r in runs if r["run"] == f"sweep-{config}")
        result.append({
            "config": config,
            "levels": levels,
            "dropped": sum(lv["dropped"] for lv in levels),
            "max_drop_free_idle_periods_per_s": max(clean) if clean else None,
            "loader_cpu_s_per_million_records": loader["cpu_s_per_million_records"],
        })
    return result


def default_ringbuf_bytes():
    """The loader's default ring-buffer size, from bpf/idlescope.h."""
    try:
        with open(RINGBUF_HEADER) as f:
            m = re.search(r"IDLESCOPE_RINGBUF_DEFAULT\s+\((\d+)U?\s*<<\s*(\d+)\)", f.read())
    except OSError:
        m = None
    return int(m.group(1)) << int(m.group(2)) if m else None


def config_name(config):
    size = default_ringbuf_bytes()
    size_text = f"{size >> 20} MiB" if size else "default size"
    if config == "default":
        return f"per-CPU, {size_text} (default)"
    if config == "shared":
        return f"one shared, {size_text}"
    return f"per-CPU, {int(config)} B"


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


def run_time_row(name, r):
    insns = r.get("insns_per_idle_period")
    return (name,
            f"{r['ns_per_idle_period'] / 1000:.2f} us"
            + (f" ({insns:.0f} guest instructions)" if insns else "") + " per idle period, "
            f"x{r['idle_periods_per_round_trip']:.2f} per round trip = "
            f"{r['share_of_off_round_trip_pct']:.0f}% of a probes-off round trip, "
            f"{r['share_of_round_trip_pct']:.0f}% of this run's "
            f"({r['round_trip_median_us']:.1f} us median)", "", "")


def probe_rows(ovh, rt):
    """Probe cost per probe set: ratios against probes off, BPF run time."""
    off = ovh["off"]
    rows = []
    for s, name in PROBE_SETS.items():
        if s not in ovh:
            rows.append((f"probe cost, {name}", "not measured (BENCH_PROBE_SETS)", "", ""))
            continue
        o = ovh[s]
        cost = o["round_trip_median_pct"]
        rows.append((f"probe cost, {name}: pingpong round trip",
                     f"{fmt_spread(cost, '+.1f')} %, {cost['rounds']} rounds; probes off: "
                     f"{off['round_trip_median_us']:.1f} us median round trip, "
                     f"{fmt_rate(off['idle_periods_per_s'])} idle periods",
                     f"<= {OVERHEAD_MAX_PCT[s]:.0f}%",
                     verdict(cost["median"] <= OVERHEAD_MAX_PCT[s])))
        rows.append(("  pingpong round trips/s (loader included)",
                     f"{fmt_spread(o['round_trip_mean_pct'], '+.1f')} % mean round trip; "
                     f"{fmt_rate(o['idle_periods_per_s']['median'])} idle periods", "", ""))
        rows.append(("  periodic 1 ms lateness",
                     f"x{fmt_spread(o['lateness_ratio'], '.2f')}; probes off: "
                     f"{off['lateness_median_us']:.1f} us", "", ""))
        rows.append(run_time_row("  BPF run time, all programs", rt[s]))
    if "shared" in rt:
        rows.append(run_time_row("  same, one shared ring buffer", rt["shared"]))
    return rows


def drop_rows(swp, sustain, off_rate):
    """The guest's top idle-period rate and each configuration's drops there."""
    top = max((lv for c in swp for lv in c["levels"]), key=lambda lv: lv["idle_periods_per_s"])
    rows = [("guest's top idle-period rate, with a loader",
             f"{fmt_rate(top['idle_periods_per_s'])} (level {top['level']} of "
             f"{' '.join(lv['level'] for lv in swp[0]['levels'])}); probes off: "
             f"{fmt_rate(off_rate)} (pingpong)", "", "")]
    for c in swp:
        own = max(c["levels"], key=lambda lv: lv["idle_periods_per_s"])
        c["top_level"] = own["level"]
        rows.append((f"drops, {config_name(c['config'])}",
                     f"at its top level {own['level']}: {fmt_rate(own['idle_periods_per_s'])}, "
                     f"{own['dropped']} dropped; drop-free up to "
                     f"{fmt_rate(c['max_drop_free_idle_periods_per_s'])}; {c['dropped']} dropped "
                     f"over {len(c['levels'])} levels; loader "
                     f"{c['loader_cpu_s_per_million_records']:.1f} s CPU per 1M records",
                     "", ""))
    swept = next((c for c in swp if c["config"] == sustain["config"]), None)
    note = ""
    if swept and swept["top_level"] != sustain["level"]:
        note = f" (its top level in the sweep was {swept['top_level']})"
    rows.append((f"{config_name(sustain['config'])}: {sustain['level']} for "
                 f"{sustain['seconds']:.0f} s",
                 f"{sustain['dropped']} dropped at {fmt_rate(sustain['idle_periods_per_s'])}"
                 + note, "0 drops at the top rate, default configuration",
                 verdict(sustain["dropped"] == 0 and sustain["config"] == "default")))
    return rows


def observer_rows(obs, by_mode, default_mode):
    """The observer effect's verdicts and the loaders' CPU by mode."""
    rows = []
    if obs:
        v = verdicts(obs, default_mode)
        obs["verdicts"] = v
        outside = "; ".join(v["outside"][:4]) + (" ..." if len(v["outside"]) > 4 else "")
        rows.append((f"observer effect, {default_mode} (make run's) vs detached",
                     f"{v['within']} of {v['cells']} kernel above/below % and workload "
                     "figures within their 95% interval of no difference"
                     + (f"; outside: {outside}" if v["outside"] else ""),
                     "all", verdict(v["cells"] and v["within"] == v["cells"])))
        if v["sleepers_overrun_ratio"] is not None:
            rows.append(("  100 us sleepers' overruns vs detached",
                         f"x{v['sleepers_overrun_ratio']:.2f} (worst governor)", "<= 2x",
                         verdict(v["sleepers_overrun_ratio"] <= 2.0)))
    full, light = by_mode.get("full"), by_mode.get(default_mode)
    for m, acc in sorted(by_mode.items()):
        rows.append((f"loader CPU per 1M records, observer mode {m}",
                     f"{acc['cpu_s_per_million_records']:.1f} s ({acc['records']} records; "
                     "guest, emulated)", "", ""))
    if full and light and default_mode != "full":
        ratio = light["cpu_s_per_million_records"] / full["cpu_s_per_million_records"]
        rows.append((f"  {default_mode} (make run's) against full", f"x{ratio:.3f}",
                     f"<= {LIGHT_MAX_CPU_RATIO:g}", verdict(ratio <= LIGHT_MAX_CPU_RATIO)))
    return rows


def loader_rows(runs, reports):
    """The loader's cost in the guest, the off-line replay on the host."""
    rows = []
    judged = next((r for r in runs if r["run"] == "sweep-default"), runs[-1])
    per_m = [r["cpu_s_per_million_records"] for r in runs if r["records"]]
    rows.append(("loader CPU per 1M records, guest",
                 f"{judged['cpu_s_per_million_records']:.1f} s ({judged['run']}, "
                 f"{judged['records']} records; all runs {min(per_m):.1f}..{max(per_m):.1f} s; "
                 f"startup {judged['startup_cpu_s']:.1f} s; emulated)", "", ""))
    host_per_m = [r["cpu_s"] / r["records"] * 1e6 for r in reports]
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
    return rows


def loader_ready_text(boot_to_loader_s, ready, clock_mode):
    """The boot's time to a ready loader: host time only where guest time
    follows it.  Under fixed or virtual, guest time jumps over idle time, so
    the host wall of the boot minus guest time says nothing (it came out
    negative): the guest's uptime is the one figure."""
    if clock_mode in ("host", "virtual-sleep"):
        return f"{boot_to_loader_s:.1f} s (kernel uptime {ready.uptime_s:.1f} s)"
    return (f"{ready.uptime_s:.1f} s of guest time (kernel uptime; the host time is not "
            f"recorded, and guest time jumps over idle under the {clock_mode} clock)")


def build_rows(builds, boot_to_loader_s, ready, clock_mode):
    cold = builds.get("kernel_cold", {})
    return [("kernel build, on a cache miss",
             f"{fmt_s(cold.get('seconds'))} ({cold.get('source', '')})", "", ""),
            ("kernel build, cached", fmt_s(builds["kernel_cached"]["seconds"]), "", ""),
            ("initramfs build, clean", fmt_s(builds["initramfs_clean"]["seconds"]), "", ""),
            ("boot to loader ready", loader_ready_text(boot_to_loader_s, ready, clock_mode),
             "", "")]


def print_table(rows):
    header = ("measure", "result", "target", "met")
    widths = [max(len(r[i]) for r in (header,) + tuple(rows)) for i in range(4)]
    for row in (header,) + tuple(rows):
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: summarize.py GUEST_RAW HOST_RAW BENCH_JSON")
    guest = parse(sys.argv[1])
    builds, reports, boot_wall_s = host_figures(parse(sys.argv[2]))

    ready = Snapshot(guest, run="warmup", at="ready")
    end, _ = one(guest, "time", at="end")
    boot_to_loader_s = boot_wall_s - (float(end["uptime_s"]) - ready.uptime_s)
    clock, _ = one(guest, "clock")
    run_mode, _ = one(guest, "mode")
    default_mode = RUN_MODE_OBSERVER.get(run_mode["run"], run_mode["run"])
    attached = {s: sorted({t for _, t in matching(guest, "probes", set=s)}) for s in RUNTIME_SETS}

    ovh = overhead(guest)
    rt = runtime(guest, ovh["off"]["round_trip_median_us"])
    runs = loaders(guest)
    swp = sweep(guest, runs)
    level, _ = one(guest, "snap", part="sustain", at="start")
    sustain = level_figures(guest, part="sustain", config=level["config"], level=level["level"])
    sustain["config"] = level["config"]
    rows = [("guest clock", f"{clock['mode'] or 'unknown'} (idlescope.clock= of the guest)",
             "", "")]
    rows += probe_rows(ovh, rt)
    rows += drop_rows(swp, sustain, ovh["off"]["idle_periods_per_s"])
    obs = observer(guest)
    by_mode = loader_cpu(guest, runs)
    rows += observer_rows(obs, by_mode, default_mode)
    rows += loader_rows(runs, reports)
    rows += build_rows(builds, boot_to_loader_s, ready, clock["mode"])
    print_table(rows)
    for s, lines in attached.items():
        if not lines:
            continue
        print(f"probe set {s} ({RUNTIME_SETS[s]}), the loader said: {' | '.join(lines)}")
    if obs:
        print_observer(obs, default_mode)

    bench = {
        "schema_version": 3,
        "time_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "guest_cpus": GUEST_CPUS,
        "clock": clock["mode"],
        "probe_sets_attached": attached,
        "probe_overhead": ovh,
        "bpf_run_time": rt,
        "drop_free": swp,
        "sustain": sustain,
        "loader_runs": runs,
        "make_run_mode": run_mode["run"],
        "observer": obs,
        "loader_cpu_by_observer_mode": by_mode,
        "offline_report": reports,
        "build": builds,
        "boot_to_loader_s": (boot_to_loader_s if clock["mode"] in ("host", "virtual-sleep")
                             else None),
        "loader_ready_uptime_s": ready.uptime_s,
        "boot_wall_s": boot_wall_s,
        "targets": [{"measure": r[0], "result": r[1], "target": r[2], "met": r[3] == "yes"}
                    for r in rows if r[2]],
    }
    with open(sys.argv[3], "w") as f:
        json.dump(bench, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
