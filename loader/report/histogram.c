// SPDX-License-Identifier: GPL-2.0
/*
 * histogram.c - the libbpf-tools look of a histogram in report.txt: log2
 * buckets of durations and the predicted/actual ratio buckets.
 */
#include <stdio.h>
#include <string.h>
#include "report/report.h"
#include "stats/aggregate.h"

#define HIST_STARS		40	/* bar width, halved for wide tables */
#define HIST_NARROW_MAX_IDX	32	/* beyond this bucket, wider columns */

static void print_stars(FILE *f, unsigned int val, unsigned int val_max,
			int width)
{
	int nr_stars, i;

	nr_stars = val_max ? (int)((__u64)val * width / val_max) : 0;
	for (i = 0; i < width; i++)
		fputc(i < nr_stars ? '*' : ' ', f);
}

static unsigned int max_count(const unsigned int *vals, int nr)
{
	unsigned int val_max = 0;
	int i;

	for (i = 0; i < nr; i++)
		if (vals[i] > val_max)
			val_max = vals[i];
	return val_max;
}

void print_log2_hist(FILE *f, const unsigned int *vals, int nr,
		     const char *unit_label)
{
	int idx_max = agg_highest_bucket(vals, nr);
	unsigned int val_max = max_count(vals, nr);
	bool wide = idx_max > HIST_NARROW_MAX_IDX;
	int width = wide ? 20 : 10;
	int stars = wide ? HIST_STARS / 2 : HIST_STARS;
	int i;

	if (idx_max < 0)
		return;

	fprintf(f, "%*s%-*s : count    distribution\n", wide ? 15 : 5, "",
		wide ? 29 : 19, unit_label);
	for (i = 0; i <= idx_max; i++) {
		/* bucket 0 is {0, 1}; bucket k is [2^k, 2^(k+1) - 1] */
		unsigned long long low = i ? 1ULL << i : 0;
		unsigned long long high = i == 63 ? ~0ULL : (1ULL << (i + 1)) - 1;

		fprintf(f, "%*llu -> %-*llu : %-8u |", width, low, width, high,
			vals[i]);
		print_stars(f, vals[i], val_max, stars);
		fputs("|\n", f);
	}
}

static void ratio_label(char *buf, size_t size, int log2)
{
	snprintf(buf, size, "2^%d", log2);
}

void print_ratio_hist(FILE *f, const unsigned int *ratio_hist)
{
	int lo, hi = agg_highest_bucket(ratio_hist, AGG_RATIO_SLOTS);
	unsigned int val_max = max_count(ratio_hist, AGG_RATIO_SLOTS);
	char low[16], high[16];
	int i;

	if (hi < 0)
		return;
	for (lo = 0; !ratio_hist[lo]; lo++)
		;

	/* Row k is [2^k, 2^(k+1)); the end rows are open-ended (clamped). */
	fprintf(f, "%*s%-*s : count    distribution\n", 5, "", 19,
		"predicted/actual");
	for (i = lo; i <= hi; i++) {
		int k = i + AGG_RATIO_LOG2_MIN;

		if (k == AGG_RATIO_LOG2_MIN)
			snprintf(low, sizeof(low), "0");
		else
			ratio_label(low, sizeof(low), k);
		if (k == AGG_RATIO_LOG2_MAX)
			snprintf(high, sizeof(high), "inf");
		else
			ratio_label(high, sizeof(high), k + 1);
		fprintf(f, "%10s -> %-10s : %-8u |", low, high, ratio_hist[i]);
		print_stars(f, ratio_hist[i], val_max, HIST_STARS);
		fputs("|\n", f);
	}
}
