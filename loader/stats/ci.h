/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ci.h - 95% confidence intervals for the share of something (periods
 * within F, periods in the ideal state, idle time in a state too shallow):
 * within one boot by batch means over consecutive samples, and over
 * several boots from the boots' own values (ci_over_boots()).
 *
 * Why batch means within a boot: consecutive idle periods of one CPU are
 * not independent (a workload's pattern repeats, a governor's correction
 * factor carries from one period to the next, teo polls in bursts), so a
 * binomial (Wilson) interval, which assumes independent samples, is too
 * narrow; it shrinks as 1/sqrt(n) however few independent stretches the
 * run really held.  Cutting the stream into batches of B consecutive
 * samples and treating each batch's (hits, samples) as one observation
 * gives an honest variance as soon as B is longer than the correlation.
 *
 * How long B must be is measured, not assumed: each accumulator keeps, for
 * CI_NR_LEVELS batch lengths (CI_BATCH_MIN, x4 per level), the running
 * sums a ratio estimator's variance needs (sum h, n, h^2, n^2, h*n over
 * closed batches) and the same products of each batch with the next one,
 * whence the lag-1 autocorrelation of the batches.  The interval uses the
 * shortest batches that are no longer correlated (lag 1 at most
 * CI_MAX_LAG1, seen over at least CI_TEST_BATCHES batches), its variance
 * widened by what correlation is left; when the longest batches it could
 * test are still a little correlated (CI_MAX_LAG1_EXTRAPOLATED), one level
 * longer if there are CI_MIN_INTERVAL_BATCHES of them;
 * else no interval at all: the share says "too few independent samples"
 * (ci_pct.too_correlated) rather than print a narrow interval.
 *
 * Why the boot, over several boots: two boots of the same suite with the
 * same seeds differ by more than one boot's interval (the adaptive icount
 * shift, a workload's phase against the tick; docs/clock.md), so the
 * spread that matters is the one between boots, seen only by booting more
 * than once.  ci_over_boots() takes one value per boot and gives their
 * mean with a t interval over them (docs/report-schema.md says why t).
 *
 * Deterministic, flat memory: no resampling and no stored samples.
 * Accumulators of different keys (CPUs, workload runs) merge by adding
 * sums; an unfinished batch becomes a closed one in the merge and at the
 * end, so no sample is left out.
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

#define CI_NR_LEVELS	7
#define CI_BATCH_MIN	32	/* samples per batch at level 0 */
#define CI_LEVEL_SHIFT	2	/* x4 per level: 32 .. 131072 */
/* Batches needed to measure their correlation, and how much is tolerated. */
#define CI_TEST_BATCHES	16
#define CI_MAX_LAG1	0.1
#define CI_MAX_LAG1_EXTRAPOLATED	0.2
/* Fewer batches give no interval: t(k - 1) explodes and says nothing. */
#define CI_MIN_INTERVAL_BATCHES	4

struct ci_level {
	double cur_h, cur_n;	/* the batch being filled */
	__u32 cur_len;		/* its samples */
	__u32 nr_batches;	/* closed batches summed below */
	double sum_h, sum_n, sum_hh, sum_nn, sum_hn;
	/* The last closed batch of this stream and products with the next. */
	double prev_h, prev_n;
	__u32 has_prev;
	__u32 nr_pairs;		/* pairs of neighbouring batches summed below */
	double sum_hh1, sum_nn1, sum_hn1;	/* h_i h_i+1, n_i n_i+1, h_i n_i+1 + n_i h_i+1 */
};

struct ci_acc {
	struct ci_level level[CI_NR_LEVELS];
};

/* A share with its 95% interval, in percent; lo/hi NaN when unknown. */
struct ci_pct {
	double pct;		/* 100 * sum h / sum n; NaN when sum n == 0 */
	double lo, hi;		/* clamped to [0, 100] */
	double half;		/* (hi - lo) / 2 before clamping; NaN: unknown */
	double se;		/* standard error of pct (pp), NaN: unknown */
	double df;		/* degrees of freedom of half = t(df) * se */
	__u32 nr_batches;	/* behind a within-boot interval */
	__u32 nr_boots;		/* boots behind pct; 1: a within-boot interval */
	bool too_correlated;	/* no interval: too few independent samples */
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
 * ci_result() - one boot's (or any one stream's) share, its 95% interval
 * @acc: the accumulator
 *
 * By batch means, the batch length the shortest that is no longer
 * correlated (above), the unfinished batch closed.
 *
 * Return: the share in percent; lo, hi and half NaN without an interval
 * (too few batches, or too_correlated), pct NaN too when sum n is 0 (no
 * sample).
 */
struct ci_pct ci_result(const struct ci_acc *acc);

/**
 * ci_over_boots() - a share over several boots, the boot as the unit
 * @boots: one ci_result() per boot; boots without samples (pct NaN) are
 *	left out
 * @nr: how many
 *
 * With one boot, that boot's own interval.  With K >= 2, the mean of the
 * K boot-level shares and a t interval with K - 1 degrees of freedom,
 * its variance the larger of the boots' sample variance and their mean
 * within-boot variance (what one boot's batch means say): with few boots
 * the sample variance of K values is itself uncertain, and it can only
 * err low below the within-boot floor.
 *
 * Return: the share, nr_boots set.
 */
struct ci_pct ci_over_boots(const struct ci_pct *boots, int nr);

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

#endif /* __IDLESCOPE_STATS_CI_H */
