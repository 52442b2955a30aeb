// SPDX-License-Identifier: GPL-2.0
/*
 * paired.c - a difference over pairs of boots or seeds (see paired.h).
 */
#include <math.h>
#include "stats/paired.h"
#include "stats/student.h"

/* A within-boot variance, 0 where the share has no standard error. */
static double within_var(const struct ci_pct *r)
{
	return isnan(r->se) ? 0 : r->se * r->se;
}

struct paired_diff paired_diff(const struct ci_pct *a, const struct ci_pct *b, int nr)
{
	struct paired_diff pd = { .p_value = NAN };
	double sum = 0, sum_sq = 0, within = 0, mean, var, t;
	int i, k = 0;

	pd.diff = (struct ci_pct){ .pct = NAN, .lo = NAN, .hi = NAN, .half = NAN,
				   .se = NAN, .df = NAN };
	for (i = 0; i < nr; i++) {
		if (isnan(a[i].pct) || isnan(b[i].pct))
			continue;
		sum += b[i].pct - a[i].pct;
		k++;
	}
	pd.nr_pairs = k;
	pd.diff.nr_boots = k;
	if (!k)
		return pd;
	mean = sum / k;
	pd.diff.pct = mean;
	if (k < 2)
		return pd;
	for (i = 0; i < nr; i++) {
		if (isnan(a[i].pct) || isnan(b[i].pct))
			continue;
		sum_sq += (b[i].pct - a[i].pct - mean) * (b[i].pct - a[i].pct - mean);
		within += within_var(&a[i]) + within_var(&b[i]);
	}
	var = sum_sq / (k - 1);
	if (var < within / k)
		var = within / k;
	pd.diff.df = k - 1;
	pd.diff.se = sqrt(var / k);
	pd.diff.half = student_t95(k - 1) * pd.diff.se;
	pd.diff.lo = mean - pd.diff.half;
	pd.diff.hi = mean + pd.diff.half;
	if (pd.diff.se == 0) {
		pd.p_value = mean == 0 ? 1.0 : 0.0;
		return pd;
	}
	t = mean / pd.diff.se;
	pd.p_value = student_two_sided_p(t, k - 1);
	return pd;
}
