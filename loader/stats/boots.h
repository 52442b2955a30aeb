/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boots.h - a share of one workload x governor with the boot as the unit
 * of replication: its value in each boot the aggregate was merged from
 * (agg_boot()), and the interval over them (ci_over_boots()).  An
 * aggregate of one boot, or of none (the live loader's), gives that
 * boot's own batch-means interval.
 */
#ifndef __IDLESCOPE_STATS_BOOTS_H
#define __IDLESCOPE_STATS_BOOTS_H

#include <stdbool.h>
#include "stats/aggregate.h"
#include "stats/ci.h"

/* The accumulator of one share in a key's statistics; @arg picks one of several. */
typedef const struct ci_acc *(*boots_acc_fn)(const struct agg_stats *st, int arg);

/* One workload x governor, all CPUs: in all boots and in each. */
struct boots_cell {
	int nr_boots;			/* agg_nr_boots(); 0: no boots recorded */
	int nr_excluded;		/* boots whose run is left out (agg_run_excluded()) */
	struct agg_stats pooled;
	struct agg_stats *boot;		/* nr_boots entries; samples 0: not in that boot */
};

/**
 * boots_cell_get() - the statistics of one workload x governor, all CPUs
 * @agg: the aggregate, and its boots
 * @workload: index in @agg
 * @governor: enum idlescope_governor
 * @cell: filled; boots_cell_free() it whatever is returned
 *
 * A boot whose run of it is left out (agg_run_excluded()) counts as one
 * without it, in the boots and the pooled numbers; nr_excluded says how
 * many (all of them: nothing pooled, no share).
 *
 * Return: false when @agg has no record for it (or no memory for the boots).
 */
bool boots_cell_get(const struct agg *agg, int workload, int governor,
		    struct boots_cell *cell);

/**
 * boots_cell_get_logical() - the same over the logical idle periods
 * @agg: the raw periods' aggregate (its logical one and its boots' are used)
 * @workload: index in @agg
 * @governor: enum idlescope_governor
 * @cell: filled; boots_cell_free() it whatever is returned
 *
 * Return: false when @agg has no logical aggregate or it no record for it.
 */
bool boots_cell_get_logical(const struct agg *agg, int workload, int governor,
			    struct boots_cell *cell);

/**
 * boots_cell_free() - free a cell's per-boot parts
 * @cell: from boots_cell_get() or boots_cell_get_logical(), whatever they
 *	returned; freeing it twice is harmless
 */
void boots_cell_free(struct boots_cell *cell);

/**
 * boots_cell_share() - one share of a cell with its interval over boots
 * @cell: from boots_cell_get()
 * @of: the share's accumulator
 * @arg: for @of
 * @per_boot: NULL, or @cell->nr_boots entries: each boot's own share (pct
 *	NaN where it has no sample)
 *
 * Return: ci_over_boots() of the boots' shares; the pooled share's own
 * interval when there are fewer than two boots.
 */
struct ci_pct boots_cell_share(const struct boots_cell *cell, boots_acc_fn of, int arg,
			       struct ci_pct *per_boot);

#endif /* __IDLESCOPE_STATS_BOOTS_H */
