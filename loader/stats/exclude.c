// SPDX-License-Identifier: GPL-2.0
/*
 * exclude.c - the runs left out of the headline and the gate (see
 * aggregate.h): a boot's workload under a governor that did not deliver
 * its pattern is no data point.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "stats/aggregate.h"
#include "stats/agg_table.h"

const char *agg_run_excluded(const struct agg *agg, int boot, const char *workload,
			     int governor)
{
	const struct agg_exclusion *x;
	int i;

	for (i = 0; i < agg->nr_exclusions; i++) {
		x = &agg->exclusions[i];
		if (x->boot == boot && x->governor == governor && !strcmp(x->workload, workload))
			return x->reason;
	}
	return NULL;
}

int agg_exclude_run(struct agg *agg, int boot, const char *workload, int governor,
		    const char *reason)
{
	struct agg_exclusion *x;

	if (boot < 0 || boot >= agg->nr_boots || governor < 0 ||
	    governor >= IDLESCOPE_NR_GOVERNORS)
		return -EINVAL;
	if (agg_run_excluded(agg, boot, workload, governor))
		return 0;
	if (agg->nr_exclusions == AGG_MAX_EXCLUSIONS)
		return -ENOSPC;
	x = &agg->exclusions[agg->nr_exclusions++];
	x->boot = boot;
	x->governor = governor;
	snprintf(x->workload, sizeof(x->workload), "%s", workload);
	snprintf(x->reason, sizeof(x->reason), "%s", reason);
	return 0;
}

int agg_nr_exclusions(const struct agg *agg)
{
	return agg->nr_exclusions;
}

const struct agg_exclusion *agg_exclusion(const struct agg *agg, int i)
{
	return i >= 0 && i < agg->nr_exclusions ? &agg->exclusions[i] : NULL;
}

int agg_exclude_late_runs(struct agg *agg)
{
	char reason[AGG_EXCLUSION_REASON_LEN];
	const struct agg *boot;
	struct agg_stats st;
	int b, w, g, err = 0;

	for (b = 0; b < agg->nr_boots && !err; b++) {
		boot = agg->boots[b];
		for (w = 0; w < boot->nr_workloads && !err; w++) {
			for (g = 0; g < IDLESCOPE_NR_GOVERNORS && !err; g++) {
				if (!agg_sum(boot, w, g, AGG_ANY, &st) || !st.late_sleep_samples)
					continue;
				snprintf(reason, sizeof(reason),
					 "a sleep woke %.1f ms late (%llu more than %.0f ms)",
					 st.late_sleep_max_ns / 1e6,
					 (unsigned long long)st.late_sleep_samples,
					 AGG_LATE_SLEEP_NS / 1e6);
				err = agg_exclude_run(agg, b, boot->workload_names[w], g, reason);
			}
		}
	}
	return err;
}
