/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample statistics of a duration (a wake-up's lateness, a read's latency,
 * a round trip): mean and maximum over every sample, nearest-rank median
 * and 99th percentile over the samples kept.  Samples are kept exactly up
 * to DURATION_STATS_MAX_SAMPLES (16 MB), enough for any run the workloads
 * make; past that, mean and max still cover every sample.
 */
#ifndef __STATS_H
#define __STATS_H

#include <stddef.h>
#include <stdint.h>

#define DURATION_STATS_MAX_SAMPLES	(4U << 20)

struct duration_stats {
	uint32_t *samples_ns;		/* saturated at UINT32_MAX (4.29 s) */
	size_t nr;			/* samples kept */
	size_t cap;
	uint64_t count;			/* samples seen, kept or not */
	uint64_t sum_ns;
	uint64_t max_ns;
};

void duration_stats_add(struct duration_stats *stats, uint64_t value_ns);
/*
 * "mean 57.3 us, median 50.1 us, p99 120.4 us, max 812.0 us", or "no
 * samples".  Sorts the samples kept.
 */
void duration_stats_fmt(struct duration_stats *stats, char *buf, size_t size);
void duration_stats_free(struct duration_stats *stats);

#endif /* __STATS_H */
