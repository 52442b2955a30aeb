/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shares.h - the shares the headline, compare and the gate judge a cell
 * by: each a metric (within 2x, ideal hit, deeper or shallower than ideal)
 * over a view of the periods (raw: the idle driver's, the 2010 table's
 * unit; logical: tick-ended runs as one, stats/logical.h), taken from a
 * key's statistics.  One place for what they are, which way is better,
 * and where in struct agg_stats each one's accumulator sits.
 */
#ifndef __IDLESCOPE_STATS_SHARES_H
#define __IDLESCOPE_STATS_SHARES_H

#include "stats/aggregate.h"
#include "stats/boots.h"

enum share_metric {
	SHARE_WITHIN_2X,	/* % of predictions within 2x of the actual */
	SHARE_IDEAL_HIT,	/* % of periods in their ideal state */
	SHARE_TOO_DEEP,		/* % of periods deeper than ideal */
	SHARE_TOO_SHALLOW,	/* % of periods shallower than ideal */
	SHARE_NR_METRICS,
};

enum share_view {
	VIEW_RAW,		/* the idle driver's periods */
	VIEW_LOGICAL,		/* tick-ended runs as one */
	VIEW_NR,
};

struct share_metric_info {
	const char *name;	/* JSON key, compare's row name */
	const char *title;	/* report.txt's table corner */
	int better;		/* +1: higher is better, -1: lower is */
};

extern const struct share_metric_info share_metrics[SHARE_NR_METRICS];
extern const char *const share_view_names[VIEW_NR];

/**
 * share_acc() - the accumulator of one metric in a key's statistics
 * @st: the key's statistics
 * @metric: enum share_metric (a boots_acc_fn)
 *
 * Return: the accumulator; within 2x at agg_factors[]'s 2x.
 */
const struct ci_acc *share_acc(const struct agg_stats *st, int metric);

/**
 * share_model_acc() - a shadow model's within 2x in a key's statistics
 * @st: the key's statistics
 * @shadow: the model's index (agg_set_shadows()) (a boots_acc_fn)
 *
 * Return: the accumulator.
 */
const struct ci_acc *share_model_acc(const struct agg_stats *st, int shadow);

/**
 * share_cell() - a workload x governor's statistics in a view, all boots
 * @agg: the aggregate and its boots
 * @workload: an index of @agg
 * @governor: enum idlescope_governor
 * @view: enum share_view
 * @cell: filled (boots_cell_get()); boots_cell_free() it whatever is returned
 *
 * Return: false when @agg has no record for it (in that view).
 */
bool share_cell(const struct agg *agg, int workload, int governor, int view,
		struct boots_cell *cell);

#endif /* __IDLESCOPE_STATS_SHARES_H */
