/* SPDX-License-Identifier: GPL-2.0 */
/*
 * regimes.h - whether a cell's boots fall into separate clusters.
 *
 * Some cells land in one of two regimes from boot to boot (docs/clock.md:
 * within 2x of 99.7, 91.0, 58.1 and 99.2 in four boots).  Their mean with
 * a t interval describes no boot, and its interval collapses to its floor
 * when every boot happens to land in one regime.  So the report shows such
 * a cell's regimes (each one's boots and values) instead, and compare does
 * not flag it.
 *
 * The test, chosen to be explainable and checked by simulation on data
 * shaped like real runs (tests/unit/stats/test_power.c): the boots' shares are
 * sorted and split at the largest gap between neighbours; the cell has two
 * regimes when that gap is at least REGIMES_MIN_GAP_PP points and at least
 * REGIMES_GAP_RATIO times the spread of the wider of the two groups (a
 * group's range; one boot's alone, its own 95% half-width twice).  Boot
 * offsets of a few points never make such a gap; an outlying boot that
 * does is a regime of one.  At least REGIMES_MIN_BOOTS boots are needed:
 * fewer cannot tell a regime from spread.
 */
#ifndef __IDLESCOPE_STATS_REGIMES_H
#define __IDLESCOPE_STATS_REGIMES_H

#include <stdbool.h>
#include "stats/ci.h"

#define REGIMES_MIN_BOOTS	3
#define REGIMES_MIN_GAP_PP	5.0
#define REGIMES_GAP_RATIO	3.0

/* One cluster of boots. */
struct regime {
	int nr_boots;
	double mean_pct;		/* of its boots' shares */
	double lo_pct, hi_pct;		/* its lowest and highest boot */
};

struct regimes {
	int nr;				/* 1: one cluster (no regimes), 2: two */
	struct regime regime[2];	/* lower first */
	double gap_pp;			/* the largest gap between neighbours */
};

/**
 * regimes_find() - split a cell's boots into regimes, when they fall apart
 * @boots: one share per boot (ci_result()); NaN shares are left out
 * @nr: how many
 * @out: the clusters: one, or two when the test above says so
 *
 * Return: true for two regimes.
 */
bool regimes_find(const struct ci_pct *boots, int nr, struct regimes *out);

#endif /* __IDLESCOPE_STATS_REGIMES_H */
