/* SPDX-License-Identifier: GPL-2.0 */
/*
 * comparison.h - one `idlescope compare` between its two halves: the
 * command (cmd/compare.c: the sides, their rows, Holm's flags, the gate)
 * and its output (cmd/compare_print.c: text, JSON, the linux-pm pair).
 */
#ifndef __IDLESCOPE_CMD_COMPARISON_H
#define __IDLESCOPE_CMD_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cmd/recset.h"
#include "pipeline.h"
#include "report/figures.h"
#include "runinfo/meta.h"
#include "stats/ci.h"
#include "stats/comparison.h"

struct side {
	const char *arg;		/* as given: a file or a run directory */
	char name;			/* 'A' or 'B' */
	struct recset files;
	struct pipeline pl;
	struct run_meta meta;
	struct figures figures;		/* the figures files beside its record files */
};

enum compare_format {
	COMPARE_TEXT,			/* every row: A, B, B - A, the flags */
	COMPARE_JSON,
	COMPARE_LINUX_PM,		/* the before/after table patches are posted with */
	COMPARE_HEADLINE,		/* the live governors' shares, A beside B */
};

struct compare {
	struct side a, b;
	int pair_a, pair_b;		/* --pair GA:GB, else -1: same governor */
	double fail_above_pp;		/* NAN: no gate */
	enum compare_format format;
	const char *html_path;		/* --html: the page, or NULL */
	bool allow_missing;
	bool include_host_timed;	/* test host-timed workloads' rows too */
	const char *workload_list;	/* -w: where each workload's events come from */
	unsigned int across;		/* RUNINFO_* facts allowed to differ */
	struct comparison cmp;		/* the rows, their tests (stats/comparison.h) */
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
void compare_print_text(const struct compare *c);

/**
 * compare_fprint_json() - the comparison as one JSON object
 * @f: where to print it (stdout for -j)
 * @c: the comparison, rows flagged and the gate applied
 *
 * Return: 0, or -errno of the stream.
 */
int compare_fprint_json(FILE *f, const struct compare *c);

/**
 * compare_write_html() - --html: the comparison as a web page
 * @c: the comparison, rows flagged and the gate applied
 * @path: the file, written whole or not at all
 *
 * The page draws compare_fprint_json()'s document (report/html.h).
 *
 * Return: 0, or -errno after one error line.
 */
int compare_write_html(const struct compare *c, const char *path);

/**
 * compare_print_headline() - the headline's shares of A and B side by side
 * @c: the comparison, rows flagged
 *
 * Per headline number, a table of workloads by live governor, each
 * governor's A and B beside each other with their intervals, a flagged
 * difference marked: what a run on two kernels prints first.
 */
void compare_print_headline(const struct compare *c);

/**
 * compare_print_linuxpm() - the before/after linux-pm table on stdout
 * @c: the comparison
 *
 * A failed write is main()'s error, status 2.
 */
void compare_print_linuxpm(const struct compare *c);

#endif /* __IDLESCOPE_CMD_COMPARISON_H */
