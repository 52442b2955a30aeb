/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logical.h - logical idle periods: what a CPU's idle stretch was, whether
 * its governor kept the tick or stopped it.
 *
 * menu and teo keep the tick for short predictions, so a long idle stretch
 * under them is a string of tick-ended periods (1 ms each at HZ=1000),
 * while the 2010 governors always stop the tick and see it as one period:
 * scored period by period, the two compare different things.  A logical
 * idle period is a run of consecutive periods of one CPU in which every
 * period but the last was ended by the tick alone and nothing ran in
 * between (the idle loop went straight back to idle), merged into one
 * whose actual length is the sum of theirs and which is scored against
 * the prediction made at its first entry, the governor's and the shadow
 * models'.  A period is ended by the tick alone when the tick's hrtimer
 * fired in it for the tick's own sake: no sleep's timer fired and no
 * timer_list timer expired (IDLESCOPE_F_TICK_ENDED without
 * IDLESCOPE_F_SLEEP_WOKE or IDLESCOPE_F_TIMER_LIST; a stopped tick's
 * hrtimer is programmed for the next timer_list expiry); the next one continues it when no context
 * switch happened since (IDLESCOPE_F_IDLE_CONTINUED) and its sequence
 * number follows.
 */
#ifndef __IDLESCOPE_STATS_LOGICAL_H
#define __IDLESCOPE_STATS_LOGICAL_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "stats/aggregate.h"

/* One CPU's logical period in the making. */
struct logical_cpu {
	bool open;
	bool tick_only;			/* its last period was ended by the tick alone */
	__u32 last_seq;
	__u32 nr_periods;		/* raw periods merged so far */
	struct idlescope_record rec;	/* the first period's, residency the sum */
	__u64 woke_ns;			/* from its entry to the last wake-up */
	__u64 exit_ns;			/* the last period's exit */
	unsigned int inputs;		/* the first period's */
	__u64 state_ns[IDLESCOPE_MAX_STATES];	/* time in each state entered */
	/* What the models predicted and chose at its entry ... */
	struct agg_shadow_period shadows[AGG_MAX_SHADOWS];
	/* ... and the time each model's chosen states held it. */
	__u64 shadow_state_ns[AGG_MAX_SHADOWS][IDLESCOPE_MAX_STATES];
};

struct logical {
	struct agg *agg;		/* where the logical periods are scored */
	int nr_shadows;
	__u64 raw_periods;		/* raw periods taken in */
	__u64 logical_periods;		/* logical periods scored */
	struct logical_cpu cpus[IDLESCOPE_MAX_CPUS];
};

/**
 * logical_init() - start merging into @agg
 * @lg: the merger
 * @agg: the aggregate the logical periods go to (its shadows named as the
 *	raw aggregate's)
 * @nr_shadows: how many shadow predictions logical_add() is given
 */
void logical_init(struct logical *lg, struct agg *agg, int nr_shadows);

/**
 * logical_tick_only() - whether the tick alone ended a period
 * @rec: the raw period's record
 *
 * The tick's hrtimer fired in the period, and neither a sleep's timer nor
 * a timer_list expiry (which a stopped tick is programmed for) did: a
 * period a tickless kernel would not have ended, merged with the next
 * into one logical period.
 *
 * Return: true for such a period.
 */
bool logical_tick_only(const struct idlescope_record *rec);

/**
 * logical_add() - one raw period, in its CPU's order
 * @lg: the merger
 * @p: the period (stats/period.h), with what the shadow models did on it
 *	(@lg's nr_shadows of them) or without (NULL shadows)
 *
 * Merges it into its CPU's open logical period, or scores that one and
 * opens a new one with it.
 */
void logical_add(struct logical *lg, const struct period *p);

/**
 * logical_flush() - score every open logical period
 * @lg: the merger
 *
 * At the end of a run's records: the next record file is another run.
 */
void logical_flush(struct logical *lg);

#endif /* __IDLESCOPE_STATS_LOGICAL_H */
