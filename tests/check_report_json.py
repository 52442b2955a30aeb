#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check an idlescope report.json against schema_version 3.

usage: check_report_json.py REPORT.json... [--expect PATH=VALUE ...]

Checks the key order of every object, the types of every value, and the
invariants the numbers must satisfy (histograms sum to their sample counts,
per-CPU stats sum to all_cpus, factor counts grow with F, ...).  Each
--expect compares one value of every REPORT.json, PATH being dotted keys
and [index], e.g. results[0].all_cpus.within_factor[0].count=3 (VALUE is
parsed as JSON, falling back to a plain string).

Sums of nanoseconds saturate at 2^64 - 1 (a crafted record file can hold
any residency): a sum is checked against min(sum of its parts, 2^64 - 1).
What only a record file's trailer knows (duration, drops, ring buffer,
sysfs count) is null when a file had none.

Exit status 0 when every check passes; otherwise one line per problem on
stderr and exit status 1.  python3 stdlib only.  See docs/report-schema.md.
"""
import json
import os
import re
import sys

TOP_KEYS = [
    "schema_version", "tool", "kernel_release", "hz", "cpuidle_driver",
    "clock_mode", "clock_args", "guest_ps_per_instruction", "exit_cost", "timer_lateness", "capabilities", "records_cut_short",
    "start_time_utc",
    "duration_s", "governors", "workloads", "predictions_available", "reconstruction",
    "ringbuf_size_bytes", "records_produced", "dropped_records",
    "sysfs_usage_delta", "sysfs_above_delta", "sysfs_below_delta",
    "aggregator_rejected_records", "per_cpu_records", "skipped_programs",
    "factors", "seed_reference", "shadow_models", "shadow_replay_resets",
    "state_table", "exit_spent", "boots", "excluded_runs", "runs", "headline", "headline_logical", "seed_method", "results",
    "across_governors", "workload_figures", "power_table", "why",
]
FIGURE_KEYS = ["workload", "governor", "figure", "unit", "runs", "mean", "values"]
RESULT_KEYS = ["workload", "governor", "governor_id", "all_cpus", "per_cpu"]
ACROSS_KEYS = ["workload", "governors", "all_governors"]
STATS_KEYS = [
    "samples", "residency_sum_ns", "residency_min_ns", "residency_max_ns",
    "predicted_samples", "predicted_sum_ns", "within_factor",
    "state_entered_samples", "state_chosen_samples", "state_residency_ns",
    "invalid_state_samples",
    "miss_above_samples", "miss_below_samples", "crosscheck_samples",
    "too_deep_samples", "too_shallow_samples", "ideal_state", "miss_above",
    "miss_below", "residency_us_hist",
    "predicted_us_hist", "ratio_log2_hist", "shadow",
]
SHADOW_KEYS = ["model", "samples", "excluded_samples", "within_factor", "ratio_log2_hist",
               "agree_checked", "agree_samples", "ideal_state", "state_agree_checked",
               "state_agree_samples"]
# A shadow's ideal_state: the chosen state's score, without the time shares.
SHADOW_IDEAL_KEYS = ["samples", "hit_samples", "too_deep_samples", "too_shallow_samples",
                     "hit", "too_deep", "too_shallow"]
# The counts of a shadow entry that add up across CPUs.
SHADOW_COUNTS = ("samples", "excluded_samples", "agree_checked", "agree_samples",
                 "state_agree_checked", "state_agree_samples")
SEED_KEYS = ["label", "before_pct", "patch1_pct", "patch12_pct"]
# Members that add up across CPUs (min/max combine differently; the shadow
# array is summed entry by entry, see add_shadows()).
ADDITIVE = [k for k in STATS_KEYS if k not in
            ("residency_min_ns", "residency_max_ns", "shadow", "ideal_state",
             "miss_above", "miss_below")]
IDEAL_KEYS = ["samples", "hit_samples", "too_deep_samples", "too_shallow_samples",
              "idle_ns", "shallow_idle_ns", "hit", "too_deep", "too_shallow",
              "shallow_time"]
CI_KEYS = ["pct", "lo", "hi"]
HEADLINE_KEYS = ["workload", "events", "host_timed", "governor", "periods", "predicted",
                 "late_sleeps", "excluded_boots", "within_2x", "ideal_hit", "too_deep",
                 "too_shallow", "boots", "interval", "too_few_independent_samples",
                 "per_boot", "regimes"]
SEED_METHOD_KEYS = ["workload", "host_governor", "periods", "next_timer_wrap_samples",
                    "columns"]
SEED_COLUMN_KEYS = ["column", "model", "samples", "excluded_samples", "within_factor"]
WHY_KEYS = ["workload", "governor", "periods", "wake_known", "hits", "intercepts",
            "intercept_share", "wakeups", "other_periods", "tick", "energy"]
WAKEUP_KEYS = ["ended_by", "source", "periods", "residency_ns", "resched", "predicted",
               "within_2x_samples", "within_2x", "ideal_samples", "ideal_hit_samples",
               "too_deep_samples", "too_shallow_samples", "ideal_hit", "miss_above_samples",
               "miss_below_samples"]
TICK_KEYS = ["stopped", "stopped_short", "stopped_short_share", "kept", "kept_needless",
             "kept_needless_share", "kept_unknown"]
ENERGY_KEYS = ["periods", "energy_uj", "oracle_energy_uj", "excess", "exit_latency_ns",
               "oracle_exit_latency_ns", "idle_ns", "shallow_idle_ns", "shallower", "deeper"]

def source_lists():
    """The governors (bpf/idlescope.h, none first) and how many models there are
    (loader/models/registry.h), read from the tree this script is in, or
    from $IDLESCOPE_SRC: the one place of each list."""
    top = os.environ.get("IDLESCOPE_SRC") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    with open(os.path.join(top, "bpf", "idlescope.h")) as f:
        text = f.read()
    table = text[text.index("#define IDLESCOPE_CPUIDLE_GOVERNORS(X)"):]
    table = table[:table.index("#define IDLESCOPE_GOVERNORS(X)")]
    governors = ["none"] + re.findall(r"^\s*X\(\w+,\s*(\w+),", table, re.M)
    with open(os.path.join(top, "loader", "models", "registry.h")) as f:
        text = f.read()
    table = text[text.index("#define IDLESCOPE_MODELS(X)"):]
    table = table[:table.index("\n\n")]
    return governors, len(re.findall(r"^\s*X\(", table, re.M))


GOVERNORS, MAX_SHADOWS = source_lists()
FACTOR_LABELS = ["1.5x", "2x", "4x", "10x", "100x"]
MAX_STATES = 10
RATIO_LOG2_MIN, RATIO_LOG2_MAX = -16, 16
U64_MAX = (1 << 64) - 1
# Sums of nanoseconds, which saturate (loader/stats/sat.h).
SATURATING = ("residency_sum_ns", "predicted_sum_ns", "state_residency_ns")
# Top-level values only a record file's trailer knows: null without it.
TRAILER_KEYS = ("ringbuf_size_bytes", "dropped_records", "sysfs_usage_delta",
                "sysfs_above_delta", "sysfs_below_delta")

errors = []
# $.shadow_models, once read: every stats object's "shadow" follows it.
shadow_models = []


def fail(where, msg):
    errors.append(f"{where}: {msg}")


def is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= U64_MAX


def check_keys(where, obj, keys):
    if not isinstance(obj, dict):
        fail(where, "not an object")
        return False
    if list(obj.keys()) != keys:
        fail(where, f"keys {list(obj.keys())} != {keys}")
        return False
    return True


def check_log2_hist(where, hist, total):
    if not isinstance(hist, list):
        fail(where, "not an array")
        return
    if hist and hist[-1].get("count", 0) == 0:
        fail(where, "trailing empty bucket (must end at the highest non-empty)")
    for k, bucket in enumerate(hist):
        w = f"{where}[{k}]"
        if not check_keys(w, bucket, ["low_us", "high_us", "count"]):
            continue
        low = 0 if k == 0 else 1 << k
        high = (1 << (k + 1)) - 1
        if bucket["low_us"] != low or bucket["high_us"] != high:
            fail(w, f"range {bucket['low_us']}..{bucket['high_us']} != {low}..{high}")
        if not is_count(bucket["count"]):
            fail(w, "count is not a u64")
    if sum(b.get("count", 0) for b in hist) != total:
        fail(where, f"counts sum to {sum(b.get('count', 0) for b in hist)}, expected {total}")


def check_within_factor(where, wf, total):
    """Labels in order, counts u64, growing with F, at most total."""
    if not isinstance(wf, list) or [e.get("label") if isinstance(e, dict) else None
                                    for e in wf] != FACTOR_LABELS:
        fail(where, f"labels are not {FACTOR_LABELS}")
        return
    for i, e in enumerate(wf):
        if check_keys(f"{where}[{i}]", e, ["label", "count"] + CI_KEYS):
            check_ci(f"{where}[{i}]", {k: e[k] for k in CI_KEYS}, e["count"], total)
    counts = [e.get("count") for e in wf]
    if not all(is_count(c) for c in counts):
        fail(where, "counts are not u64")
    elif counts != sorted(counts) or counts[-1] > total:
        fail(where, f"counts {counts} must grow with F and stay <= {total}")


def check_ci(where, ci, part=None, whole=None):
    """A share in %: null without samples, else lo <= pct <= hi in 0..100
    (null bounds: too few batches for an interval); pct = part / whole."""
    if not check_keys(where, ci, CI_KEYS):
        return
    pct, lo, hi = ci["pct"], ci["lo"], ci["hi"]
    if pct is None:
        if whole:
            fail(where, f"pct null with {whole} samples")
        return
    if not 0 <= pct <= 100:
        fail(where, f"pct {pct} outside 0..100")
    if (lo is None) != (hi is None) or (lo is not None and not 0 <= lo <= pct <= hi <= 100):
        fail(where, f"need 0 <= lo {lo} <= pct {pct} <= hi {hi} <= 100")
    if whole and abs(pct - 100.0 * part / whole) > 1e-4 * max(pct, 1):
        fail(where, f"pct {pct} != 100 * {part} / {whole}")


def check_ideal(where, st):
    ideal = st["ideal_state"]
    if not check_keys(where, ideal, IDEAL_KEYS):
        return
    n = ideal["samples"]
    if not all(is_count(ideal[k]) for k in IDEAL_KEYS[:6]):
        fail(where, "counts are not u64")
        return
    if n > st["samples"]:
        fail(where, "more periods scored than samples")
    if ideal["hit_samples"] + ideal["too_deep_samples"] + ideal["too_shallow_samples"] != n:
        fail(where, "hit + too deep + too shallow != samples")
    if ideal["shallow_idle_ns"] > ideal["idle_ns"]:
        fail(where, "shallow_idle_ns > idle_ns")
    check_ci(f"{where}.hit", ideal["hit"], ideal["hit_samples"], n)
    check_ci(f"{where}.too_deep", ideal["too_deep"], ideal["too_deep_samples"], n)
    check_ci(f"{where}.too_shallow", ideal["too_shallow"], ideal["too_shallow_samples"], n)
    check_ci(f"{where}.shallow_time", ideal["shallow_time"])


def check_shadow_ideal(where, sh, n):
    """A model's chosen states against the ideal ones: every scored period
    is a hit, too deep or too shallow, and scored and excluded periods are
    the stats' periods at most."""
    ideal = sh["ideal_state"]
    if not check_keys(where, ideal, SHADOW_IDEAL_KEYS):
        return
    if not all(is_count(ideal[k]) for k in SHADOW_IDEAL_KEYS[:4]):
        fail(where, "counts are not u64")
        return
    m = ideal["samples"]
    if ideal["hit_samples"] + ideal["too_deep_samples"] + ideal["too_shallow_samples"] != m:
        fail(where, "hit + too deep + too shallow != samples")
    if m + sh["excluded_samples"] > n:
        fail(where, f"samples {m} + excluded > stats samples {n}")
    check_ci(f"{where}.hit", ideal["hit"], ideal["hit_samples"], m)
    check_ci(f"{where}.too_deep", ideal["too_deep"], ideal["too_deep_samples"], m)
    check_ci(f"{where}.too_shallow", ideal["too_shallow"], ideal["too_shallow_samples"], m)


def check_ratio_hist(where, hist, total):
    if not isinstance(hist, list) or len(hist) != RATIO_LOG2_MAX - RATIO_LOG2_MIN + 1:
        fail(where, "not an array of 33 buckets")
        return
    for i, bucket in enumerate(hist):
        w = f"{where}[{i}]"
        if check_keys(w, bucket, ["log2_low", "count"]):
            if bucket["log2_low"] != RATIO_LOG2_MIN + i:
                fail(w, f"log2_low {bucket['log2_low']} != {RATIO_LOG2_MIN + i}")
            if not is_count(bucket["count"]):
                fail(w, "count is not a u64")
    if sum(b.get("count", 0) for b in hist) != total:
        fail(where, f"counts do not sum to {total}")


def check_shadows(where, shadows, n):
    """One entry per $.shadow_models, in order; n = the stats' samples."""
    if not isinstance(shadows, list):
        fail(where, "not an array")
        return
    if [s.get("model") if isinstance(s, dict) else None
            for s in shadows] != shadow_models:
        fail(where, f"models are not $.shadow_models {shadow_models}")
        return
    for i, sh in enumerate(shadows):
        w = f"{where}[{i}]"
        if not check_keys(w, sh, SHADOW_KEYS):
            continue
        bad = [k for k in SHADOW_COUNTS if not is_count(sh[k])]
        if bad:
            fail(w, f"{bad} are not u64")
            continue
        # A model predicts at most once per period, and is checked at
        # most once per period.
        if sh["samples"] + sh["excluded_samples"] > n:
            fail(w, f"samples {sh['samples']} + excluded > stats samples {n}")
        for a, c in (("agree_samples", "agree_checked"),
                     ("state_agree_samples", "state_agree_checked")):
            if not sh[a] <= sh[c] <= n:
                fail(w, f"need {a} {sh[a]} <= {c} {sh[c]} <= samples {n}")
        check_shadow_ideal(f"{w}.ideal_state", sh, n)
        check_within_factor(f"{w}.within_factor", sh["within_factor"], sh["samples"])
        check_ratio_hist(f"{w}.ratio_log2_hist", sh["ratio_log2_hist"], sh["samples"])


def check_stats(where, st):
    if not check_keys(where, st, STATS_KEYS):
        return
    for key in STATS_KEYS:
        v = st[key]
        if isinstance(v, (list, dict)):
            continue
        if not is_count(v):
            fail(f"{where}.{key}", f"{v!r} is not a u64")
            return
    n, npred = st["samples"], st["predicted_samples"]
    if n == 0:
        fail(where, "stats object with no samples")
    if npred > n:
        fail(where, "predicted_samples > samples")
    if n and not st["residency_min_ns"] <= st["residency_max_ns"]:
        fail(where, "residency_min_ns > residency_max_ns")

    check_within_factor(f"{where}.within_factor", st["within_factor"], npred)

    for key in ("state_entered_samples", "state_chosen_samples", "state_residency_ns"):
        arr = st[key]
        if not isinstance(arr, list) or len(arr) != MAX_STATES or \
                not all(is_count(x) for x in arr):
            fail(f"{where}.{key}", f"not {MAX_STATES} counts")
            return
    # Periods in an invalid state have no state to count their time in.
    if min(sum(st["state_residency_ns"]), U64_MAX) > st["residency_sum_ns"]:
        fail(where, "state_residency_ns sums to more than residency_sum_ns")
    if isinstance(st["state_entered_samples"], list) and \
            sum(st["state_entered_samples"]) + st["invalid_state_samples"] != n:
        fail(where, "state_entered_samples + invalid_state_samples != samples")
    for key in ("miss_above_samples", "miss_below_samples", "crosscheck_samples"):
        if st[key] > n:
            fail(f"{where}.{key}", "exceeds samples")
    if st["too_deep_samples"] + st["too_shallow_samples"] > st["crosscheck_samples"]:
        fail(where, "too_deep + too_shallow > crosscheck_samples")

    check_ideal(f"{where}.ideal_state", st)
    check_ci(f"{where}.miss_above", st["miss_above"], st["miss_above_samples"], n)
    check_ci(f"{where}.miss_below", st["miss_below"], st["miss_below_samples"], n)
    check_log2_hist(f"{where}.residency_us_hist", st["residency_us_hist"], n)
    check_log2_hist(f"{where}.predicted_us_hist", st["predicted_us_hist"], npred)
    check_ratio_hist(f"{where}.ratio_log2_hist", st["ratio_log2_hist"], npred)
    check_shadows(f"{where}.shadow", st["shadow"], n)


def add_stats(total, st):
    """total += st for the additive members, as plain numbers / lists."""
    for key in ADDITIVE:
        v = st[key]
        if key.endswith("_hist") or key == "within_factor":
            counts = [b["count"] for b in v]
            old = total.setdefault(key, [])
            old.extend([0] * (len(counts) - len(old)))
            for i, c in enumerate(counts):
                old[i] += c
        elif isinstance(v, list):
            old = total.setdefault(key, [0] * len(v))
            for i, c in enumerate(v):
                old[i] += c
        else:
            total[key] = total.get(key, 0) + v
    add_shadows(total.setdefault("shadow", {}), st["shadow"])


def add_shadows(total, shadows):
    """total[model] += every count of that model's entry."""
    for sh in shadows:
        t = total.setdefault(sh["model"], {})
        for key in SHADOW_COUNTS:
            t[key] = t.get(key, 0) + sh[key]
        for key in SHADOW_IDEAL_KEYS[:4]:
            t["ideal_" + key] = t.get("ideal_" + key, 0) + sh["ideal_state"][key]
        for key in ("within_factor", "ratio_log2_hist"):
            counts = [b["count"] for b in sh[key]]
            old = t.setdefault(key, [0] * len(counts))
            for i, c in enumerate(counts):
                old[i] += c


def check_result(where, res):
    if not check_keys(where, res, RESULT_KEYS):
        return
    if not isinstance(res["workload"], str):
        fail(f"{where}.workload", "not a string")
    if res["governor"] not in GOVERNORS or \
            GOVERNORS.index(res["governor"]) != res["governor_id"]:
        fail(where, f"governor {res['governor']!r} / id {res['governor_id']!r} mismatch")
    check_stats(f"{where}.all_cpus", res["all_cpus"])
    per_cpu = res["per_cpu"]
    if not isinstance(per_cpu, list) or not per_cpu:
        fail(f"{where}.per_cpu", "not a non-empty array")
        return
    total, mins, maxs, cpus = {}, [], [], []
    for i, pc in enumerate(per_cpu):
        w = f"{where}.per_cpu[{i}]"
        if not isinstance(pc, dict) or list(pc.keys())[:1] != ["cpu"]:
            fail(w, "must start with \"cpu\"")
            return
        stats = dict(pc)
        cpus.append(stats.pop("cpu"))
        check_stats(w, stats)
        if errors:
            return
        add_stats(total, stats)
        mins.append(stats["residency_min_ns"])
        maxs.append(stats["residency_max_ns"])
    if cpus != sorted(set(cpus)):
        fail(f"{where}.per_cpu", "cpus not unique and ascending")
    check_sum(f"{where}.all_cpus", "per_cpu", total, mins, maxs, res["all_cpus"])


def check_sum(where, parts_name, total, mins, maxs, whole):
    """whole (a stats object) must be total, the add_stats() of its parts."""
    expect = {}
    add_stats(expect, whole)
    # Trailing zero buckets may differ in length; compare padded.
    for key in ADDITIVE:
        a, b = total.get(key), expect.get(key)
        if isinstance(a, list):
            width = max(len(a), len(b))
            a, b = a + [0] * (width - len(a)), b + [0] * (width - len(b))
        if key in SATURATING:
            a = [min(x, U64_MAX) for x in a] if isinstance(a, list) else min(a, U64_MAX)
        if a != b:
            fail(f"{where}.{key}", f"{b} != sum over {parts_name} {a}")
    if total.get("shadow") != expect.get("shadow"):
        fail(f"{where}.shadow",
             f"{expect.get('shadow')} != sum over {parts_name} {total.get('shadow')}")
    if min(mins) != whole["residency_min_ns"] or max(maxs) != whole["residency_max_ns"]:
        fail(where, f"min/max are not those of the {parts_name}")


def check_across_governors(doc):
    """One entry per workload of results, summing that workload's results."""
    results = [r for r in doc["results"] if isinstance(r, dict)]
    workloads = list(dict.fromkeys(r.get("workload") for r in results))
    entries = doc["across_governors"]
    if not isinstance(entries, list) or \
            [e.get("workload") if isinstance(e, dict) else None for e in entries] != workloads:
        fail("$.across_governors", f"workloads are not those of results, in order: {workloads}")
        return
    for i, e in enumerate(entries):
        where = f"$.across_governors[{i}]"
        if not check_keys(where, e, ACROSS_KEYS):
            continue
        mine = [r for r in results if r.get("workload") == e["workload"]]
        if e["governors"] != [r.get("governor") for r in mine]:
            fail(f"{where}.governors", "not the workload's governors in results, in order")
        check_stats(f"{where}.all_governors", e["all_governors"])
        if errors:
            return
        total = {}
        for r in mine:
            add_stats(total, r["all_cpus"])
        check_sum(f"{where}.all_governors", "results' all_cpus", total,
                  [r["all_cpus"]["residency_min_ns"] for r in mine],
                  [r["all_cpus"]["residency_max_ns"] for r in mine], e["all_governors"])


def check_workload_figures(doc):
    """Each cell's runs count its values and its mean is theirs; no cell twice."""
    seen = set()
    for i, e in enumerate(doc["workload_figures"]):
        where = f"$.workload_figures[{i}]"
        if not check_keys(where, e, FIGURE_KEYS):
            continue
        if e["governor"] not in GOVERNORS:
            fail(where, f"unknown governor {e['governor']!r}")
        values = e["values"]
        if not isinstance(values, list) or not values or \
                not all(isinstance(v, (int, float)) for v in values):
            fail(where, "values is not a non-empty array of numbers")
            continue
        if e["runs"] != len(values):
            fail(where, f"runs {e['runs']} != {len(values)} values")
        # Each value divided first: finite values near the largest double
        # have a finite mean (docs/report-schema.md).
        mean = sum(v / len(values) for v in values)
        if not isinstance(e["mean"], (int, float)) or \
                abs(e["mean"] - mean) > 1e-5 * max(1.0, abs(mean)):
            fail(where, "mean is not the values' mean")
        key = (e["workload"], e["governor"], e["figure"])
        if key in seen:
            fail(where, f"{key} given twice")
        seen.add(key)


def check_exit_spent(doc):
    """One entry per state that spent an exit, in state order, p50 <= p99 <= max."""
    last = -1
    for i, e in enumerate(doc["exit_spent"]):
        w = f"$.exit_spent[{i}]"
        if not check_keys(w, e, ["state", "exit_latency_ns", "periods", "p50_ns", "p99_ns",
                                 "max_ns"]):
            continue
        if not all(is_count(e[k]) for k in e):
            fail(w, "not all u64")
        elif e["state"] <= last or e["state"] >= len(doc["state_table"]):
            fail(w, "state out of order or not in state_table")
        elif e["exit_latency_ns"] != doc["state_table"][e["state"]]["exit_latency_ns"]:
            fail(w, "exit_latency_ns is not the state table's")
        elif not (e["periods"] > 0 and e["p50_ns"] <= e["p99_ns"] <= e["max_ns"]):
            fail(w, "no periods, or p50 > p99 > max")
        else:
            last = e["state"]


def check_excluded_runs(doc):
    """Each run left out: a boot of the report, a known governor, a reason."""
    nr_boots = max(len(doc["boots"]), 1)
    seen = set()
    for i, x in enumerate(doc["excluded_runs"]):
        w = f"$.excluded_runs[{i}]"
        if not check_keys(w, x, ["boot", "boot_id", "governor", "workload", "reason"]):
            continue
        if not is_count(x["boot"]) or x["boot"] >= nr_boots:
            fail(w, "boot is not one of the report's")
        elif doc["boots"] and doc["boots"][x["boot"]]["boot_id"] != x["boot_id"]:
            fail(w, "boot_id is not its boot's")
        elif x["governor"] not in doc["governors"] or not x["reason"]:
            fail(w, "an unknown governor or no reason")
        key = (x["boot"], x["governor"], x["workload"])
        if key in seen:
            fail(w, "the same run left out twice")
        seen.add(key)


def check_runs(doc):
    """One entry per record file: a boot of the report, a known governor."""
    for i, r in enumerate(doc["runs"]):
        w = f"$.runs[{i}]"
        if not check_keys(w, r, ["boot", "seed", "governor", "position",
                                 "guest_ps_per_instruction_start",
                                 "guest_ps_per_instruction_end"]):
            continue
        if not isinstance(r["boot"], int) or r["boot"] < -1 or \
                r["boot"] >= max(len(doc["boots"]), 1):
            fail(w, "boot is not one of the report's")
        elif not isinstance(r["seed"], int) or r["seed"] < -1:
            fail(w, "seed is neither -1 nor a seed")
        elif r["governor"] != "none" and r["governor"] not in doc["governors"]:
            fail(w, "an unknown governor")
        elif not all(is_count(r[k]) for k in ("position", "guest_ps_per_instruction_start",
                                              "guest_ps_per_instruction_end")):
            fail(w, "position or guest speed not a u64")


def check_top(doc):
    if not check_keys("$", doc, TOP_KEYS):
        return
    if doc["schema_version"] != 3:
        fail("$.schema_version", f"{doc['schema_version']!r} != 3")
    if doc["tool"] != "idlescope":
        fail("$.tool", "not idlescope")
    if doc["start_time_utc"] != "unknown" and \
            not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc["start_time_utc"]):
        fail("$.start_time_utc", "neither UTC ISO 8601 (YYYY-MM-DDTHH:MM:SSZ) nor unknown")
    trailer = doc["duration_s"] is not None
    if trailer and (not isinstance(doc["duration_s"], (int, float)) or doc["duration_s"] < 0):
        fail("$.duration_s", "neither null nor a non-negative number")
    for key in ("governors", "workloads"):
        if not all(isinstance(s, str) for s in doc[key]):
            fail(f"$.{key}", "not an array of strings")
    if not isinstance(doc["predictions_available"], bool):
        fail("$.predictions_available", "not a boolean")
    rc = doc["reconstruction"]
    if check_keys("$.reconstruction", rc, ["reconstructed", "unresolved", "checked", "agreed"]):
        if not all(is_count(rc[k]) for k in rc):
            fail("$.reconstruction", "not all u64")
        elif rc["agreed"] > rc["checked"]:
            fail("$.reconstruction", "more agreed than checked")
    for key in ("ringbuf_size_bytes", "records_produced", "dropped_records",
                "sysfs_usage_delta", "sysfs_above_delta", "sysfs_below_delta",
                "aggregator_rejected_records"):
        if key in TRAILER_KEYS and not trailer:
            if doc[key] is not None:
                fail(f"$.{key}", "not null with duration_s null (no trailer)")
        elif not is_count(doc[key]):
            fail(f"$.{key}", "not a u64")
    produced = dropped = 0
    for i, pc in enumerate(doc["per_cpu_records"]):
        if check_keys(f"$.per_cpu_records[{i}]", pc,
                      ["cpu", "records_produced", "dropped_records"]):
            produced += pc["records_produced"]
            if trailer:
                dropped += pc["dropped_records"]
            elif pc["dropped_records"] is not None:
                fail(f"$.per_cpu_records[{i}]", "dropped_records not null without a trailer")
    if not trailer:
        dropped = None
    elif dropped is not None:
        dropped = min(dropped, U64_MAX)
    if (min(produced, U64_MAX), dropped) != (doc["records_produced"], doc["dropped_records"]):
        fail("$", "records_produced / dropped_records != sums of per_cpu_records")
    for i, sp in enumerate(doc["skipped_programs"]):
        check_keys(f"$.skipped_programs[{i}]", sp, ["name", "reason"])
    if [f.get("label") for f in doc["factors"]] != FACTOR_LABELS:
        fail("$.factors", f"labels are not {FACTOR_LABELS}")
    for f in doc["factors"]:
        if f["factor"] != f["num"] / f["den"]:
            fail("$.factors", f"{f['label']}: factor != num/den")
    check_seed_reference(doc["seed_reference"])
    names = doc["shadow_models"]
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names) \
            or len(set(names)) != len(names) or len(names) > MAX_SHADOWS:
        fail("$.shadow_models", f"not up to {MAX_SHADOWS} distinct non-empty names")
    else:
        shadow_models[:] = names
    if not is_count(doc["shadow_replay_resets"]):
        fail("$.shadow_replay_resets", "not a u64")
    for i, s in enumerate(doc["state_table"]):
        if check_keys(f"$.state_table[{i}]", s, ["state", "target_residency_ns",
                                                  "exit_latency_ns", "disabled"]):
            if s["state"] != i:
                fail(f"$.state_table[{i}]", "state index out of order")
    check_exit_spent(doc)
    seen = set()
    for i, res in enumerate(doc["results"]):
        check_result(f"$.results[{i}]", res)
        key = (res.get("workload"), res.get("governor"))
        if key in seen:
            fail(f"$.results[{i}]", f"duplicate workload x governor {key}")
        seen.add(key)
    if not errors:
        check_across_governors(doc)
    check_excluded_runs(doc)
    check_runs(doc)
    if not errors:
        check_headline(doc)
    check_workload_figures(doc)
    if not errors:
        check_why(doc)
    for i, sm in enumerate(doc["seed_method"]):
        w = f"$.seed_method[{i}]"
        if check_keys(w, sm, SEED_METHOD_KEYS):
            for c, col in enumerate(sm["columns"]):
                if check_keys(f"{w}.columns[{c}]", col, SEED_COLUMN_KEYS):
                    for k, e in enumerate(col["within_factor"]):
                        check_keys(f"{w}.columns[{c}].within_factor[{k}]", e,
                                   ["factor"] + CI_KEYS + ["seed_pct"])


HEADLINE_METRICS = ["within_2x", "ideal_hit", "too_deep", "too_shallow"]
PER_BOOT_KEYS = ["boot", "periods"] + HEADLINE_METRICS


REGIME_KEYS = ["boots", "mean", "lo", "hi"]


def check_regimes(where, h, per_boot):
    """Each metric split into two regimes: its two regimes hold every boot
    with a share, lower first, each mean within its lowest and highest."""
    for k, r in enumerate(h["regimes"]):
        if not check_keys(f"{where}.regimes[{k}]", r, ["metric", "regimes"]):
            return
        if r["metric"] not in HEADLINE_METRICS or len(r["regimes"]) != 2:
            fail(where, f"regimes[{k}]: metric {r['metric']!r}, {len(r['regimes'])} regimes")
            continue
        for g in r["regimes"]:
            if not check_keys(f"{where}.regimes[{k}]", g, REGIME_KEYS):
                return
            if not g["lo"] <= g["mean"] <= g["hi"]:
                fail(where, f"regimes[{k}]: mean {g['mean']} outside [{g['lo']}, {g['hi']}]")
        low, high = r["regimes"]
        with_share = [b for b in per_boot if b[r["metric"]]["pct"] is not None]
        if low["hi"] >= high["lo"] or low["boots"] + high["boots"] != len(with_share):
            fail(where, f"regimes[{k}]: {low['boots']}+{high['boots']} boots of "
                 f"{len(with_share)}, low up to {low['hi']}, high from {high['lo']}")


def check_headline_boots(where, h, nr_boots):
    """A cell over boots: its boots' periods add up, each share is the mean
    of the boots' shares; with one boot, the boot's share is the cell's."""
    per_boot = h["per_boot"]
    if h["boots"] != max(len(per_boot), 1) or len(per_boot) == 1 or h["interval"] != (
            "over boots" if h["boots"] > 1 else "within one boot"):
        fail(where, f"boots {h['boots']}, interval {h['interval']!r}, {len(per_boot)} per_boot")
        return
    if any(m not in HEADLINE_METRICS for m in h["too_few_independent_samples"]):
        fail(where, f"too_few_independent_samples {h['too_few_independent_samples']}")
    for k, b in enumerate(per_boot):
        if not check_keys(f"{where}.per_boot[{k}]", b, PER_BOOT_KEYS):
            return
        if not 0 <= b["boot"] < nr_boots:
            fail(where, f"per_boot[{k}] names boot {b['boot']} of {nr_boots}")
        for m in HEADLINE_METRICS:
            check_ci(f"{where}.per_boot[{k}].{m}", b[m])
    check_regimes(where, h, per_boot)
    if per_boot and sum(b["periods"] for b in per_boot) != h["periods"]:
        fail(where, "the boots' periods do not add up to the cell's")
    for m in HEADLINE_METRICS:
        check_ci(f"{where}.{m}", h[m])
        pcts = [b[m]["pct"] for b in per_boot if b[m]["pct"] is not None]
        if len(per_boot) > 1 and pcts and abs(h[m]["pct"] - sum(pcts) / len(pcts)) > 1e-3:
            fail(where, f"{m} {h[m]['pct']} is not the mean of the boots' {pcts}")


def check_headline(doc):
    """Every headline entry repeats its result's numbers (its shares too
    when it comes from one boot) and its boots' values."""
    boots = doc["boots"]
    if not isinstance(boots, list) or [b.get("boot") if isinstance(b, dict) else None
                                       for b in boots] != list(range(len(boots))):
        fail("$.boots", "not [{boot: 0, boot_id}, {boot: 1, ...}, ...]")
        return
    for i, b in enumerate(boots):
        if check_keys(f"$.boots[{i}]", b, ["boot", "boot_id"]) and not isinstance(
                b["boot_id"], str):
            fail(f"$.boots[{i}].boot_id", "not a string")
    results = {(r["workload"], r["governor"]): r["all_cpus"] for r in doc["results"]}
    if len(doc["headline"]) != len(results):
        fail("$.headline", f"{len(doc['headline'])} entries, {len(results)} results")
    for i, h in enumerate(doc["headline"]):
        w = f"$.headline[{i}]"
        if not check_keys(w, h, HEADLINE_KEYS):
            continue
        st = results.get((h["workload"], h["governor"]))
        if st is None:
            fail(w, "no result for this workload x governor")
            continue
        excluded = [x for x in doc["excluded_runs"]
                    if (x["workload"], x["governor"]) == (h["workload"], h["governor"])]
        if h["excluded_boots"] != len(excluded):
            fail(w, f"excluded_boots {h['excluded_boots']} != {len(excluded)} excluded_runs")
        if excluded:
            if h["periods"] > st["samples"] or h["predicted"] > st["predicted_samples"]:
                fail(w, "periods / predicted above the result's, runs left out")
        elif (h["periods"], h["predicted"]) != (st["samples"], st["predicted_samples"]):
            fail(w, "periods / predicted differ from the result's")
        check_headline_boots(w, h, len(boots))
        if h["boots"] > 1 or excluded:
            continue
        if h["within_2x"] != {k: st["within_factor"][1][k] for k in CI_KEYS}:
            fail(w, "within_2x differs from the result's within_factor 2x")
        for key, ideal in (("ideal_hit", "hit"), ("too_deep", "too_deep"),
                           ("too_shallow", "too_shallow")):
            if h[key] != st["ideal_state"][ideal]:
                fail(w, f"{key} differs from the result's ideal_state.{ideal}")
    # The logical view: one entry per raw one, no more periods than it.
    raw = {(h["workload"], h["governor"]): h for h in doc["headline"]}
    for i, h in enumerate(doc["headline_logical"]):
        w = f"$.headline_logical[{i}]"
        if not check_keys(w, h, HEADLINE_KEYS):
            continue
        r = raw.get((h["workload"], h["governor"]))
        if r is None:
            fail(w, "no raw headline entry for this workload x governor")
        elif h["periods"] > r["periods"] or h["late_sleeps"] != r["late_sleeps"]:
            fail(w, "more periods than the raw view, or other late sleeps")
        elif h["boots"] != r["boots"] or h["excluded_boots"] != r["excluded_boots"]:
            fail(w, "over other boots than the raw view")
        check_headline_boots(w, h, len(boots))


def check_seed_reference(rows):
    """The seed's published table: a row per factor, % growing with F."""
    if not isinstance(rows, list) or [r.get("label") if isinstance(r, dict) else None
                                      for r in rows] != FACTOR_LABELS:
        fail("$.seed_reference", f"labels are not {FACTOR_LABELS}")
        return
    for i, r in enumerate(rows):
        if not check_keys(f"$.seed_reference[{i}]", r, SEED_KEYS):
            return
        for key in SEED_KEYS[1:]:
            v = r[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 100:
                fail(f"$.seed_reference[{i}].{key}", f"{v!r} is not a percentage")
                return
    for key in SEED_KEYS[1:]:
        col = [r[key] for r in rows]
        if col != sorted(col):
            fail(f"$.seed_reference.{key}", f"{col} does not grow with F")


def check_wakeup(where, e):
    if not check_keys(where, e, WAKEUP_KEYS):
        return 0
    if not all(is_count(e[k]) for k in WAKEUP_KEYS if k.endswith(("samples", "periods"))):
        fail(where, "counts are not u64")
        return 0
    if e["resched"] > e["periods"] or e["predicted"] > e["periods"] or \
            e["ideal_samples"] > e["periods"]:
        fail(where, "resched, predicted or ideal_samples above periods")
    if e["ideal_hit_samples"] + e["too_deep_samples"] + e["too_shallow_samples"] != \
            e["ideal_samples"]:
        fail(where, "hit + too deep + too shallow != ideal_samples")
    check_ci(f"{where}.within_2x", e["within_2x"], e["within_2x_samples"], e["predicted"])
    check_ci(f"{where}.ideal_hit", e["ideal_hit"], e["ideal_hit_samples"], e["ideal_samples"])
    return e["periods"]


def check_why_entry(where, e, samples):
    """One workload x governor: its classes add up to its known ends, its
    tick verdicts and energy are consistent, its periods are its result's."""
    if not check_keys(where, e, WHY_KEYS):
        return
    if e["periods"] != samples:
        fail(where, f"periods {e['periods']} != the result's samples {samples}")
    known = sum(check_wakeup(f"{where}.wakeups[{i}]", w) for i, w in enumerate(e["wakeups"]))
    if known + e["other_periods"] != e["wake_known"] or e["wake_known"] > e["periods"]:
        fail(where, "wakeups + other_periods != wake_known, or wake_known > periods")
    if e["hits"] + e["intercepts"] > e["wake_known"]:
        fail(where, "hits + intercepts > wake_known")
    check_ci(f"{where}.intercept_share", e["intercept_share"], e["intercepts"],
             e["hits"] + e["intercepts"])
    t = e["tick"]
    if check_keys(f"{where}.tick", t, TICK_KEYS):
        if t["stopped_short"] > t["stopped"] or t["kept_needless"] > t["kept"] or \
                t["stopped"] + t["kept"] + t["kept_unknown"] > e["periods"]:
            fail(f"{where}.tick", "verdicts do not add up")
        check_ci(f"{where}.tick.stopped_short_share", t["stopped_short_share"],
                 t["stopped_short"], t["stopped"])
        check_ci(f"{where}.tick.kept_needless_share", t["kept_needless_share"],
                 t["kept_needless"], t["kept"])
    en = e["energy"]
    if en is not None and check_keys(f"{where}.energy", en, ENERGY_KEYS):
        if en["oracle_energy_uj"] > en["energy_uj"] * (1 + 1e-9) or en["periods"] > e["periods"]:
            fail(f"{where}.energy", "the oracle spends more than the governor, or too many periods")
        if en["shallow_idle_ns"] > en["idle_ns"] or en["shallower"] + en["deeper"] > en["periods"]:
            fail(f"{where}.energy", "shallow time or counts out of range")


def check_why(doc):
    """Every result has its why entry, in the results' order."""
    results = [((r["workload"], r["governor"]), r["all_cpus"]["samples"]) for r in doc["results"]]
    if len(doc["why"]) != len(results):
        fail("$.why", f"{len(doc['why'])} entries, {len(results)} results")
        return
    for i, (e, (key, samples)) in enumerate(zip(doc["why"], results)):
        if (e.get("workload"), e.get("governor")) != key:
            fail(f"$.why[{i}]", f"not {key}")
        else:
            check_why_entry(f"$.why[{i}]", e, samples)
    pt = doc["power_table"]
    if pt is not None and check_keys("$.power_table", pt, ["source", "states"]):
        for i, st in enumerate(pt["states"]):
            check_keys(f"$.power_table.states[{i}]", st,
                       ["state", "name", "power_mw", "exit_energy_uj"])


def lookup(doc, path):
    value = doc
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        value = value[int(index)] if index else value[name]
    return value


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    paths, expects = [], []
    rest = args
    while rest and not rest[0].startswith("--"):
        paths.append(rest.pop(0))
    while rest:
        if rest[0] != "--expect" or len(rest) < 2 or "=" not in rest[1]:
            print(f"check_report_json: bad argument {rest[0]!r}", file=sys.stderr)
            return 2
        expects.append(rest[1].split("=", 1))
        rest = rest[2:]
    bad = 0
    for path in paths:
        bad += check_file(path, expects)
    return 1 if bad else 0


def check_file(path, expects):
    """Every check of one report.json; 1 after its problems on stderr, else 0."""
    errors.clear()
    shadow_models.clear()
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"check_report_json: {path}: {e}", file=sys.stderr)
        return 1

    check_top(doc)
    for key, raw in expects:
        try:
            want = json.loads(raw)
        except ValueError:
            want = raw
        try:
            have = lookup(doc, key)
        except (KeyError, IndexError, TypeError):
            fail(key, "missing")
            continue
        if have != want:
            fail(key, f"{have!r} != expected {want!r}")

    for e in errors:
        print(f"check_report_json: {path}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
