/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.h - summary.md, the page a person reads first: per workload the
 * live governors side by side, the shadow replay next to the seed's
 * published numbers, too-deep / too-shallow shares, idle time per state
 * and the workload's plot (plots/<name>.svg, see report/plot.h).
 *
 * The tables are report.txt's "across governors" tables (report/report.h), cell
 * for cell, printed as Markdown.
 */
#ifndef __IDLESCOPE_REPORT_SUMMARY_H
#define __IDLESCOPE_REPORT_SUMMARY_H

#include <stdio.h>
#include "report/report.h"

/* summary.md, atomic like report.txt; 0 or -errno. */
int report_write_summary(const struct agg *agg, const struct run_meta *meta,
			 const char *path);

/* The same document to an open stream; 0 or -EIO. */
int report_fprint_summary(FILE *f, const struct agg *agg,
			  const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_SUMMARY_H */
