/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - one SVG per workload of how far predictions are from the truth:
 * the distribution of log2(predicted / actual) for each shadow model (all
 * governors' runs summed) and each live governor that predicted, one
 * coloured line per series over the ratio histogram's buckets, the "within
 * 2x" band shaded.  Plain SVG 1.1 written by hand: no libraries, opens in
 * any browser, readable at its 800x450 size.
 */
#ifndef __IDLESCOPE_REPORT_PLOT_H
#define __IDLESCOPE_REPORT_PLOT_H

#include <stddef.h>
#include <stdio.h>
#include "stats/aggregate.h"

#define PLOT_WIDTH		800
#define PLOT_HEIGHT		450

/**
 * plot_file_name() - the file name of a workload's plot
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @buf: set to "<name>.svg"
 * @size: @buf's size
 *
 * The name with every byte outside [A-Za-z0-9.-] written as "_xx", its
 * value in hex: a safe path component and URL, and different names give
 * different files ("a b", "a_b" and "a/b" are a_20b, a_5fb and a_2fb).
 * "_none" for the empty name of periods outside any workload.
 * summary.md links the plots by this name.
 *
 * Return: 0, -EINVAL for an unknown workload, -ENAMETOOLONG if @size is
 * too small.
 */
int plot_file_name(const struct agg *agg, int workload, char *buf,
		   size_t size);

/**
 * plot_write_ratio_svg() - write a workload's plot of actual / predicted
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @path: the file, written atomically like the reports (its directory
 *	must exist)
 *
 * A workload without predictions still gets a plot, saying so, so that
 * summary.md's link always leads somewhere.
 *
 * Return: 0, or -errno (-EINVAL for an unknown workload, refused before
 * any file is made).
 */
int plot_write_ratio_svg(const struct agg *agg, int workload,
			 const char *path);

/**
 * plot_fprint_ratio_svg() - print a workload's plot to an open stream
 * @f: the stream
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 *
 * Return: 0, -EINVAL for an unknown workload, -EIO when the stream had
 * an error.
 */
int plot_fprint_ratio_svg(FILE *f, const struct agg *agg, int workload);

#endif /* __IDLESCOPE_REPORT_PLOT_H */
