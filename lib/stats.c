// SPDX-License-Identifier: GPL-2.0
/* Sample statistics of a duration; see stats.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#define NS_PER_US	1000.0

void duration_stats_add(struct duration_stats *stats, uint64_t value_ns)
{
	uint32_t *grown;
	size_t cap;

	stats->count++;
	stats->sum_ns += value_ns;
	if (value_ns > stats->max_ns)
		stats->max_ns = value_ns;
	if (stats->nr == DURATION_STATS_MAX_SAMPLES)
		return;
	if (stats->nr == stats->cap) {
		cap = stats->cap ? stats->cap * 2 : 4096;
		grown = realloc(stats->samples_ns, cap * sizeof(*grown));
		if (!grown)
			return;	/* percentiles then cover the samples kept */
		stats->samples_ns = grown;
		stats->cap = cap;
	}
	stats->samples_ns[stats->nr++] = value_ns > UINT32_MAX ? UINT32_MAX : value_ns;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of the sorted samples. */
static uint64_t percentile_ns(const struct duration_stats *stats, unsigned int pct)
{
	size_t rank = (stats->nr * pct + 99) / 100;

	return stats->samples_ns[rank ? rank - 1 : 0];
}

void duration_stats_fmt(struct duration_stats *stats, char *buf, size_t size)
{
	if (!stats->count || !stats->nr) {
		snprintf(buf, size, "no samples");
		return;
	}
	qsort(stats->samples_ns, stats->nr, sizeof(*stats->samples_ns), cmp_u32);
	snprintf(buf, size, "mean %.1f us, median %.1f us, p99 %.1f us, max %.1f us",
		 (double)stats->sum_ns / stats->count / NS_PER_US,
		 percentile_ns(stats, 50) / NS_PER_US,
		 percentile_ns(stats, 99) / NS_PER_US,
		 stats->max_ns / NS_PER_US);
}

void duration_stats_free(struct duration_stats *stats)
{
	free(stats->samples_ns);
	memset(stats, 0, sizeof(*stats));
}
