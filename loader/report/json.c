// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - report.json: the report's numbers unrounded, every share
 * with its 95% interval, in a fixed key order (docs/report-schema.md).
 */
#include <errno.h>
#include <string.h>
#include "report/figures.h"
#include "report/headline.h"
#include "report/causes.h"
#include "format/json_writer.h"
#include "report/interval.h"
#include "recfile.h"
#include "stats/lateness.h"
#include "report/report.h"
#include "governors.h"
#include "format/numbers.h"
#include "output/file.h"

static void json_log2_hist(struct json *j, const char *key,
			   const unsigned int *vals)
{
	int idx_max = agg_highest_bucket(vals, AGG_LOG2_SLOTS);
	int i;

	/* Buckets 0..highest non-empty, zeros in between included. */
	json_array(j, key, false);
	for (i = 0; i <= idx_max; i++) {
		json_object(j, NULL, true);
		json_u64(j, "low_us", i ? 1ULL << i : 0);
		json_u64(j, "high_us", i == 63 ? ~0ULL : (1ULL << (i + 1)) - 1);
		json_u64(j, "count", vals[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_ratio_hist(struct json *j, const unsigned int *vals)
{
	int i;

	/* All AGG_RATIO_SLOTS buckets, always: a fixed-shape array. */
	json_array(j, "ratio_log2_hist", false);
	for (i = 0; i < AGG_RATIO_SLOTS; i++) {
		json_object(j, NULL, true);
		json_int(j, "log2_low", i + AGG_RATIO_LOG2_MIN);
		json_u64(j, "count", vals[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_u64_array(struct json *j, const char *key, const __u64 *vals,
			   int nr)
{
	int i;

	json_array(j, key, true);
	for (i = 0; i < nr; i++)
		json_u64(j, NULL, vals[i]);
	json_array_end(j);
}

/* Count, and the share with its 95% interval (null bounds: unknown). */
static void json_within_factor(struct json *j, const __u64 *counts,
			       const struct ci_acc *cis)
{
	struct ci_pct r;
	int i;

	json_array(j, "within_factor", false);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		r = ci_result(&cis[i]);
		json_object(j, NULL, true);
		json_str(j, "label", agg_factors[i].label);
		json_u64(j, "count", counts[i]);
		json_number(j, "pct", r.pct);
		json_number(j, "lo", r.lo);
		json_number(j, "hi", r.hi);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_share(struct json *j, const char *key, const struct ci_acc *acc)
{
	struct ci_pct r = ci_result(acc);

	report_json_ci(j, key, &r);
}

/* Ideal-state scoring and the kernel's verdicts, shares with intervals. */
static void json_choices(struct json *j, const struct agg_stats *st)
{
	json_object(j, "ideal_state", false);
	json_u64(j, "samples", st->ideal_samples);
	json_u64(j, "hit_samples", st->ideal_hit_samples);
	json_u64(j, "too_deep_samples", st->ideal_too_deep_samples);
	json_u64(j, "too_shallow_samples", st->ideal_too_shallow_samples);
	json_u64(j, "idle_ns", st->ideal_idle_ns);
	json_u64(j, "shallow_idle_ns", st->ideal_shallow_idle_ns);
	json_share(j, "hit", &st->ideal_hit_ci);
	json_share(j, "too_deep", &st->ideal_too_deep_ci);
	json_share(j, "too_shallow", &st->ideal_too_shallow_ci);
	json_share(j, "shallow_time", &st->ideal_shallow_time_ci);
	json_object_end(j);
	json_share(j, "miss_above", &st->miss_above_ci);
	json_share(j, "miss_below", &st->miss_below_ci);
}

/* One entry per named shadow model, zeros included: a fixed shape. */
static void json_shadows(struct json *j, const struct agg *agg,
			 const struct agg_stats *st)
{
	int s;

	json_array(j, "shadow", false);
	for (s = 0; s < agg_nr_shadows(agg); s++) {
		const struct agg_shadow *sh = &st->shadow[s];

		json_object(j, NULL, false);
		json_str(j, "model", agg_shadow_name(agg, s));
		json_u64(j, "samples", sh->samples);
		json_u64(j, "excluded_samples", sh->excluded_samples);
		json_within_factor(j, sh->within_factor, sh->within_ci);
		json_ratio_hist(j, sh->ratio_hist);
		json_u64(j, "agree_checked", sh->agree_checked);
		json_u64(j, "agree_samples", sh->agree_samples);
		json_object(j, "ideal_state", false);
		json_u64(j, "samples", sh->ideal_samples);
		json_u64(j, "hit_samples", sh->ideal_hit_samples);
		json_u64(j, "too_deep_samples", sh->ideal_too_deep_samples);
		json_u64(j, "too_shallow_samples", sh->ideal_too_shallow_samples);
		json_share(j, "hit", &sh->ideal_hit_ci);
		json_share(j, "too_deep", &sh->ideal_too_deep_ci);
		json_share(j, "too_shallow", &sh->ideal_too_shallow_ci);
		json_object_end(j);
		json_u64(j, "state_agree_checked", sh->state_agree_checked);
		json_u64(j, "state_agree_samples", sh->state_agree_samples);
		json_object_end(j);
	}
	json_array_end(j);
}

/* The members of one stats object, in the documented order. */
static void json_stats_members(struct json *j, const struct agg *agg,
			       const struct agg_stats *st)
{
	json_u64(j, "samples", st->samples);
	json_u64(j, "residency_sum_ns", st->residency_sum_ns);
	json_u64(j, "residency_min_ns", st->residency_min_ns);
	json_u64(j, "residency_max_ns", st->residency_max_ns);
	json_u64(j, "predicted_samples", st->predicted_samples);
	json_u64(j, "predicted_sum_ns", st->predicted_sum_ns);
	json_within_factor(j, st->within_factor, st->within_ci);

	json_u64_array(j, "state_entered_samples", st->state_entered,
		       IDLESCOPE_MAX_STATES);
	json_u64_array(j, "state_chosen_samples", st->state_chosen,
		       IDLESCOPE_MAX_STATES);
	json_u64_array(j, "state_residency_ns", st->state_residency_ns,
		       IDLESCOPE_MAX_STATES);
	json_u64(j, "invalid_state_samples", st->invalid_state_samples);
	json_u64(j, "miss_above_samples", st->miss_above_samples);
	json_u64(j, "miss_below_samples", st->miss_below_samples);
	json_u64(j, "crosscheck_samples", st->crosscheck_samples);
	json_u64(j, "too_deep_samples", st->too_deep_samples);
	json_u64(j, "too_shallow_samples", st->too_shallow_samples);
	json_choices(j, st);

	json_log2_hist(j, "residency_us_hist", st->residency_us_hist);
	json_log2_hist(j, "predicted_us_hist", st->predicted_us_hist);
	json_ratio_hist(j, st->ratio_hist);
	json_shadows(j, agg, st);
}

/* A number only the trailer knows: null for a record file without it. */
static void json_trailer_u64(struct json *j, const struct run_meta *meta, const char *key,
			     __u64 val)
{
	if (run_meta_trailer_known(meta))
		json_u64(j, key, val);
	else
		json_null(j, key);
}

/* The text header's fidelity lines (report/text.c's print_fidelity()), as numbers. */
static void json_fidelity(struct json *j, const struct run_meta *meta)
{
	const struct idlescope_lateness *l = &meta->lateness;
	unsigned int i;

	json_int(j, "hz", meta->hz);
	json_str(j, "cpuidle_driver", meta->cpuidle_driver);
	json_str(j, "clock_mode", meta->clock_mode);
	json_str(j, "clock_args", meta->clock_args);
	json_object(j, "guest_ps_per_instruction", true);
	json_u64(j, "lo", meta->insn_ps_lo);
	json_u64(j, "hi", meta->insn_ps_hi);
	json_object_end(j);
	json_str(j, "exit_cost", recfile_exit_cost_name(meta->exit_cost));
	json_object(j, "timer_lateness", true);
	json_trailer_u64(j, meta, "wakeups", l->count);
	json_trailer_u64(j, meta, "median_ns", lateness_percentile_ns(l, 50));
	json_trailer_u64(j, meta, "p99_ns", lateness_percentile_ns(l, 99));
	json_trailer_u64(j, meta, "max_ns", l->max_ns);
	json_object_end(j);
	json_array(j, "capabilities", true);
	for (i = 0; report_capability_name(i); i++)
		if (meta->capabilities & (1U << i))
			json_str(j, NULL, report_capability_name(i));
	json_array_end(j);
	json_u64(j, "records_cut_short", meta->records_cut_short);
}

static void json_meta(struct json *j, const struct agg *agg,
		      const struct run_meta *meta)
{
	char start[32];
	int i;

	fmt_utc(start, sizeof(start), meta->start_time);

	json_int(j, "schema_version", REPORT_SCHEMA_VERSION);
	json_str(j, "tool", "idlescope");
	json_str(j, "kernel_release", meta->kernel_release);
	json_fidelity(j, meta);
	json_str(j, "start_time_utc", start);
	if (run_meta_trailer_known(meta))
		json_double(j, "duration_s", "%.3f", meta->duration_s);
	else
		json_null(j, "duration_s");

	json_array(j, "governors", true);
	for (i = 0; i < meta->nr_governors; i++)
		json_str(j, NULL, meta->governors[i]);
	json_array_end(j);
	json_array(j, "workloads", true);
	for (i = 0; i < meta->nr_workloads; i++)
		json_str(j, NULL, meta->workloads[i]);
	json_array_end(j);

	json_bool(j, "predictions_available", meta->predictions_available);
	json_object(j, "reconstruction", true);
	json_u64(j, "reconstructed", meta->reconstruct.reconstructed);
	json_u64(j, "unresolved", meta->reconstruct.unresolved);
	json_u64(j, "checked", meta->reconstruct.checked);
	json_u64(j, "agreed", meta->reconstruct.agreed);
	json_object_end(j);
	json_trailer_u64(j, meta, "ringbuf_size_bytes", meta->ringbuf_size_bytes);
	json_u64(j, "records_produced", run_meta_produced(meta));
	json_trailer_u64(j, meta, "dropped_records", run_meta_dropped(meta));
	json_trailer_u64(j, meta, "sysfs_usage_delta", meta->sysfs_usage_delta);
	json_trailer_u64(j, meta, "sysfs_above_delta", meta->sysfs_above_delta);
	json_trailer_u64(j, meta, "sysfs_below_delta", meta->sysfs_below_delta);
	json_u64(j, "aggregator_rejected_records", agg_rejected_records(agg));

	json_array(j, "per_cpu_records", false);
	for (i = 0; i < meta->nr_cpus && i < IDLESCOPE_MAX_CPUS; i++) {
		json_object(j, NULL, true);
		json_int(j, "cpu", i);
		json_u64(j, "records_produced", meta->records_produced[i]);
		json_trailer_u64(j, meta, "dropped_records", meta->dropped_records[i]);
		json_object_end(j);
	}
	json_array_end(j);

	json_array(j, "skipped_programs", false);
	for (i = 0; i < meta->nr_skipped; i++) {
		json_object(j, NULL, true);
		json_str(j, "name", meta->skipped[i].name);
		json_str(j, "reason", meta->skipped[i].reason);
		json_object_end(j);
	}
	json_array_end(j);
}

/*
 * The exits the states spent after their wake-ups (stats/exitspent.h),
 * a state each that spent one, beside its declared exit latency.
 */
static void json_exit_spent(struct json *j, const struct agg *agg)
{
	const struct exit_spent *es;
	int i;

	json_array(j, "exit_spent", false);
	for (i = 0; i < agg_nr_states(agg); i++) {
		es = agg_exit_spent(agg, i);
		if (!es->count)
			continue;
		json_object(j, NULL, true);
		json_int(j, "state", i);
		json_u64(j, "exit_latency_ns", agg_state(agg, i)->exit_latency_ns);
		json_u64(j, "periods", es->count);
		json_u64(j, "p50_ns", exit_spent_percentile_ns(es, 50));
		json_u64(j, "p99_ns", exit_spent_percentile_ns(es, 99));
		json_u64(j, "max_ns", es->max_ns);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_definitions(struct json *j, const struct agg *agg,
			     const struct run_meta *meta)
{
	int i;

	json_array(j, "factors", false);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		json_object(j, NULL, true);
		json_str(j, "label", agg_factors[i].label);
		json_double(j, "factor", "%g",
			    (double)agg_factors[i].num / agg_factors[i].den);
		json_u64(j, "num", agg_factors[i].num);
		json_u64(j, "den", agg_factors[i].den);
		json_object_end(j);
	}
	json_array_end(j);

	json_array(j, "seed_reference", false);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		json_object(j, NULL, true);
		json_str(j, "label", agg_factors[i].label);
		json_double(j, "before_pct", "%.1f", seed_pct[i][0]);
		json_double(j, "patch1_pct", "%.1f", seed_pct[i][1]);
		json_double(j, "patch12_pct", "%.1f", seed_pct[i][2]);
		json_object_end(j);
	}
	json_array_end(j);

	json_array(j, "shadow_models", true);
	for (i = 0; i < agg_nr_shadows(agg); i++)
		json_str(j, NULL, agg_shadow_name(agg, i));
	json_array_end(j);
	json_u64(j, "shadow_replay_resets", meta->shadow_replay_resets);

	json_array(j, "state_table", false);
	for (i = 0; i < agg_nr_states(agg); i++) {
		const struct agg_state_info *info = agg_state(agg, i);

		json_object(j, NULL, true);
		json_int(j, "state", i);
		json_u64(j, "target_residency_ns", info->target_residency_ns);
		json_u64(j, "exit_latency_ns", info->exit_latency_ns);
		json_bool(j, "disabled", info->disabled);
		json_object_end(j);
	}
	json_array_end(j);
	json_exit_spent(j, agg);
}

static void json_results(struct json *j, const struct agg *agg)
{
	const struct agg_stats *st;
	struct agg_stats all;
	int w, g, cpu;

	json_array(j, "results", false);
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!agg_sum(agg, w, g, AGG_ANY, &all))
				continue;
			json_object(j, NULL, false);
			json_str(j, "workload", agg_workload_name(agg, w));
			json_str(j, "governor", governor_name(g));
			json_int(j, "governor_id", g);
			json_object(j, "all_cpus", false);
			json_stats_members(j, agg, &all);
			json_object_end(j);
			json_array(j, "per_cpu", false);
			for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++) {
				st = agg_get(agg, w, g, cpu);
				if (!st)
					continue;
				json_object(j, NULL, false);
				json_int(j, "cpu", cpu);
				json_stats_members(j, agg, st);
				json_object_end(j);
			}
			json_array_end(j);
			json_object_end(j);
		}
	}
	json_array_end(j);
}

/*
 * Per workload, what report.txt's "across governors" section is made of:
 * the governors that ran it (their numbers are in "results") and the sum
 * over all of them, whose shadow entries score each model on every run.
 */
static void json_across_governors(struct json *j, const struct agg *agg)
{
	struct report_workload_view view;
	int w, g;

	json_array(j, "across_governors", false);
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		if (!report_workload_view(agg, w, &view))
			continue;
		json_object(j, NULL, false);
		json_str(j, "workload", agg_workload_name(agg, w));
		json_array(j, "governors", true);
		for (g = 0; g < view.nr_governors; g++)
			json_str(j, NULL, governor_name(view.governors[g]));
		json_array_end(j);
		json_object(j, "all_governors", false);
		json_stats_members(j, agg, &view.all);
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

int report_fprint_json(FILE *f, const struct agg *agg,
		       const struct run_meta *meta)
{
	struct json j = { .f = f };

	errno = 0;
	json_object(&j, NULL, false);
	json_meta(&j, agg, meta);
	json_definitions(&j, agg, meta);
	headline_json(&j, agg, meta);
	json_results(&j, agg);
	json_across_governors(&j, agg);
	figures_json(&j, meta->figures);
	report_why_json(&j, agg);
	json_object_end(&j);
	fputc('\n', f);
	return output_stream_status(f);
}

int report_write_json(const struct agg *agg, const struct run_meta *meta,
		      const char *path)
{
	return report_write_doc(path, report_fprint_json, agg, meta);
}
