/* SPDX-License-Identifier: GPL-2.0 */
/*
 * buckets.h - the arithmetic behind aggregate.h's histograms and
 * factor table: log2 buckets, prediction/actual ratio buckets, and the
 * exact "within a factor of F" test.
 *
 * The bucket and factor tests run several times per record (the live
 * prediction and every shadow model's), so they are static inline here:
 * as out-of-line calls in another file they were a tenth of a replay.
 *
 * Pure C: no libbpf, no kernel headers beyond <linux/types.h>.
 */
#ifndef __IDLESCOPE_STATS_BUCKETS_H
#define __IDLESCOPE_STATS_BUCKETS_H

#include <stdbool.h>
#include <linux/types.h>

/* Enough log2 buckets for any __u64 value (log2l(~0ULL) == 63). */
#define AGG_LOG2_SLOTS		64

/*
 * Ratio histogram: bucket k holds predicted/actual in [2^k, 2^(k+1)) for
 * k = AGG_RATIO_LOG2_MIN..AGG_RATIO_LOG2_MAX.  The end buckets are clamped:
 * the lowest also holds every smaller ratio (including p == 0 < a), the
 * highest every larger one (including a == 0 < p).  p == a == 0 counts as
 * ratio 1 (k = 0), the same way the factor table counts it as a hit.
 */
#define AGG_RATIO_LOG2_MIN	(-16)
#define AGG_RATIO_LOG2_MAX	16
#define AGG_RATIO_SLOTS		(AGG_RATIO_LOG2_MAX - AGG_RATIO_LOG2_MIN + 1)

/*
 * The seed's factor table: F in {1.5, 2, 4, 10, 100} as exact rationals,
 * so "p within F of a" (max(p, a) <= F * min(p, a)) is decided in integer
 * arithmetic on nanoseconds, boundaries included.  X(num, den, label) per
 * factor, F = num / den, in increasing order: agg_factors[] and
 * agg_within_mask() are both made from this one list.
 */
#define AGG_FACTOR_LIST(X)	\
	X(3, 2, "1.5x")		\
	X(2, 1, "2x")		\
	X(4, 1, "4x")		\
	X(10, 1, "10x")		\
	X(100, 1, "100x")
#define AGG_NR_FACTORS		5

struct agg_factor {
	unsigned int num;	/* F = num / den */
	unsigned int den;
	const char *label;	/* "1.5x", "2x", ... */
};

extern const struct agg_factor agg_factors[AGG_NR_FACTORS];

typedef unsigned __int128 agg_u128;	/* products of two __u64 */

/**
 * agg_log2_bucket() - the log2 histogram bucket of a value
 * @value: any value
 *
 * libbpf-tools' log2l(): 0 and 1 share bucket 0.
 *
 * Return: floor(log2(@value)) for @value >= 1, 0 for 0.
 */
static inline int agg_log2_bucket(__u64 value)
{
	/* libbpf-tools' log2l(): 0 and 1 share bucket 0 */
	if (value == 0)
		return 0;
	return 63 - __builtin_clzll(value);
}

/**
 * agg_ratio_bucket() - the ratio histogram's slot of predicted/actual
 * @predicted_ns: the prediction p
 * @actual_ns: the actual residency a
 *
 * Return: index k - AGG_RATIO_LOG2_MIN of the bucket k that holds p/a,
 * the ends clamped and zeros counted as the ratio histogram's comment
 * above says.
 */
static inline int agg_ratio_bucket(__u64 predicted_ns, __u64 actual_ns)
{
	int k;

	if (predicted_ns == 0 && actual_ns == 0) {
		k = 0;
	} else if (predicted_ns == 0) {
		k = AGG_RATIO_LOG2_MIN;
	} else if (actual_ns == 0) {
		k = AGG_RATIO_LOG2_MAX;
	} else if (predicted_ns >= actual_ns) {
		/*
		 * The largest k with a * 2^k <= p (2^k <= p/a): the bit
		 * lengths' difference or one less, without a division (five
		 * per record made it a few % of a replay).  a << k has p's
		 * top bit at most, so it does not overflow.
		 */
		k = agg_log2_bucket(predicted_ns) - agg_log2_bucket(actual_ns);
		if ((actual_ns << k) > predicted_ns)
			k--;
		if (k > AGG_RATIO_LOG2_MAX)
			k = AGG_RATIO_LOG2_MAX;
	} else {
		/*
		 * p/a in [2^-m, 2^(1-m)) for the smallest m with p*2^m >= a:
		 * the bit lengths' difference or one more (p < a, so m >= 1).
		 */
		int m = agg_log2_bucket(actual_ns) - agg_log2_bucket(predicted_ns);

		if ((predicted_ns << m) < actual_ns)
			m++;
		if (m > -AGG_RATIO_LOG2_MIN)
			m = -AGG_RATIO_LOG2_MIN;
		k = -m;
	}
	return k - AGG_RATIO_LOG2_MIN;
}

/**
 * agg_within_ratio() - whether p is within a factor of num/den of a
 * @predicted_ns: the prediction p
 * @actual_ns: the actual residency a
 * @num: the factor's numerator
 * @den: the factor's denominator
 *
 * Exactly, in integers: max(p, a) <= num/den * min(p, a).
 *
 * Return: true when it is; a zero on one side is infinitely far off, and
 * both zero agree.
 */
static inline bool agg_within_ratio(__u64 predicted_ns, __u64 actual_ns,
				    unsigned int num, unsigned int den)
{
	agg_u128 larger, smaller;

	/* A zero on one side is infinitely far off; both zero agree. */
	if (predicted_ns == 0 || actual_ns == 0)
		return predicted_ns == actual_ns;

	larger = predicted_ns > actual_ns ? predicted_ns : actual_ns;
	smaller = predicted_ns > actual_ns ? actual_ns : predicted_ns;
	/* max <= (num / den) * min, without division or overflow */
	return larger * den <= smaller * num;
}

/**
 * agg_within_factor() - agg_within_ratio() with a factor of the table
 * @predicted_ns: the prediction p
 * @actual_ns: the actual residency a
 * @factor: one of agg_factors[]
 *
 * Return: true when p is within @factor of a.
 */
bool agg_within_factor(__u64 predicted_ns, __u64 actual_ns,
		       const struct agg_factor *factor);

/**
 * agg_within_mask() - every factor of the table tested at once
 * @predicted_ns: the prediction p
 * @actual_ns: the actual residency a
 *
 * All five tests inline with constant factors, so the compiler shares
 * their common work and needs no branch per factor (on scattered
 * predictions each one was a coin toss for the branch predictor).
 *
 * Return: bit i set when p is within agg_factors[i] of a.
 */
static inline unsigned int agg_within_mask(__u64 predicted_ns, __u64 actual_ns)
{
	unsigned int mask = 0, bit = 0;

#define AGG_WITHIN_BIT(num, den, label) \
	mask |= (unsigned int)agg_within_ratio(predicted_ns, actual_ns, num, den) << bit++;
	AGG_FACTOR_LIST(AGG_WITHIN_BIT)
#undef AGG_WITHIN_BIT
	return mask;
}

/**
 * agg_highest_bucket() - the last non-empty bucket of a histogram
 * @vals: the counts
 * @nr: how many
 *
 * Return: the highest index with a count, -1 when all are 0.
 */
int agg_highest_bucket(const unsigned int *vals, int nr);

#endif /* __IDLESCOPE_STATS_BUCKETS_H */
