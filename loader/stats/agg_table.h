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
#include "stats/logical.h"

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
	/*
	 * With one: the raw periods on their way into it, and each workload's
	 * index in it plus one (0: not looked up yet).
	 */
	struct logical merger;
	int logical_workload[AGG_MAX_WORKLOADS];
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

/**
 * agg_workload_of_tag() - the workload a record's tag names
 * @agg: the aggregate
 * @tag: the record's raw tag, IDLESCOPE_WORKLOAD_LEN bytes, NUL-padded
 *	and maybe unterminated
 *
 * Records come in runs of one tag, so the last tag seen is compared
 * first, byte for byte, with no string work; any other tag is escaped
 * (escape_name()) and looked up.
 *
 * Return: the workload's index, or -1 when @agg has none of that name
 * (never interns one).
 */
int agg_workload_of_tag(const struct agg *agg, const char *tag);

/**
 * agg_period_ideal_state() - the state a period should have entered
 * @agg: the aggregate, for its state table
 * @p: the period
 *
 * agg_ideal_state() of the period's time to its wake-up, within the
 * latency limit select was given when the record carries it
 * (IDLESCOPE_F_SELECT_PROBED), no limit otherwise.
 *
 * Return: as agg_ideal_state(): a state index, -1 with no enabled state.
 */
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

/**
 * agg_score_shares() - count one period's time against its ideal state
 * @sc: where the score counts (AGG_IDEAL_SCORE_OF() the live governor's
 *	sums or a model's)
 * @sh: the period's shares: hit, deeper and shallower than ideal
 *
 * A period wholly in one verdict counts in that verdict's samples, one
 * split between states in split_samples; the shares go into the
 * intervals either way.
 */
void agg_score_shares(struct agg_ideal_score *sc, const struct period_shares *sh);

/**
 * agg_shadow_periods_valid() - whether shadow verdicts can be counted
 * @periods: the verdicts
 * @nr: how many
 *
 * Checked before anything is counted, so a bad verdict leaves the
 * aggregate unchanged.
 *
 * Return: true when every agreement and state agreement is -1 (not
 * checked), 0 or 1.
 */
bool agg_shadow_periods_valid(const struct agg_shadow_period *periods, int nr);

/**
 * agg_score_shadows() - count shadow models' verdicts on one period
 * @agg: the aggregate, for its state table
 * @st: the sums of the period's key
 * @p: the period
 * @ideal: its ideal state (agg_period_ideal_state())
 * @first: the index of the first shadow model of @periods
 * @nr: how many models
 * @periods: @periods[i] is model @first + i's verdict
 *
 * A model that stepped without the inputs it needs counts as excluded,
 * not scored; agreements with the kernel count when they were checked.
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
/**
 * agg_prediction_made() - whether a predicted value is a prediction
 * @predicted_ns: the record's or a model's predicted_ns
 *
 * Return: false for IDLESCOPE_UNKNOWN_NS, the only value that is none.
 */
static inline bool agg_prediction_made(__u64 predicted_ns)
{
	return predicted_ns != IDLESCOPE_UNKNOWN_NS;
}

/**
 * agg_score_prediction() - count one prediction against the idle it got
 * @within_factor: AGG_NR_FACTORS counts, one added where the prediction
 *	was within that factor
 * @within_ci: the same as interval accumulators
 * @ratio_hist: the actual / predicted histogram, or NULL for none
 * @predicted_ns: the prediction, one that was made (agg_prediction_made())
 * @actual_ns: the idle time it got
 *
 * One scoring shared by the live governor's and the shadow models' sums,
 * so the two columns mean the same.
 */
void agg_score_prediction(__u64 *within_factor, struct ci_acc *within_ci,
			  unsigned int *ratio_hist, __u64 predicted_ns,
			  __u64 actual_ns);

#endif /* __IDLESCOPE_STATS_AGG_TABLE_H */
