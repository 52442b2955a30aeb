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

/**
 * report_write_summary() - write summary.md
 * @agg: what it is made from
 * @meta: the run's facts
 * @path: the file, written atomically like report.txt
 *
 * Return: 0, or -errno (nothing is left behind).
 */
int report_write_summary(const struct agg *agg, const struct run_meta *meta,
			 const char *path);

/**
 * report_fprint_summary() - print summary.md to an open stream
 * @f: the stream
 * @agg: what it is made from
 * @meta: the run's facts
 *
 * Return: 0, or -errno of the stream's first write error (-EIO if errno
 * did not say).
 */
int report_fprint_summary(FILE *f, const struct agg *agg,
			  const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_SUMMARY_H */
