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

	/* The boots this aggregate was merged from (agg_add_boot()). */
	int nr_boots;
	struct agg *boots[AGG_MAX_BOOTS];
	char boot_ids[AGG_MAX_BOOTS][AGG_BOOT_ID_LEN];
	struct why *why;		/* wake-up sources, tick, energy */
};

/*
 * Index of a record's raw workload tag (NUL-padded, maybe unterminated),
 * or -1; never interns.  Records come in runs of one tag: the last
 * interned is tried first.
 */
int agg_workload_of_tag(const struct agg *agg, const char *tag);

/* The ideal state of @rec's period, with the limit select used when known. */
int agg_record_ideal_state(const struct agg *agg, const struct idlescope_record *rec);

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
