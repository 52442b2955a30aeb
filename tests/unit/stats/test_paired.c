// SPDX-License-Identifier: GPL-2.0
/*
 * test_paired - a paired difference over boots (loader/stats/paired.h) and
 * a cell's regimes (loader/stats/regimes.h) on known values, worked out by
 * hand: B - A of 2, 3, 1 and 3 points over four pairs is +2.25 with a
 * standard error of 0.4787, a 95% half-width of t(3) 3.182 times that,
 * 1.523, and t = 4.700, two-sided p = 0.01822 (numerical integration of
 * t(3)'s density); the within-boot floor; the regimes of docs/clock.md's
 * four boots and of boots that only spread.
 */
#include <math.h>
#include "stats/paired.h"
#include "stats/regimes.h"
#include "check.h"

static struct ci_pct share(double pct, double se)
{
	return (struct ci_pct){ .pct = pct, .se = se, .half = 1.96 * se, .lo = NAN, .hi = NAN };
}

static void test_paired(void)
{
	struct ci_pct a[5] = { share(50, 0), share(60, 0), share(70, 0), share(80, 0),
			       share(90, 0) };
	struct ci_pct b[5] = { share(52, 0), share(63, 0), share(71, 0), share(83, 0),
			       share(NAN, 0) };
	struct paired_diff pd = paired_diff(a, b, 5);

	check(pd.nr_pairs == 4 && fabs(pd.diff.pct - 2.25) < 1e-12 &&
	      fabs(pd.diff.se - 0.478714) < 1e-6 && fabs(pd.diff.half - 1.523267) < 1e-5 &&
	      pd.diff.df == 3 && fabs(pd.p_value - 0.018220) < 1e-5,
	      "paired: B - A of 2, 3, 1, 3 is +2.25 ±1.52, p 0.0182 over 4 pairs (NaN left out)",
	      "%d pairs, %+.6f ±%.6f (se %.6f, df %g), p %.6f", pd.nr_pairs, pd.diff.pct,
	      pd.diff.half, pd.diff.se, pd.diff.df, pd.p_value);
	/* Within-boot standard errors of 2 points each side: variance 8 a pair. */
	a[0].se = a[1].se = a[2].se = a[3].se = 2;
	b[0].se = b[1].se = b[2].se = b[3].se = 2;
	pd = paired_diff(a, b, 4);
	check(fabs(pd.diff.se - sqrt(8.0 / 4)) < 1e-12,
	      "paired: never below the pairs' within-boot variance (se sqrt(8 / 4))",
	      "se %.6f", pd.diff.se);
	pd = paired_diff(a, b, 1);
	check(pd.nr_pairs == 1 && pd.diff.pct == 2 && isnan(pd.diff.half) && isnan(pd.p_value),
	      "paired: one pair has a difference, no interval and no test",
	      "half %g, p %g", pd.diff.half, pd.p_value);
}

static void test_regimes(void)
{
	struct ci_pct clock[4] = { share(99.7, 0.2), share(91.0, 0.5), share(58.1, 1),
				   share(99.2, 0.2) };
	struct ci_pct spread[10];
	struct regimes r;
	bool two;
	int i;

	two = regimes_find(clock, 4, &r);
	check(two && r.nr == 2 && r.regime[0].nr_boots == 1 &&
	      r.regime[0].mean_pct == 58.1 && r.regime[1].nr_boots == 3 &&
	      fabs(r.regime[1].mean_pct - (99.7 + 91.0 + 99.2) / 3) < 1e-9 &&
	      fabs(r.gap_pp - 32.9) < 1e-9,
	      "regimes: 99.7, 91.0, 58.1, 99.2 are one boot at 58.1 and three at 96.6",
	      "%d regimes, gap %.1f", r.nr, r.gap_pp);
	/* 2 points apart each, 18 in all: spread, not regimes. */
	for (i = 0; i < 10; i++)
		spread[i] = share(80 + 2 * i, 0.5);
	two = regimes_find(spread, 10, &r);
	check(!two && r.nr == 1 && r.regime[0].nr_boots == 10 &&
	      r.regime[0].lo_pct == 80 && r.regime[0].hi_pct == 98,
	      "regimes: ten boots 2 points apart are one regime", "%d regimes", r.nr);
	two = regimes_find(clock + 1, 2, &r);
	check(!two && r.nr == 1,
	      "regimes: two boots cannot tell a regime from spread", "%d regimes", r.nr);
}

int main(void)
{
	test_paired();
	test_regimes();
	return check_done();
}
