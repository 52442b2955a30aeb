/* SPDX-License-Identifier: GPL-2.0 */
/*
 * figures.h - the workloads' own performance figures beside the idle
 * scores: what each program said about its run (requests/s, latency
 * percentiles, IOPS, hackbench's time, cyclictest's latencies, round
 * trips/s), so a reader sees the trade-off a governor makes.
 *
 * The guest suite writes them, parsed from the programs' output, into a
 * figures file beside each record file: RECORD.figures (docs/figures.md):
 *
 *	# idlescope figures 1
 *	GOVERNOR WORKLOAD FIGURE VALUE UNIT
 *
 * `idlescope report` reads the figures file of every record file it is
 * given, when there is one, and keeps each figure's values per governor
 * and workload, one per record file, so runs (boots) can be combined.
 */
#ifndef __IDLESCOPE_REPORT_FIGURES_H
#define __IDLESCOPE_REPORT_FIGURES_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "idlescope.h"
#include "format/escape.h"
#include "format/json_writer.h"

#define FIGURES_FILE_SUFFIX	".figures"
#define FIGURES_FILE_HEADER	"# idlescope figures 1"
#define FIGURES_MAX_CELLS	256	/* (governor, workload, figure) triples */
#define FIGURES_NAME_LEN	32	/* governor and figure names, with the NUL */
#define FIGURES_UNIT_LEN	16
/*
 * The share of its device's train a workload received, in percent
 * (docs/figures.md): no governor moves it, so a run that got less than
 * FIGURES_DELIVERED_MIN_PCT of it is a stalled device or guest, and no
 * data point for the headline and the gate.
 */
#define FIGURES_DELIVERED		"rate_delivered_pct"
#define FIGURES_DELIVERED_MIN_PCT	90.0

/*
 * One figure of one workload under one governor: its value in each run
 * (as many as the record files that have it).  The names are as the file
 * gave them, escaped (format/escape.h): the workload's as a report names
 * a tag, the figure's and the unit's so that they print on one line.
 */
struct figure_cell {
	char governor[FIGURES_NAME_LEN];
	char workload[ESCAPE_SIZE(IDLESCOPE_WORKLOAD_LEN)];
	char figure[FIGURES_NAME_LEN];
	char unit[FIGURES_UNIT_LEN];
	int nr_values, nr_alloc;
	double *values;
};

struct figures {
	int nr_files;			/* figures files read */
	int nr_cells;
	struct figure_cell cells[FIGURES_MAX_CELLS];
};

/**
 * figures_read_beside() - add the figures file of a record file
 * @fig: the figures so far (zeroed before the first call)
 * @recfile_path: the record file; its figures file is this path plus
 *	FIGURES_FILE_SUFFIX
 *
 * A record file without a figures file adds nothing.  A figures file that
 * is not a regular file (a FIFO would block), or breaks the format
 * (docs/figures.md: header, lines under 512 bytes, five fields, a known
 * governor, a finite number, one unit per figure, no figure twice in one
 * file) is one error line naming the file and line.
 *
 * Return: 0, or -EINVAL / -ENOSPC / -errno after one error line.
 */
int figures_read_beside(struct figures *fig, const char *recfile_path);

/**
 * figures_free() - free the figures' values
 * @fig: the figures; not freed itself, empty again (zeroed)
 */
void figures_free(struct figures *fig);

/**
 * figures_first() - the first figure of a workload, the one that stands for it
 * @fig: the figures, or NULL
 * @workload: its name
 *
 * Return: the figure's name (as the first file that has the workload gave
 * it first), or NULL when @fig has none of @workload.
 */
const char *figures_first(const struct figures *fig, const char *workload);

/**
 * figures_format_mean() - a figure's mean over the runs, as the report prints it
 * @buf: where to, "-" when there is none
 * @size: its size
 * @fig: the figures, or NULL
 * @governor: the governor's name
 * @workload: the workload's name
 * @figure: the figure's name, or NULL
 *
 * About four significant digits, never in exponent form.
 *
 * Return: true, or false when @fig has no value of that figure.
 */
bool figures_format_mean(char *buf, size_t size, const struct figures *fig,
			 const char *governor, const char *workload, const char *figure);

/**
 * figures_fprint_text() - the figures as report.txt shows them
 * @f: the stream
 * @fig: the figures, or NULL (then nothing is printed)
 *
 * One table per workload, a row per figure and a column per governor in
 * IDLESCOPE_GOVERNORS order, each cell the mean over the runs.
 */
void figures_fprint_text(FILE *f, const struct figures *fig);

/**
 * figures_json() - report.json's "workload_figures"
 * @j: the writer, inside the top-level object
 * @fig: the figures, or NULL (an empty array)
 *
 * An entry per cell: workload, governor, figure, unit, runs, mean and
 * every run's value, in the order of figures_fprint_text().
 */
void figures_json(struct json *j, const struct figures *fig);

#endif /* __IDLESCOPE_REPORT_FIGURES_H */
