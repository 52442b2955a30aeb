/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ci.h - 95% confidence intervals for the share of something (periods
 * within F, periods in the ideal state, idle time in a state too shallow),
 * by batch means over consecutive samples.
 *
 * Why batch means: consecutive idle periods of one CPU are not independent
 * (a workload's pattern repeats, a governor's correction factor carries
 * from one period to the next, teo polls in bursts), so a binomial (Wilson)
 * interval, which assumes independent samples, is too narrow; it shrinks
 * as 1/sqrt(n) however few independent stretches the run really held.
 * Cutting the stream into batches of B consecutive samples and treating
 * each batch's (hits, samples) as one observation gives an honest variance
 * as soon as B is longer than the correlation.
 *
 * Deterministic, flat memory: no resampling and no stored samples.  Each
 * accumulator keeps, for CI_NR_LEVELS batch lengths (CI_BATCH_MIN, x8,
 * x64), the running sums a ratio estimator's variance needs (sum h, n, h^2,
 * n^2, h*n over closed batches) plus the batch being filled.  The interval
 * uses the longest batches of which there are at least CI_MIN_BATCHES
 * (else the shortest): long batches for long runs, enough of them for the
 * t quantile to be tight.  Accumulators of different keys (CPUs, workload
 * runs) merge by adding sums; an unfinished batch becomes a closed one in
 * the merge and at the end, so no sample is left out.
 *
 * A sample is (h, n): h = 1, n = 1 for a hit, h = 0, n = 1 for a miss, or
 * h = residency_ns if the period counts, n = residency_ns, for a share of
 * time.  The point estimate is sum h / sum n over all samples, the same
 * number as the plain counts give.
 */
#ifndef __IDLESCOPE_STATS_CI_H
#define __IDLESCOPE_STATS_CI_H

#include <stdbool.h>
#include <linux/types.h>

#define CI_NR_LEVELS	3
#define CI_BATCH_MIN	32	/* samples per batch at level 0; x8 per level */
#define CI_MIN_BATCHES	20
/* Fewer batches give no interval: t(k - 1) explodes and says nothing. */
#define CI_MIN_INTERVAL_BATCHES	4

struct ci_level {
	double cur_h, cur_n;	/* the batch being filled */
	__u32 cur_len;		/* its samples */
	__u32 nr_batches;	/* closed batches summed below */
	double sum_h, sum_n, sum_hh, sum_nn, sum_hn;
};

struct ci_acc {
	struct ci_level level[CI_NR_LEVELS];
};

/* A share with its 95% interval, in percent; lo/hi NaN when unknown. */
struct ci_pct {
	double pct;		/* 100 * sum h / sum n; NaN when sum n == 0 */
	double lo, hi;		/* clamped to [0, 100] */
	double half;		/* (hi - lo) / 2 before clamping; NaN: unknown */
	__u32 nr_batches;	/* behind the interval */
};

/**
 * ci_close_level0() - close a full level-0 batch
 * @acc: the accumulator whose level-0 batch holds CI_BATCH_MIN samples
 *
 * For ci_add(): the batch's sums go on to fill the next level's batch,
 * whose closing fills the one above.
 */
void ci_close_level0(struct ci_acc *acc);

/**
 * ci_add() - one sample into an accumulator
 * @acc: the accumulator (zeroed to start)
 * @h: the part that counts (1 or 0 for a hit or miss; residency_ns or 0
 *	for a share of time)
 * @n: the whole (1 for a hit or miss; residency_ns for a share of time)
 *
 * Inline: a few per record and sample; only a full batch costs a call.
 */
static inline void ci_add(struct ci_acc *acc, double h, double n)
{
	struct ci_level *lv = &acc->level[0];

	lv->cur_h += h;
	lv->cur_n += n;
	if (++lv->cur_len == CI_BATCH_MIN)
		ci_close_level0(acc);
}

/**
 * ci_add_hit() - one hit or miss into an accumulator
 * @acc: the accumulator
 * @hit: the sample counts
 *
 * (double)hit, not hit ? 1.0 : 0.0: no branch to mispredict on random hits.
 */
static inline void ci_add_hit(struct ci_acc *acc, bool hit)
{
	ci_add(acc, (double)hit, 1.0);
}

/**
 * ci_merge() - add another key's accumulator to one
 * @dst: the sum so far
 * @src: what to add
 *
 * The sums add; @src's unfinished batches become closed ones in @dst
 * (another stream's batch does not continue ours), so no sample is left
 * out.
 */
void ci_merge(struct ci_acc *dst, const struct ci_acc *src);

/**
 * ci_result() - the share and its 95% interval
 * @acc: the accumulator
 *
 * From the longest batches of which there are at least CI_MIN_BATCHES
 * (else the shortest), the unfinished batch closed.
 *
 * Return: the share in percent; lo, hi and half NaN with fewer than
 * CI_MIN_INTERVAL_BATCHES batches, pct NaN too when sum n is 0 (no
 * sample).
 */
struct ci_pct ci_result(const struct ci_acc *acc);

/**
 * ci_diff() - the difference of two independent shares
 * @a: the first share
 * @b: the share taken from it
 *
 * Return: a - b in percentage points, with its 95% interval (the two
 * half-widths added in quadrature, not clamped); no interval when either
 * share has none.  nr_batches is the smaller of the two.
 */
struct ci_pct ci_diff(const struct ci_pct *a, const struct ci_pct *b);

/**
 * ci_t95() - the two-sided 95% quantile of Student's t
 * @df: degrees of freedom
 *
 * Return: the quantile (from a table for small @df, else the
 * Cornish-Fisher expansion in 1/@df); NaN for @df 0.
 */
double ci_t95(unsigned int df);

#endif /* __IDLESCOPE_STATS_CI_H */
