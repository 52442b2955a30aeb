// SPDX-License-Identifier: GPL-2.0
/*
 * menu615.c - the governor menu615 of our 6.12 series (kernel/patches/6.12,
 * patch 0005) replayed in user space: 6.12's menu (menu612.c) with the
 * recent intervals read as Linux 6.15 reads them.
 *
 * 6.15's get_typical_interval() computes the average and the variance in
 * one pass (the mean of the squares less the square of the truncated
 * mean), drops an outlier from whichever end of the remaining samples is
 * farther from their average, and, when too few samples remain to drop
 * another, returns the largest of them if at least half are left instead
 * of no prediction (the step Linux 6.18 reverted).  The arithmetic below is
 * the kernel's, with its types: a sum of squares that wraps in u64 wraps
 * here too.
 */
#include <limits.h>
#include "models/menu.h"

unsigned int model_menu615_typical_interval(const unsigned int *intervals_us)
{
	__s64 low_cut = -1, high_cut = UINT_MAX;
	unsigned int nr, lowest, highest;
	__u64 mean, mean_sq, var;
	int i;

	for (;;) {
		nr = 0;
		lowest = UINT_MAX;
		highest = 0;
		mean = 0;
		var = 0;
		for (i = 0; i < (int)MENU_INTERVALS; i++) {
			unsigned int value = intervals_us[i];

			/* Only the samples strictly between the two cuts. */
			if ((__s64)value <= low_cut || (__s64)value >= high_cut)
				continue;
			nr++;
			mean += value;
			var += (__u64)value * value;
			if (value > highest)
				highest = value;
			if (value < lowest)
				lowest = value;
		}

		if (!highest)
			return UINT_MAX;

		if (nr == MENU_INTERVALS) {
			mean >>= MENU_INTERVAL_SHIFT;
			var >>= MENU_INTERVAL_SHIFT;
		} else {
			mean /= nr;
			var /= nr;
		}
		mean_sq = mean * mean;
		var -= mean_sq;

		/* Steady: stddev <= 20 us, or < avg / 6 with 3/4 of the samples. */
		if (var <= UINT64_MAX / 36 &&
		    ((mean_sq > var * 36 && nr * 4 >= MENU_INTERVALS * 3) ||
		     var <= 400))
			return mean;

		/* No sample left to drop: the largest bounds the next interval. */
		if (nr * 4 <= MENU_INTERVALS * 3)
			return nr >= MENU_INTERVALS / 2 ? highest : UINT_MAX;

		/* Drop the end farther from the average. */
		if (mean - lowest > highest - mean)
			low_cut = lowest;
		else
			high_cut = highest;
	}
}

__u64 menu615_step(struct model_state *ms, const struct model_input *in,
		   const struct model_states_table *table)
{
	return model_menu612_step(ms, in, table, model_menu615_typical_interval);
}
