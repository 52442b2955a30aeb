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

/**
 * sat_add() - a + b, stopping at 2^64 - 1
 * @a: a sum
 * @b: what is added
 *
 * Return: a + b, or SAT_U64_MAX when it would wrap.
 */
static inline __u64 sat_add(__u64 a, __u64 b)
{
	return a + b < a ? SAT_U64_MAX : a + b;
}

/**
 * sat_inc() - *sum += v, saturating
 * @sum: the sum, left at SAT_U64_MAX once it got there
 * @v: what is added
 */
static inline void sat_inc(__u64 *sum, __u64 v)
{
	*sum = sat_add(*sum, v);
}

#endif /* __IDLESCOPE_STATS_SAT_H */
