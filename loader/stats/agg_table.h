/* SPDX-License-Identifier: GPL-2.0 */
/*
 * agg_table.h - the aggregate's table, private to the files that fill it.
 *
 * Only stats/aggregate.c (the records' statistics) and stats/shadows.c (the
 * models' periods scored beside the running governor's) include it; every
 * other file goes through the accessors of stats/aggregate.h.  The helpers
 * below are aggregate.c's, shared with shadows.c so that a shadow's period
 * is found and scored exactly as the live one is.
 */
#ifndef __IDLESCOPE_STATS_AGG_TABLE_H
#define __IDLESCOPE_STATS_AGG_TABLE_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "stats/aggregate.h"
#include "stats/ci.h"

struct agg {
	int nr_workloads;
	/* The tag interned last, raw: records come in runs of one tag. */
	int last_workload;
	char last_tag[IDLESCOPE_WORKLOAD_LEN];
	char workload_names[AGG_MAX_WORKLOADS][AGG_WORKLOAD_NAME_LEN];
	struct agg_stats stats[AGG_MAX_WORKLOADS][IDLESCOPE_NR_GOVERNORS]
			      [IDLESCOPE_MAX_CPUS];

	int nr_states;
	struct agg_state_info states[IDLESCOPE_MAX_STATES];

	int nr_shadows;
	char shadow_names[AGG_MAX_SHADOWS][AGG_SHADOW_NAME_LEN];
	unsigned int shadow_inputs[AGG_MAX_SHADOWS];	/* agg_shadow_inputs() */

	__u64 rejected_records;
	/* The same periods merged into logical ones (stats/logical.h), or NULL. */
	struct agg *logical;
	/* This is one: its periods are raw ones merged, not the idle driver's. */
	bool is_logical;
	/* agg_exit_spent(), per entered state. */
	struct exit_spent exit_spent[IDLESCOPE_MAX_STATES];

	/* The boots this aggregate was merged from (agg_add_boot()). */
	int nr_boots;
	struct agg *boots[AGG_MAX_BOOTS];
	char boot_ids[AGG_MAX_BOOTS][AGG_BOOT_ID_LEN];
	/* Runs of those boots left out (agg_exclude_run()). */
	int nr_exclusions;
	struct agg_exclusion exclusions[AGG_MAX_EXCLUSIONS];
	struct why *why;		/* wake-up sources, tick, energy */
};

/*
 * Index of a record's raw workload tag (NUL-padded, maybe unterminated),
 * or -1; never interns.  Records come in runs of one tag: the last
 * interned is tried first.
 */
int agg_workload_of_tag(const struct agg *agg, const char *tag);

/* The ideal state of a period, with the limit select used when known. */
int agg_period_ideal_state(const struct agg *agg, const struct period *p);

/*
 * Where one ideal-state score counts: the running governor's (agg_stats)
 * or a model's (agg_shadow), which keep the same fields.
 */
struct agg_ideal_score {
	__u64 *samples, *hit_samples, *too_deep_samples, *too_shallow_samples;
	__u64 *split_samples;
	struct ci_acc *hit_ci, *too_deep_ci, *too_shallow_ci;
};

#define AGG_IDEAL_SCORE_OF(x) {							&(x)->ideal_samples, &(x)->ideal_hit_samples,				&(x)->ideal_too_deep_samples, &(x)->ideal_too_shallow_samples,		&(x)->ideal_split_samples,						&(x)->ideal_hit_ci, &(x)->ideal_too_deep_ci, &(x)->ideal_too_shallow_ci }

/* One period's shares of its time against its ideal state, counted. */
void agg_score_shares(struct agg_ideal_score *sc, const struct period_shares *sh);

/* Whether @nr verdicts have agreements agg_add_shadows() accepts. */
bool agg_shadow_periods_valid(const struct agg_shadow_period *periods, int nr);

/*
 * The verdicts of shadows @first..@first + @nr - 1 (periods[0..@nr - 1])
 * on period @p, counted in its key @st; @ideal is its ideal state.
 */
void agg_score_shadows(const struct agg *agg, struct agg_stats *st, const struct period *p,
		       int ideal, int first, int nr, const struct agg_shadow_period *periods);

/*
 * Patch 0004 stores U64_MAX, which is IDLESCOPE_UNKNOWN_NS, when the
 * governor's select returned before it predicted anything (e.g. menu with
 * a single usable state), and the BPF side UNKNOWN when it could not read
 * the value: neither is a prediction to score.  0 is a prediction of 0 ns,
 * within no factor of a period that lasted.
 */
static inline bool agg_prediction_made(__u64 predicted_ns)
{
	return predicted_ns != IDLESCOPE_UNKNOWN_NS;
}

/*
 * The factor table and ratio histogram (NULL: none), shared by live and
 * shadow scores.
 */
void agg_score_prediction(__u64 *within_factor, struct ci_acc *within_ci,
			  unsigned int *ratio_hist, __u64 predicted_ns,
			  __u64 actual_ns);

#endif /* __IDLESCOPE_STATS_AGG_TABLE_H */
