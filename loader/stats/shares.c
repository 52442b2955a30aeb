// SPDX-License-Identifier: GPL-2.0
/*
 * shares.c - the headline's shares (see shares.h).
 */
#include "stats/shares.h"

/* agg_factors[] index of 2x. */
#define SHARE_FACTOR_2X		1
_Static_assert(AGG_NR_FACTORS > SHARE_FACTOR_2X, "2x is in the factor table");

const struct share_metric_info share_metrics[SHARE_NR_METRICS] = {
	[SHARE_WITHIN_2X]	= { "within_2x", "within 2x %", +1 },
	[SHARE_IDEAL_HIT]	= { "ideal_hit", "ideal hit %", +1 },
	[SHARE_TOO_DEEP]	= { "too_deep", "deeper than ideal %", -1 },
	[SHARE_TOO_SHALLOW]	= { "too_shallow", "shallower than ideal %", -1 },
};

const char *const share_view_names[VIEW_NR] = {
	[VIEW_RAW] = "raw", [VIEW_LOGICAL] = "logical",
};

const struct ci_acc *share_acc(const struct agg_stats *st, int metric)
{
	switch ((enum share_metric)metric) {
	case SHARE_WITHIN_2X:
		return &st->within_ci[SHARE_FACTOR_2X];
	case SHARE_IDEAL_HIT:
		return &st->ideal_hit_ci;
	case SHARE_TOO_DEEP:
		return &st->ideal_too_deep_ci;
	case SHARE_TOO_SHALLOW:
	case SHARE_NR_METRICS:
		break;
	}
	return &st->ideal_too_shallow_ci;
}

const struct ci_acc *share_model_acc(const struct agg_stats *st, int shadow)
{
	return &st->shadow[shadow].within_ci[SHARE_FACTOR_2X];
}

bool share_cell(const struct agg *agg, int workload, int governor, int view,
		struct boots_cell *cell)
{
	return view == VIEW_LOGICAL ? boots_cell_get_logical(agg, workload, governor, cell) :
	       boots_cell_get(agg, workload, governor, cell);
}
