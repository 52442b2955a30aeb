// SPDX-License-Identifier: GPL-2.0
/*
 * ci.c - batch-means confidence intervals for shares, and their
 * combination over boots (see ci.h for why).
 *
 * With k batches (h_i, n_i), the share is p = H / N and the ratio
 * estimator's variance is sum e_i^2 / (k (k - 1) nbar^2) with
 * e_i = h_i - p n_i and nbar = N / k; the sum expands into the kept sums of
 * h^2, h*n and n^2.  The lag-1 autocorrelation of the batches is
 * sum e_i e_i+1 / sum e_i^2 (times k / pairs), from the kept products of
 * neighbours.  The interval is p +- t(k - 1) * sqrt(variance), the
 * variance times (1 + r) / (1 - r) when a correlation r > 0 is left
 * (the variance of the mean of an AR(1) sequence of batches).
 */
#include <math.h>
#include <stddef.h>
#include "stats/ci.h"
#include "stats/student.h"

static void close_batch(struct ci_level *lv, double h, double n)
{
	lv->nr_batches++;
	lv->sum_h += h;
	lv->sum_n += n;
	lv->sum_hh += h * h;
	lv->sum_nn += n * n;
	lv->sum_hn += h * n;
	if (lv->has_prev) {
		lv->nr_pairs++;
		lv->sum_hh1 += lv->prev_h * h;
		lv->sum_nn1 += lv->prev_n * n;
		lv->sum_hn1 += lv->prev_h * n + lv->prev_n * h;
	}
	lv->prev_h = h;
	lv->prev_n = n;
	lv->has_prev = 1;
}

static __u32 batch_len(int level)
{
	return CI_BATCH_MIN << (CI_LEVEL_SHIFT * level);
}

/*
 * Level 0's batch is full: it closes, and its sums go on to fill level 1's
 * batch, whose closing fills level 2's.  Each sample is added once, not
 * once per level; the sums are the same as adding it at every level because
 * h and n are whole numbers (0/1 or nanoseconds) whose sums stay below
 * 2^53, where double addition is exact in any order.
 */
void ci_close_level0(struct ci_acc *acc)
{
	double h = acc->level[0].cur_h, n = acc->level[0].cur_n;
	__u32 len = acc->level[0].cur_len;
	int l;

	for (l = 0; l < CI_NR_LEVELS; l++) {
		struct ci_level *lv = &acc->level[l];

		if (l) {
			lv->cur_h += h;
			lv->cur_n += n;
			lv->cur_len += len;
			if (lv->cur_len < batch_len(l))
				return;
			h = lv->cur_h;
			n = lv->cur_n;
			len = lv->cur_len;
		}
		close_batch(lv, h, n);
		lv->cur_h = lv->cur_n = 0;
		lv->cur_len = 0;
	}
}

/*
 * Level @l as if each sample had been added there directly: its own
 * unfinished batch plus the samples still waiting in the levels below.
 */
static struct ci_level level_view(const struct ci_acc *acc, int l)
{
	struct ci_level lv = acc->level[l];
	int below;

	for (below = 0; below < l; below++) {
		lv.cur_h += acc->level[below].cur_h;
		lv.cur_n += acc->level[below].cur_n;
		lv.cur_len += acc->level[below].cur_len;
	}
	return lv;
}

/* Level @l with its unfinished batch closed: every sample in a batch. */
static struct ci_level level_closed(const struct ci_acc *acc, int l)
{
	struct ci_level lv = level_view(acc, l);

	if (lv.cur_len)
		close_batch(&lv, lv.cur_h, lv.cur_n);
	lv.cur_h = lv.cur_n = 0;
	lv.cur_len = 0;
	return lv;
}

void ci_merge(struct ci_acc *dst, const struct ci_acc *src)
{
	int l;

	for (l = 0; l < CI_NR_LEVELS; l++) {
		struct ci_level *d = &dst->level[l];
		/* Another stream's unfinished batch does not continue ours. */
		const struct ci_level s = level_closed(src, l);

		d->nr_batches += s.nr_batches;
		d->sum_h += s.sum_h;
		d->sum_n += s.sum_n;
		d->sum_hh += s.sum_hh;
		d->sum_nn += s.sum_nn;
		d->sum_hn += s.sum_hn;
		/* Its neighbours are its own: no pair across the two streams. */
		d->nr_pairs += s.nr_pairs;
		d->sum_hh1 += s.sum_hh1;
		d->sum_nn1 += s.sum_nn1;
		d->sum_hn1 += s.sum_hn1;
	}
}

/* sum e_i^2 of a level's batches around @p (>= 0 against rounding). */
static double level_ss(const struct ci_level *lv, double p)
{
	double ss = lv->sum_hh - 2 * p * lv->sum_hn + p * p * lv->sum_nn;

	return ss > 0 ? ss : 0;
}

/* Lag-1 autocorrelation of a level's batches around @p; 0 without pairs. */
static double level_lag1(const struct ci_level *lv, double p)
{
	double ss = level_ss(lv, p), cross;

	if (!lv->nr_pairs || ss <= 0)
		return 0;
	cross = lv->sum_hh1 - p * lv->sum_hn1 + p * p * lv->sum_nn1;
	return cross / lv->nr_pairs / (ss / lv->nr_batches);
}

/*
 * The level the interval uses (ci.h): the shortest batches of which there
 * are enough to see their correlation and that are not correlated; if the
 * longest such level still is, but little (CI_MAX_LAG1_EXTRAPOLATED), the
 * next one, whose correlation is about a quarter of this one's (it falls as
 * 1/B once B is past the correlation length), when it has
 * CI_MIN_INTERVAL_BATCHES; else -1.  A stream too short to test even its
 * shortest batches uses them untested, as the batches are all it has.
 */
static int pick_level(const struct ci_acc *acc, double p, double *lag1)
{
	int l, last_tested = -1;
	struct ci_level lv;
	double r = 0;

	for (l = 0; l < CI_NR_LEVELS; l++) {
		lv = level_closed(acc, l);
		if (lv.nr_batches < CI_TEST_BATCHES)
			break;
		last_tested = l;
		r = level_lag1(&lv, p);
		if (r <= CI_MAX_LAG1 + 1 / sqrt(lv.nr_batches)) {
			*lag1 = r;
			return l;
		}
	}
	if (last_tested < 0) {
		*lag1 = 0;
		return 0;
	}
	l = last_tested + 1;
	if (l == CI_NR_LEVELS || r > CI_MAX_LAG1_EXTRAPOLATED)
		return -1;
	lv = level_closed(acc, l);
	if (lv.nr_batches < CI_MIN_INTERVAL_BATCHES)
		return -1;
	*lag1 = r / (1 << CI_LEVEL_SHIFT);
	return l;
}

static void ci_set_half(struct ci_pct *r, double half)
{
	r->half = half;
	r->lo = fmax(0.0, r->pct - half);
	r->hi = fmin(100.0, r->pct + half);
}

struct ci_pct ci_result(const struct ci_acc *acc)
{
	struct ci_pct r = {
		.pct = NAN, .lo = NAN, .hi = NAN, .half = NAN, .se = NAN, .df = NAN,
	};
	struct ci_level lv = level_closed(acc, 0);
	double p, k, nbar, var, lag1 = 0;
	int level;

	if (lv.sum_n <= 0)
		return r;
	r.nr_boots = 1;
	p = lv.sum_h / lv.sum_n;
	r.pct = 100.0 * p;
	level = pick_level(acc, p, &lag1);
	if (level < 0) {
		r.too_correlated = true;
		return r;
	}
	lv = level_closed(acc, level);
	r.nr_batches = lv.nr_batches;
	if (lv.nr_batches < CI_MIN_INTERVAL_BATCHES)
		return r;
	k = lv.nr_batches;
	nbar = lv.sum_n / k;
	var = level_ss(&lv, p) / (k * (k - 1)) / (nbar * nbar);
	if (lag1 > 0)
		var *= (1 + lag1) / (1 - lag1);
	r.se = 100.0 * sqrt(var);
	r.df = k - 1;
	ci_set_half(&r, student_t95(lv.nr_batches - 1) * r.se);
	return r;
}

struct ci_pct ci_over_boots(const struct ci_pct *boots, int nr)
{
	struct ci_pct r = {
		.pct = NAN, .lo = NAN, .hi = NAN, .half = NAN, .se = NAN, .df = NAN,
	};
	double sum = 0, ss = 0, within = 0, var;
	int i, k = 0, nr_within = 0;
	const struct ci_pct *only = NULL;

	for (i = 0; i < nr; i++) {
		if (isnan(boots[i].pct))
			continue;
		only = &boots[i];
		sum += boots[i].pct;
		k++;
		if (!isnan(boots[i].se)) {
			within += boots[i].se * boots[i].se;
			nr_within++;
		}
	}
	if (k <= 1)
		return only ? *only : r;
	r.nr_boots = k;
	r.pct = sum / k;
	for (i = 0; i < nr; i++)
		if (!isnan(boots[i].pct))
			ss += (boots[i].pct - r.pct) * (boots[i].pct - r.pct);
	var = ss / (k - 1);
	if (nr_within && within / nr_within > var)
		var = within / nr_within;
	r.se = sqrt(var / k);
	r.df = k - 1;
	ci_set_half(&r, student_t95(k - 1) * r.se);
	return r;
}

struct ci_pct ci_diff(const struct ci_pct *a, const struct ci_pct *b)
{
	struct ci_pct r = {
		.pct = a->pct - b->pct, .lo = NAN, .hi = NAN, .half = NAN, .se = NAN,
		.df = NAN,
	};

	r.nr_batches = a->nr_batches < b->nr_batches ? a->nr_batches : b->nr_batches;
	r.nr_boots = a->nr_boots < b->nr_boots ? a->nr_boots : b->nr_boots;
	r.too_correlated = a->too_correlated || b->too_correlated;
	if (isnan(a->half) || isnan(b->half))
		return r;
	r.half = sqrt(a->half * a->half + b->half * b->half);
	r.se = sqrt(a->se * a->se + b->se * b->se);
	r.df = fmin(a->df, b->df);
	r.lo = r.pct - r.half;
	r.hi = r.pct + r.half;
	return r;
}
