/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare_print.h - what `idlescope compare` prints, in each of its
 * formats: the table of rows with both setups in its header, the JSON
 * object (on stdout, or drawn in --html's page), the linux-pm pair and the
 * headline's shares A beside B.  The numbers are stats/comparison.h's and
 * the sides cmd/compare.c read; here they are only laid out.
 */
#ifndef __IDLESCOPE_REPORT_COMPARE_PRINT_H
#define __IDLESCOPE_REPORT_COMPARE_PRINT_H

#include <stddef.h>
#include <stdio.h>
#include "recfile.h"
#include "runinfo/meta.h"
#include "stats/aggregate.h"
#include "stats/comparison.h"

/* One side of a comparison, as the output names it. */
struct compare_side {
	const char *arg;		/* as given: a file or a run directory */
	char name;			/* 'A' or 'B' */
	int nr_files;			/* its record files */
	const struct recfile_header *setup;	/* its first file's: the setup */
	const struct agg *agg;
	const struct run_meta *meta;
};

/* A comparison done: what every format prints. */
struct compare_result {
	struct compare_side a, b;
	const struct comparison *cmp;	/* the rows, flagged (stats/comparison.h) */
	int pair_a, pair_b;		/* --pair GA:GB, else -1: same governor */
	double fail_above_pp;		/* NAN: no gate */
	int nr_failed;			/* rows that fail --fail-above */
};

/**
 * compare_format_governors() - a row's governors as printed
 * @buf: where to write
 * @size: its size
 * @r: the row
 *
 * "menu2010", or "menu:teo" for a --pair row.
 */
void compare_format_governors(char *buf, size_t size, const struct cmp_row *r);

/**
 * compare_print_text() - the comparison as a table on stdout
 * @c: the comparison, rows flagged and the gate applied
 */
void compare_print_text(const struct compare_result *c);

/**
 * compare_fprint_json() - the comparison as one JSON object
 * @f: where to print it (stdout for -j)
 * @c: the comparison, rows flagged and the gate applied
 *
 * Return: 0, or -errno of the stream.
 */
int compare_fprint_json(FILE *f, const struct compare_result *c);

/**
 * compare_write_html() - --html: the comparison as a web page
 * @c: the comparison, rows flagged and the gate applied
 * @path: the file, written whole or not at all
 *
 * The page draws compare_fprint_json()'s document (report/html.h).
 *
 * Return: 0, or -errno after one error line.
 */
int compare_write_html(const struct compare_result *c, const char *path);

/**
 * compare_print_headline() - the headline's shares of A and B side by side
 * @c: the comparison, rows flagged
 *
 * Per headline number, a table of workloads by live governor, each
 * governor's A and B beside each other with their intervals, a flagged
 * difference marked: what a run on two kernels prints first.
 */
void compare_print_headline(const struct compare_result *c);

/**
 * compare_print_linuxpm() - the before/after linux-pm table on stdout
 * @c: the comparison
 *
 * A failed write is main()'s error, status 2.
 */
void compare_print_linuxpm(const struct compare_result *c);

#endif /* __IDLESCOPE_REPORT_COMPARE_PRINT_H */
