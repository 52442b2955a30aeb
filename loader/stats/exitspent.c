// SPDX-License-Identifier: GPL-2.0
/*
 * exitspent.c - the exits idle states spent, as a histogram (see
 * exitspent.h).
 */
#include <math.h>
#include "stats/exitspent.h"
#include "stats/sat.h"

static unsigned int log2_u64(__u64 v)
{
	return 63 - __builtin_clzll(v);
}

static unsigned int slot_of(__u64 ns)
{
	unsigned int k, slot;

	if (ns < EXIT_SPENT_SUB)
		return ns;
	k = log2_u64(ns);
	slot = EXIT_SPENT_SUB * (k - EXIT_SPENT_SUB_BITS + 1) +
	       ((ns >> (k - EXIT_SPENT_SUB_BITS)) & (EXIT_SPENT_SUB - 1));
	return slot < EXIT_SPENT_SLOTS ? slot : EXIT_SPENT_SLOTS - 1;
}

/* The smallest value of a slot; its range ends where the next one's begins. */
static __u64 slot_low(unsigned int slot)
{
	unsigned int k;

	if (slot < EXIT_SPENT_SUB)
		return slot;
	k = slot / EXIT_SPENT_SUB + EXIT_SPENT_SUB_BITS - 1;
	return (__u64)(EXIT_SPENT_SUB + slot % EXIT_SPENT_SUB) << (k - EXIT_SPENT_SUB_BITS);
}

void exit_spent_add(struct exit_spent *es, __u64 ns)
{
	if (!es->count || ns < es->min_ns)
		es->min_ns = ns;
	es->count++;
	if (ns > es->max_ns)
		es->max_ns = ns;
	es->hist[slot_of(ns)]++;
}

void exit_spent_merge(struct exit_spent *dst, const struct exit_spent *src)
{
	unsigned int i;

	if (!src->count)
		return;
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	sat_inc(&dst->count, src->count);
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	for (i = 0; i < EXIT_SPENT_SLOTS; i++)
		sat_inc(&dst->hist[i], src->hist[i]);
}

__u64 exit_spent_percentile_ns(const struct exit_spent *es, double pct)
{
	__u64 rank, seen = 0, low, mid;
	unsigned int i;

	if (!es->count)
		return 0;
	/* The nearest rank: the smallest that has @pct of the exits at or below it. */
	rank = (__u64)ceil(pct / 100 * es->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < EXIT_SPENT_SLOTS; i++) {
		seen += es->hist[i];
		if (seen < rank)
			continue;
		low = slot_low(i);
		mid = i < EXIT_SPENT_SUB || i + 1 == EXIT_SPENT_SLOTS ? low :
		      low + (slot_low(i + 1) - low) / 2;
		if (mid < es->min_ns)
			return es->min_ns;
		return mid < es->max_ns ? mid : es->max_ns;
	}
	return es->max_ns;
}
