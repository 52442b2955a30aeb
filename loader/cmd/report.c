// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - `idlescope report FILE|DIR... [-j] [-o DIR]`.  One file gives
 * the live report again; several (say, one per governor), or a run
 * directory's, give one report over all of them, each file replayed from
 * a fresh start (cmd/recset.h).  A record file's figures file
 * (FILE.figures, report/figures.h) adds the workloads' own figures.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmd/cli.h"
#include "cmd/recset.h"
#include "cmd/report.h"
#include "pipeline.h"
#include "report/dir.h"
#include "report/figures.h"
#include "report/set.h"

struct report_opts {
	const char **args;		/* FILE|DIR..., argc entries */
	int nr_args;
	const char *outdir;
	bool json;
};

static const char report_doc[] =
"Recompute the report of record files (idlescope -r), off-line.\n"
"\n"
"Each FILE is a record file; a DIR stands for its *.rec files and those of\n"
"its subdirectories (a `make run` directory).  One file gives the live\n"
"report again; several give one report over all of them, each replayed from\n"
"a fresh start.  They must share the clock mode, HZ, cpuidle driver and\n"
"state table, and no file may come twice.\n"
"\v" CLI_EXIT_DOC;

static const struct argp_option report_options[] = {
	{ "json", 'j', NULL, 0, "Print the JSON report instead of the text one", 0 },
	{ "output", 'o', "DIR", 0, "Also write report.txt, report.json, summary.md and "
	  "plots/ into DIR, as one set", 0 },
	{},
};

static error_t report_parse(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;

	switch (key) {
	case 'j':
		o->json = true;
		return 0;
	case 'o':
		o->outdir = arg;
		return 0;
	case ARGP_KEY_ARG:
		o->args[o->nr_args++] = arg;
		return 0;
	case ARGP_KEY_NO_ARGS:
		cli_usage_error("usage: idlescope report FILE|DIR... [-j] [-o DIR]");
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int report_command(int argc, char **argv)
{
	static const struct argp argp = {
		.options = report_options,
		.parser = report_parse,
		.args_doc = "FILE|DIR...",
		.doc = report_doc,
	};
	struct report_opts o = { .args = calloc(argc, sizeof(*o.args)) };
	struct recset files = {};
	struct figures *figures = calloc(1, sizeof(*figures));
	struct run_meta meta;
	struct pipeline pl = {};
	int i, err = 0;

	if (!o.args || !figures) {
		free(o.args);
		free(figures);
		return CLI_EXIT_ERROR;
	}
	cli_parse(&argp, "report", argc, argv, &o);
	for (i = 0; i < o.nr_args && !err; i++)
		err = recset_add(&files, o.args[i]);
	if (!err && o.outdir)
		err = reportdir_check(o.outdir);
	if (!err) {
		run_meta_init(&meta);
		meta.figures = figures;
		err = recset_replay(&files, &pl, &meta);
	}
	for (i = 0; i < files.nr_files && !err; i++)
		err = figures_read_beside(figures, files.files[i].path);
	if (!err) {
		reportset_meta_from_agg(&meta, pl.agg);
		err = reportset_write(pl.agg, &meta, o.json, o.outdir);
	}
	pipeline_free(&pl);
	recset_free(&files);
	free(figures);
	free(o.args);
	return err ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}
