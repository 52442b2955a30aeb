// SPDX-License-Identifier: GPL-2.0
/*
 * holm.c - p-values of differences and Holm's procedure (see holm.h).
 *
 * Student's t distribution: P(|T| > t) with d degrees of freedom is the
 * regularized incomplete beta function I_x(d / 2, 1 / 2) at
 * x = d / (d + t^2), evaluated by its continued fraction (modified Lentz),
 * which converges quickly for x < (a + 1) / (a + b + 2); past that the
 * symmetry I_x(a, b) = 1 - I_1-x(b, a) is used.
 */
#include <math.h>
#include <stdlib.h>
#include "stats/holm.h"

#define CF_MAX_TERMS	300
#define CF_EPS		1e-12
#define CF_TINY		1e-300

/* The continued fraction of I_x(a, b), without its prefactor. */
static double beta_fraction(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f, num, delta;
	int m;

	d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
	f = d;
	for (m = 1; m <= CF_MAX_TERMS; m++) {
		/* the even step, then the odd one */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		f *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < CF_TINY ? CF_TINY : d);
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1) < CF_EPS)
			break;
	}
	return f;
}

static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(|T| >= |t|) for Student's t with @df degrees of freedom. */
static double t_two_sided(double t, double df)
{
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double holm_p_value(const struct ci_pct *a, const struct ci_pct *b)
{
	double va, vb, se, df;

	if (isnan(a->se) || isnan(b->se) || isnan(a->df) || isnan(b->df) ||
	    a->df < 1 || b->df < 1)
		return NAN;
	va = a->se * a->se;
	vb = b->se * b->se;
	se = sqrt(va + vb);
	if (se == 0)	/* two sides without spread: equal or surely different */
		return a->pct == b->pct ? 1.0 : 0.0;
	df = (va + vb) * (va + vb) / (va * va / a->df + vb * vb / b->df);
	return t_two_sided((a->pct - b->pct) / se, df);
}

struct ranked {
	double p;
	int row;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p ? 1 : a->row - b->row;
}

int holm_reject(const double *p, int nr, double alpha, bool *reject)
{
	struct ranked *r = calloc(nr ? nr : 1, sizeof(*r));
	int i, m = 0, flagged = 0;

	for (i = 0; i < nr; i++) {
		reject[i] = false;
		if (r && !isnan(p[i])) {
			r[m].p = p[i];
			r[m++].row = i;
		}
	}
	if (!r)		/* no memory: Bonferroni, which needs no order */
		for (i = 0, m = 0; i < nr; i++)
			m += !isnan(p[i]);
	if (!r) {
		for (i = 0; i < nr; i++)
			flagged += reject[i] = !isnan(p[i]) && p[i] <= alpha / m;
		return flagged;
	}
	qsort(r, m, sizeof(*r), by_p);
	for (i = 0; i < m && r[i].p <= alpha / (m - i); i++)
		reject[r[i].row] = true;
	flagged = i;
	free(r);
	return flagged;
}
