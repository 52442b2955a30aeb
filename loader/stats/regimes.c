// SPDX-License-Identifier: GPL-2.0
/*
 * regimes.c - a cell's boots split into regimes (see regimes.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/regimes.h"

static int by_pct(const void *x, const void *y)
{
	const struct ci_pct *a = x, *b = y;

	return a->pct < b->pct ? -1 : a->pct > b->pct;
}

/* Boots @from..@to - 1 of @v (sorted) as one regime. */
static void fill(struct regime *r, const struct ci_pct *v, int from, int to)
{
	double sum = 0;
	int i;

	for (i = from; i < to; i++)
		sum += v[i].pct;
	r->nr_boots = to - from;
	r->mean_pct = sum / r->nr_boots;
	r->lo_pct = v[from].pct;
	r->hi_pct = v[to - 1].pct;
}

/* A group's spread: its range, or one boot's 95% interval's width. */
static double spread(const struct ci_pct *v, int from, int to)
{
	if (to - from > 1)
		return v[to - 1].pct - v[from].pct;
	return isnan(v[from].half) ? 0 : 2 * v[from].half;
}

bool regimes_find(const struct ci_pct *boots, int nr, struct regimes *out)
{
	struct ci_pct *v = calloc(nr ? nr : 1, sizeof(*v));
	int i, k = 0, split = 0;
	double gap, wider;

	memset(out, 0, sizeof(*out));
	if (!v)
		return false;
	for (i = 0; i < nr; i++)
		if (!isnan(boots[i].pct))
			v[k++] = boots[i];
	if (!k) {
		free(v);
		return false;
	}
	qsort(v, k, sizeof(*v), by_pct);
	for (i = 1; i < k; i++) {
		if (v[i].pct - v[i - 1].pct > out->gap_pp) {
			out->gap_pp = v[i].pct - v[i - 1].pct;
			split = i;
		}
	}
	out->nr = 1;
	fill(&out->regime[0], v, 0, k);
	gap = out->gap_pp;
	if (k >= REGIMES_MIN_BOOTS && split) {
		wider = fmax(spread(v, 0, split), spread(v, split, k));
		if (gap >= REGIMES_MIN_GAP_PP && gap >= REGIMES_GAP_RATIO * wider) {
			out->nr = 2;
			fill(&out->regime[0], v, 0, split);
			fill(&out->regime[1], v, split, k);
		}
	}
	free(v);
	return out->nr == 2;
}
