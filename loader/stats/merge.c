// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c - agg_stats_merge(): one key's statistics folded into
 * another's (agg_sum() of stats/aggregate.c, the "all CPUs" rows, several runs).
 * Only the public struct agg_stats is needed, so it lives apart from the
 * key table.  Sums of nanoseconds saturate (stats/sat.h), as agg_add()'s do.
 */
#include "stats/aggregate.h"
#include "stats/sat.h"

static void merge_ideal(struct agg_stats *dst, const struct agg_stats *src)
{
	dst->ideal_samples += src->ideal_samples;
	dst->ideal_hit_samples += src->ideal_hit_samples;
	dst->ideal_too_deep_samples += src->ideal_too_deep_samples;
	dst->ideal_too_shallow_samples += src->ideal_too_shallow_samples;
	dst->ideal_split_samples += src->ideal_split_samples;
	sat_inc(&dst->ideal_idle_ns, src->ideal_idle_ns);
	sat_inc(&dst->ideal_shallow_idle_ns, src->ideal_shallow_idle_ns);
	ci_merge(&dst->ideal_hit_ci, &src->ideal_hit_ci);
	ci_merge(&dst->ideal_too_deep_ci, &src->ideal_too_deep_ci);
	ci_merge(&dst->ideal_too_shallow_ci, &src->ideal_too_shallow_ci);
	ci_merge(&dst->ideal_shallow_time_ci, &src->ideal_shallow_time_ci);
}

void agg_stats_merge(struct agg_stats *dst, const struct agg_stats *src)
{
	int i;

	if (!src->samples)
		return;
	if (!dst->samples || src->residency_min_ns < dst->residency_min_ns)
		dst->residency_min_ns = src->residency_min_ns;
	if (!dst->samples || src->residency_max_ns > dst->residency_max_ns)
		dst->residency_max_ns = src->residency_max_ns;

	dst->samples += src->samples;
	sat_inc(&dst->residency_sum_ns, src->residency_sum_ns);
	dst->predicted_samples += src->predicted_samples;
	sat_inc(&dst->predicted_sum_ns, src->predicted_sum_ns);
	for (i = 0; i < AGG_LOG2_SLOTS; i++) {
		dst->residency_us_hist[i] += src->residency_us_hist[i];
		dst->predicted_us_hist[i] += src->predicted_us_hist[i];
	}
	for (i = 0; i < AGG_RATIO_SLOTS; i++)
		dst->ratio_hist[i] += src->ratio_hist[i];
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		dst->within_factor[i] += src->within_factor[i];
		ci_merge(&dst->within_ci[i], &src->within_ci[i]);
	}
	for (i = 0; i < IDLESCOPE_MAX_STATES; i++) {
		dst->state_entered[i] += src->state_entered[i];
		dst->state_chosen[i] += src->state_chosen[i];
		sat_inc(&dst->state_residency_ns[i], src->state_residency_ns[i]);
	}
	dst->invalid_state_samples += src->invalid_state_samples;
	dst->miss_above_samples += src->miss_above_samples;
	dst->miss_below_samples += src->miss_below_samples;
	dst->crosscheck_samples += src->crosscheck_samples;
	dst->too_deep_samples += src->too_deep_samples;
	dst->too_shallow_samples += src->too_shallow_samples;
	ci_merge(&dst->miss_above_ci, &src->miss_above_ci);
	ci_merge(&dst->miss_below_ci, &src->miss_below_ci);
	merge_ideal(dst, src);
	dst->next_timer_wrap_samples += src->next_timer_wrap_samples;
	dst->tick_adjusted_samples += src->tick_adjusted_samples;
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		dst->tick_adjusted_within[i] += src->tick_adjusted_within[i];
		ci_merge(&dst->tick_adjusted_ci[i], &src->tick_adjusted_ci[i]);
	}
	dst->sleep_woke_samples += src->sleep_woke_samples;
	dst->late_sleep_samples += src->late_sleep_samples;
	if (src->late_sleep_max_ns > dst->late_sleep_max_ns)
		dst->late_sleep_max_ns = src->late_sleep_max_ns;

	for (i = 0; i < AGG_MAX_SHADOWS; i++) {
		struct agg_shadow *d = &dst->shadow[i];
		const struct agg_shadow *s = &src->shadow[i];
		int k;

		d->samples += s->samples;
		d->excluded_samples += s->excluded_samples;
		for (k = 0; k < AGG_NR_FACTORS; k++) {
			d->within_factor[k] += s->within_factor[k];
			ci_merge(&d->within_ci[k], &s->within_ci[k]);
		}
		for (k = 0; k < AGG_RATIO_SLOTS; k++)
			d->ratio_hist[k] += s->ratio_hist[k];
		d->agree_checked += s->agree_checked;
		d->agree_samples += s->agree_samples;
		d->ideal_samples += s->ideal_samples;
		d->ideal_hit_samples += s->ideal_hit_samples;
		d->ideal_too_deep_samples += s->ideal_too_deep_samples;
		d->ideal_too_shallow_samples += s->ideal_too_shallow_samples;
		d->ideal_split_samples += s->ideal_split_samples;
		ci_merge(&d->ideal_hit_ci, &s->ideal_hit_ci);
		ci_merge(&d->ideal_too_deep_ci, &s->ideal_too_deep_ci);
		ci_merge(&d->ideal_too_shallow_ci, &s->ideal_too_shallow_ci);
		d->state_agree_checked += s->state_agree_checked;
		d->state_agree_samples += s->state_agree_samples;
	}
}
