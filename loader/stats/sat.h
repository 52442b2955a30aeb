/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sat.h - sums of counters and nanoseconds that stop at 2^64 - 1 instead
 * of wrapping: a record file is untrusted, and a sum that wrapped would
 * pass for a small one (a drop count of 0, a share of idle time over
 * 100%).  A sum at U64_MAX says it saturated.
 */
#ifndef __IDLESCOPE_STATS_SAT_H
#define __IDLESCOPE_STATS_SAT_H

#include <linux/types.h>

#define SAT_U64_MAX	(~0ULL)

static inline __u64 sat_add(__u64 a, __u64 b)
{
	return a + b < a ? SAT_U64_MAX : a + b;
}

/* *sum += v, saturating. */
static inline void sat_inc(__u64 *sum, __u64 v)
{
	*sum = sat_add(*sum, v);
}

#endif /* __IDLESCOPE_STATS_SAT_H */
