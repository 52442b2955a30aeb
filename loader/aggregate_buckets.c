// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate_buckets.c - the arithmetic behind aggregate.c's histograms and
 * factor table: log2 buckets, prediction/actual ratio buckets, and the
 * exact "within a factor of F" test.
 */
#include "aggregate.h"

/* Exact rationals, so boundary cases (p == F * a) compare exactly. */
const struct agg_factor agg_factors[AGG_NR_FACTORS] = {
	{ .num = 3,   .den = 2, .label = "1.5x" },
	{ .num = 2,   .den = 1, .label = "2x" },
	{ .num = 4,   .den = 1, .label = "4x" },
	{ .num = 10,  .den = 1, .label = "10x" },
	{ .num = 100, .den = 1, .label = "100x" },
};

typedef unsigned __int128 u128;	/* products of two __u64 */

int agg_log2_bucket(__u64 value)
{
	/* libbpf-tools' log2l(): 0 and 1 share bucket 0 */
	if (value == 0)
		return 0;
	return 63 - __builtin_clzll(value);
}

int agg_ratio_bucket(__u64 predicted_ns, __u64 actual_ns)
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

bool agg_within_factor(__u64 predicted_ns, __u64 actual_ns,
		       const struct agg_factor *factor)
{
	u128 larger, smaller;

	/* A zero on one side is infinitely far off; both zero agree. */
	if (predicted_ns == 0 || actual_ns == 0)
		return predicted_ns == actual_ns;

	larger = predicted_ns > actual_ns ? predicted_ns : actual_ns;
	smaller = predicted_ns > actual_ns ? actual_ns : predicted_ns;
	/* max <= (num / den) * min, without division or overflow */
	return larger * factor->den <= smaller * factor->num;
}

int agg_highest_bucket(const unsigned int *vals, int nr)
{
	int i;

	for (i = nr - 1; i >= 0; i--)
		if (vals[i])
			return i;
	return -1;
}
