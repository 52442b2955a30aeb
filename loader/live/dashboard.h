/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dashboard.h - the live console view: the workload running now, in at
 * most DASHBOARD_ROWS lines of at most DASHBOARD_COLS columns, so it
 * redraws in place on a plain 80x24 console.  Per-CPU residency is in the
 * report, not here.
 */
#ifndef __IDLESCOPE_LIVE_DASHBOARD_H
#define __IDLESCOPE_LIVE_DASHBOARD_H

#include <stdio.h>
#include "stats/aggregate.h"

#define DASHBOARD_ROWS	24
#define DASHBOARD_COLS	80

/* What the caller knows beyond the aggregate. */
struct dashboard_status {
	double elapsed_s;
	double periods_per_s;
	__u64 records;
	__u64 dropped;
};

/**
 * dashboard_draw() - draw one screen of the live view
 * @f: where to
 * @agg: the run's aggregate
 * @status: what the caller knows beyond it
 *
 * The current workload (that of the last record) under the governor that
 * ran most of its periods: its prediction/actual ratio histogram, within
 * F of the live governor and of each model scored on its periods, and
 * the ideal-state and kernel verdicts, each share with its interval.
 * Before the first period, "no idle periods yet".
 */
void dashboard_draw(FILE *f, const struct agg *agg,
		    const struct dashboard_status *status);

#endif /* __IDLESCOPE_LIVE_DASHBOARD_H */
