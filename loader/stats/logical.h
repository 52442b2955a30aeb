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
 *
 * The merger knows no aggregate: the raw aggregate it belongs to
 * (agg_attach_logical()) hands it each raw period as it scores it, and
 * scores each logical period it closes, in the same call.
 */
#ifndef __IDLESCOPE_STATS_LOGICAL_H
#define __IDLESCOPE_STATS_LOGICAL_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "stats/period.h"

/* One CPU's logical period in the making. */
struct logical_cpu {
	bool open;
	bool tick_only;			/* its last period was ended by the tick alone */
	__u32 last_seq;
	__u32 nr_periods;		/* raw periods merged so far */
	int workload;			/* its key's workload, in the logical aggregate */
	struct idlescope_record rec;	/* the first period's, residency the sum */
	__u64 woke_ns;			/* from its entry to the last wake-up */
	__u64 exit_ns;			/* the last period's exit */
	unsigned int inputs;		/* the first period's */
	__u64 state_ns[IDLESCOPE_MAX_STATES];	/* time in each state entered */
	/* What the models predicted and chose at its entry ... */
	struct agg_shadow_period shadows[PERIOD_MAX_SHADOWS];
	/* ... and the time each model's chosen states held it. */
	__u64 shadow_state_ns[PERIOD_MAX_SHADOWS][IDLESCOPE_MAX_STATES];
};

struct logical {
	int nr_shadows;
	__u64 raw_periods;		/* raw periods taken in */
	__u64 logical_periods;		/* logical periods closed */
	struct logical_cpu cpus[IDLESCOPE_MAX_CPUS];
};

/**
 * logical_init() - an empty merger
 * @lg: the merger
 * @nr_shadows: how many shadow verdicts each raw period carries
 */
void logical_init(struct logical *lg, int nr_shadows);

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
 * logical_ends() - whether a raw period ends its CPU's open logical one
 * @lg: the merger
 * @p: the next raw period of its CPU (record cpu in range)
 *
 * Return: true when its CPU has an open logical period that @p does not
 * continue: logical_close() it before logical_take(@p).
 */
bool logical_ends(const struct logical *lg, const struct period *p);

/**
 * logical_close() - close a CPU's open logical period
 * @lg: the merger
 * @cpu: the CPU, below IDLESCOPE_MAX_CPUS
 * @closed: the period, to score: until its last raw period's wake-up,
 *	against its models' first predictions, its states and theirs by the
 *	time each held it; it points into @lg, valid until the next
 *	logical_take() on @cpu
 * @workload: its key's workload, as logical_take() was given it
 *
 * Return: false when @cpu had no open period (@closed untouched).
 */
bool logical_close(struct logical *lg, int cpu, struct period *closed, int *workload);

/**
 * logical_take() - one raw period, in its CPU's order
 * @lg: the merger
 * @p: the period (stats/period.h), with @lg's nr_shadows verdicts of the
 *	shadow models or without (NULL shadows); record cpu in range
 * @workload: the key's workload in the logical aggregate, kept for the
 *	logical period @p opens
 *
 * Merges it into its CPU's open logical period, or opens a new one with it
 * (after logical_close() of one that logical_ends() said it ends).
 */
void logical_take(struct logical *lg, const struct period *p, int workload);

#endif /* __IDLESCOPE_STATS_LOGICAL_H */
