/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lateness.h - the timer lateness histogram of bpf/idlescope.h in user
 * space: filled per CPU by the BPF side (by lateness_add() in tests and
 * bench/genrec), summed over CPUs for the record file's trailer and over
 * the files of a report, read as percentiles for the report header.
 */
#ifndef __IDLESCOPE_STATS_LATENESS_H
#define __IDLESCOPE_STATS_LATENESS_H

#include <string.h>
#include <linux/types.h>
#include "idlescope.h"
#include "stats/sat.h"

/**
 * lateness_add() - one timer's lateness into a histogram
 * @l: the histogram
 * @ns: how late the timer expired
 */
static inline void lateness_add(struct idlescope_lateness *l, __u64 ns)
{
	l->count++;
	l->sum_ns += ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	l->hist[idlescope_lateness_slot(ns)]++;
}

/**
 * lateness_sum_cpus() - the histograms of several CPUs added up
 * @sum: overwritten with the sum (it may not be one of @per_cpu)
 * @per_cpu: the histograms, per_cpu[0..@nr_cpus-1]
 * @nr_cpus: how many
 */
static inline void lateness_sum_cpus(struct idlescope_lateness *sum,
				     const struct idlescope_lateness *per_cpu,
				     unsigned int nr_cpus)
{
	unsigned int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct idlescope_lateness *l = &per_cpu[cpu];

		sat_inc(&sum->count, l->count);
		sat_inc(&sum->sum_ns, l->sum_ns);
		if (l->max_ns > sum->max_ns)
			sum->max_ns = l->max_ns;
		for (i = 0; i < IDLESCOPE_LATENESS_SLOTS; i++)
			sat_inc(&sum->hist[i], l->hist[i]);
	}
}

/**
 * lateness_percentile_ns() - a percentile of the histogram
 * @l: the histogram
 * @pct: which one, 0 < @pct <= 100
 *
 * Return: the low end of the slot that holds the @pct-th percentile (good
 * to the slot width, 25%); 0 when nothing was measured.
 */
static inline __u64 lateness_percentile_ns(const struct idlescope_lateness *l, double pct)
{
	__u64 rank, seen = 0;
	unsigned int i;

	if (!l->count)
		return 0;
	rank = (__u64)(pct / 100 * l->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < IDLESCOPE_LATENESS_SLOTS; i++) {
		seen += l->hist[i];
		if (seen >= rank)
			return idlescope_lateness_slot_low(i);
	}
	return l->max_ns;
}

#endif /* __IDLESCOPE_STATS_LATENESS_H */
