// SPDX-License-Identifier: GPL-2.0
/*
 * ci.c - batch-means confidence intervals for shares (see ci.h for why).
 *
 * With k batches (h_i, n_i), the share is p = H / N and the ratio
 * estimator's variance is sum (h_i - p n_i)^2 / (k (k - 1) nbar^2) with
 * nbar = N / k; the sum expands into the kept sums of h^2, h*n and n^2.
 * The interval is p +- t(k - 1) * sqrt(variance).
 */
#include <math.h>
#include "stats/ci.h"

static void close_batch(struct ci_level *lv, double h, double n)
{
	lv->nr_batches++;
	lv->sum_h += h;
	lv->sum_n += n;
	lv->sum_hh += h * h;
	lv->sum_nn += n * n;
	lv->sum_hn += h * n;
}

static __u32 batch_len(int level)
{
	return CI_BATCH_MIN << (3 * level);
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

void ci_merge(struct ci_acc *dst, const struct ci_acc *src)
{
	int l;

	for (l = 0; l < CI_NR_LEVELS; l++) {
		struct ci_level *d = &dst->level[l];
		const struct ci_level s = level_view(src, l);

		d->nr_batches += s.nr_batches;
		d->sum_h += s.sum_h;
		d->sum_n += s.sum_n;
		d->sum_hh += s.sum_hh;
		d->sum_nn += s.sum_nn;
		d->sum_hn += s.sum_hn;
		/* Another stream's unfinished batch does not continue ours. */
		if (s.cur_len)
			close_batch(d, s.cur_h, s.cur_n);
	}
}

/* Quantiles for small df, then the Cornish-Fisher expansion in 1/df. */
double ci_t95(unsigned int df)
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

/* The level the interval uses: the longest batches there are enough of. */
static int pick_level(const struct ci_acc *acc)
{
	int l;

	for (l = CI_NR_LEVELS - 1; l > 0; l--) {
		const struct ci_level lv = level_view(acc, l);

		if (lv.nr_batches + (lv.cur_len > 0) >= CI_MIN_BATCHES)
			return l;
	}
	return 0;
}

struct ci_pct ci_result(const struct ci_acc *acc)
{
	struct ci_pct r = { .pct = NAN, .lo = NAN, .hi = NAN, .half = NAN };
	struct ci_level lv = level_view(acc, pick_level(acc));
	double p, k, nbar, ss;

	if (lv.cur_len)
		close_batch(&lv, lv.cur_h, lv.cur_n);
	r.nr_batches = lv.nr_batches;
	if (lv.sum_n <= 0)
		return r;
	p = lv.sum_h / lv.sum_n;
	r.pct = 100.0 * p;
	if (lv.nr_batches < CI_MIN_INTERVAL_BATCHES)
		return r;
	k = lv.nr_batches;
	nbar = lv.sum_n / k;
	ss = lv.sum_hh - 2 * p * lv.sum_hn + p * p * lv.sum_nn;
	if (ss < 0)	/* rounding when every batch has the same share */
		ss = 0;
	r.half = 100.0 * ci_t95(lv.nr_batches - 1) * sqrt(ss / (k * (k - 1))) / nbar;
	r.lo = fmax(0.0, r.pct - r.half);
	r.hi = fmin(100.0, r.pct + r.half);
	return r;
}

struct ci_pct ci_diff(const struct ci_pct *a, const struct ci_pct *b)
{
	struct ci_pct r = { .pct = a->pct - b->pct, .lo = NAN, .hi = NAN, .half = NAN };

	r.nr_batches = a->nr_batches < b->nr_batches ? a->nr_batches : b->nr_batches;
	if (isnan(a->half) || isnan(b->half))
		return r;
	r.half = sqrt(a->half * a->half + b->half * b->half);
	r.lo = r.pct - r.half;
	r.hi = r.pct + r.half;
	return r;
}
