// SPDX-License-Identifier: GPL-2.0
/*
 * buckets.c - the factor table and the out-of-line helpers of
 * stats/buckets.h (the hot bucket and factor tests are inline there).
 */
#include "stats/buckets.h"

/*
 * Exact rationals, so boundary cases (p == F * a) compare exactly.  Sized
 * by the list: a count other than AGG_NR_FACTORS does not compile.
 */
const struct agg_factor agg_factors[] = {
#define AGG_FACTOR_ENTRY(n, d, l) { .num = (n), .den = (d), .label = (l) },
	AGG_FACTOR_LIST(AGG_FACTOR_ENTRY)
#undef AGG_FACTOR_ENTRY
};

bool agg_within_factor(__u64 predicted_ns, __u64 actual_ns,
		       const struct agg_factor *factor)
{
	return agg_within_ratio(predicted_ns, actual_ns, factor->num, factor->den);
}

int agg_highest_bucket(const unsigned int *vals, int nr)
{
	int i;

	for (i = nr - 1; i >= 0; i--)
		if (vals[i])
			return i;
	return -1;
}
