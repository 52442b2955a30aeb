// SPDX-License-Identifier: GPL-2.0
/*
 * holm.c - p-values of differences and Holm's procedure (see holm.h).
 */
#include <math.h>
#include <stdlib.h>
#include "stats/holm.h"
#include "stats/student.h"

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
	return student_two_sided_p((a->pct - b->pct) / se, df);
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
