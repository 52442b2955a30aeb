/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linuxpm.h - the table cpuidle governor patches are posted to linux-pm
 * with: per workload and governor, idles, idle_miss, the miss ratio,
 * belows and aboves, and the workload's own score.  From the kernel's own
 * counters where it has them: belows and aboves are the cpu_idle_miss
 * verdicts the records carry (what stateN/below and above count), and the
 * run's sums are checked against sysfs.  Plain text, to paste into a cover
 * letter; `idlescope compare --format linux-pm` prints the before/after
 * pair.
 */
#ifndef __IDLESCOPE_REPORT_LINUXPM_H
#define __IDLESCOPE_REPORT_LINUXPM_H

#include <stdio.h>
#include "stats/aggregate.h"
#include "runinfo/meta.h"

/**
 * linuxpm_fprint() - `idlescope report --format linux-pm`
 * @f: where to
 * @agg: the aggregate
 * @meta: the run (capabilities, sysfs counts); the cross-check needs a
 *	complete file
 *
 * A block per tagged workload, a row per governor, then the legend and the
 * cross-check against sysfs.
 *
 * Return: 0, or -EIO when writing failed.
 */
int linuxpm_fprint(FILE *f, const struct agg *agg, const struct run_meta *meta);

/* One side of a compare: its aggregate, its run (figures) and its name. */
struct linuxpm_side {
	const struct agg *agg;
	const struct run_meta *meta;	/* NULL: no figures, every score "-" */
	const char *name;		/* as given on the command line */
};

/**
 * linuxpm_fprint_compare() - the before/after pair of `idlescope compare`
 * @f: where to
 * @a: the "before" side
 * @b: the "after" side
 * @pair_a: --pair's governor of @a, or -1: each governor against itself
 * @pair_b: --pair's governor of @b
 *
 * A block per workload of @a also in @b and governor (pair) run on both:
 * the two rows, then the change of the miss ratio.  The score is the
 * workload's first figure on the "before" side (else on the "after" side),
 * each side's own mean of it.
 *
 * Return: 0, or -EIO when writing failed.
 */
int linuxpm_fprint_compare(FILE *f, const struct linuxpm_side *a, const struct linuxpm_side *b,
			   int pair_a, int pair_b);

#endif /* __IDLESCOPE_REPORT_LINUXPM_H */
