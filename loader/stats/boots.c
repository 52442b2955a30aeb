// SPDX-License-Identifier: GPL-2.0
/* boots.c - shares with the boot as the unit of replication (see boots.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/boots.h"

/*
 * @agg's cell, or with @logical that of its logical periods: the logical
 * aggregates of @agg and of each of its boots (agg_logical()), which
 * intern the workloads in their own order, so found by name.  A run left
 * out (agg_run_excluded()) is no boot of the cell: it keeps no share, and
 * the pooled numbers are those of the boots that count.
 */
static bool cell_get(const struct agg *agg, int workload, int governor, bool logical,
		     struct boots_cell *cell)
{
	const char *name = agg_workload_name(agg, workload);
	const struct agg *pool = logical ? agg_logical(agg) : agg;
	const struct agg *boot;
	int b, w;

	cell->nr_boots = 0;
	cell->nr_excluded = 0;
	cell->boot = NULL;
	w = pool && name ? agg_workload_index(pool, name) : -1;
	if (w < 0 || !agg_sum(pool, w, governor, AGG_ANY, &cell->pooled))
		return false;
	cell->boot = calloc(agg_nr_boots(agg) ? agg_nr_boots(agg) : 1, sizeof(*cell->boot));
	if (!cell->boot)
		return false;
	cell->nr_boots = agg_nr_boots(agg);
	for (b = 0; b < cell->nr_boots; b++) {
		boot = agg_boot(agg, b);
		boot = logical ? agg_logical(boot) : boot;
		w = boot ? agg_workload_index(boot, name) : -1;
		if (w < 0 || !agg_sum(boot, w, governor, AGG_ANY, &cell->boot[b]))
			continue;
		if (agg_run_excluded(agg, b, name, governor)) {
			memset(&cell->boot[b], 0, sizeof(cell->boot[b]));
			cell->nr_excluded++;
		}
	}
	if (!cell->nr_excluded)
		return true;
	memset(&cell->pooled, 0, sizeof(cell->pooled));
	for (b = 0; b < cell->nr_boots; b++)
		agg_stats_merge(&cell->pooled, &cell->boot[b]);
	return true;
}

bool boots_cell_get(const struct agg *agg, int workload, int governor,
		    struct boots_cell *cell)
{
	return cell_get(agg, workload, governor, false, cell);
}

bool boots_cell_get_logical(const struct agg *agg, int workload, int governor,
			    struct boots_cell *cell)
{
	return cell_get(agg, workload, governor, true, cell);
}

void boots_cell_free(struct boots_cell *cell)
{
	free(cell->boot);
	cell->boot = NULL;
	cell->nr_boots = 0;
}

struct ci_pct boots_cell_share(const struct boots_cell *cell, boots_acc_fn of, int arg,
			       struct ci_pct *per_boot)
{
	struct ci_pct *shares = per_boot, r;
	int b;

	if (cell->nr_boots < 2) {
		r = ci_result(of(&cell->pooled, arg));
		if (per_boot && cell->nr_boots)
			per_boot[0] = r;
		return r;
	}
	if (!shares)
		shares = calloc(cell->nr_boots, sizeof(*shares));
	if (!shares)	/* no memory: the pooled share, within one boot's rules */
		return ci_result(of(&cell->pooled, arg));
	for (b = 0; b < cell->nr_boots; b++) {
		if (cell->boot[b].samples) {
			shares[b] = ci_result(of(&cell->boot[b], arg));
		} else {
			memset(&shares[b], 0, sizeof(shares[b]));
			shares[b].pct = shares[b].lo = shares[b].hi = NAN;
			shares[b].half = shares[b].se = shares[b].df = NAN;
		}
	}
	r = ci_over_boots(shares, cell->nr_boots);
	if (shares != per_boot)
		free(shares);
	return r;
}
