/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paired.h - a difference between two sides measured on the same units.
 *
 * Two governors that ran in one boot share that boot's guest speed, its
 * phases, its seed; two runs of the same seeds on two kernels share the
 * seeds' workload draws.  What the two sides share cancels in their
 * difference, so the unit of a paired comparison is the pair: each
 * boot's (or seed's) B - A is one observation, and the mean difference
 * over K pairs has a t interval with K - 1 degrees of freedom, and a
 * two-sided p-value of the same t (stats/student.h), so the interval and
 * the test agree.  As with one side's interval over boots (ci_over_boots()),
 * the variance is never taken below the pairs' own within-boot variance,
 * which few pairs can underestimate by chance.
 */
#ifndef __IDLESCOPE_STATS_PAIRED_H
#define __IDLESCOPE_STATS_PAIRED_H

#include "stats/ci.h"

struct paired_diff {
	struct ci_pct diff;	/* B - A in percentage points, its 95% interval */
	double p_value;		/* two-sided, no difference; NaN: under 2 pairs */
	int nr_pairs;		/* pairs with a share on both sides */
};

/**
 * paired_diff() - the mean of B - A over pairs, its interval and test
 * @a: side A's share per pair (one boot's or seed's ci_result())
 * @b: side B's, in the same order
 * @nr: how many pairs; those where either share is NaN are left out
 *
 * Return: the difference; with fewer than two pairs its interval and
 * p-value are NaN.  Pairs that all differ alike (no spread, no
 * within-boot variance) give an interval of 0 and a p-value of 1 for no
 * difference, 0 for one.
 */
struct paired_diff paired_diff(const struct ci_pct *a, const struct ci_pct *b, int nr);

#endif /* __IDLESCOPE_STATS_PAIRED_H */
