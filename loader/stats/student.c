// SPDX-License-Identifier: GPL-2.0
/*
 * student.c - Student's t distribution (see student.h).
 *
 * The tail: P(|T| > t) with d degrees of freedom is the regularized
 * incomplete beta function I_x(d / 2, 1 / 2) at x = d / (d + t^2),
 * evaluated by its continued fraction (modified Lentz), which converges
 * quickly for x < (a + 1) / (a + b + 2); past that the symmetry
 * I_x(a, b) = 1 - I_1-x(b, a) is used.
 */
#include <math.h>
#include "stats/student.h"

/* Quantiles for small df, then the Cornish-Fisher expansion in 1/df. */
double student_t95(unsigned int df)
{
	static const double small[] = {
		NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228,
	};
	const double z = 1.959964;
	double d = df;

	if (df < sizeof(small) / sizeof(small[0]))
		return small[df];
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

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

double student_two_sided_p(double t, double df)
{
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}


double student_quantile(double p, double df)
{
	double lo = 0, hi = 1, mid;

	/* P(|T| > t) falls with t: widen the bracket, then halve it. */
	while (student_two_sided_p(hi, df) > p && hi < 1e12)
		hi *= 2;
	while (hi - lo > 1e-9 * (1 + hi)) {
		mid = (lo + hi) / 2;
		if (student_two_sided_p(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
