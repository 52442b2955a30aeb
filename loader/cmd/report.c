// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - `idlescope report FILE|DIR... [-j] [-o DIR] [-w WORKLOAD_LIST]
 * [--format FORMAT] [--power FILE]`.  One file gives the live report
 * again; several (say, one per governor), or a run directory's, give one
 * report over all of them, each file replayed from a fresh start
 * (cmd/recset.h).  A record file's figures file (FILE.figures,
 * report/figures.h) adds the workloads' own figures; the workload list
 * (workloads/suite.txt) says where each workload's events come from.
 * --format linux-pm prints the linux-pm table instead of the text report;
 * --power prices the periods with a measured power table
 * (docs/power-table.md).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cli.h"
#include "cmd/recset.h"
#include "cmd/report.h"
#include "pipeline.h"
#include "output/dir.h"
#include "report/figures.h"
#include "report/set.h"
#include "report/linuxpm.h"
#include "stats/energy.h"

struct report_opts {
	const char **args;		/* FILE|DIR..., argc entries */
	int nr_args;
	const char *outdir;
	const char *workload_list;	/* -w: workloads/suite.txt, or NULL */
	bool json;
	bool linux_pm;			/* --format linux-pm */
	const char *power_path;		/* --power */
};

enum {
	OPT_FORMAT = 0x100,
	OPT_POWER,
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
	{ "output", 'o', "DIR", 0, "Also write report.txt, report.json, summary.md, "
	  "linuxpm.txt, report.html and plots/ into DIR, as one set", 0 },
	{ "workloads", 'w', "WORKLOAD_LIST", 0, "Where each workload's events come from: "
	  "the EVENTS column of this list (workloads/suite.txt)", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default), json (as -j) or linux-pm: "
	  "the table governor patches are posted with", 0 },
	{ "power", OPT_POWER, "FILE", 0, "Price the periods with this power table "
	  "(docs/power-table.md) instead of the default", 0 },
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
	case 'w':
		o->workload_list = arg;
		return 0;
	case OPT_FORMAT:
		o->json = !strcmp(arg, "json");
		o->linux_pm = !strcmp(arg, "linux-pm");
		if (!o->json && !o->linux_pm && strcmp(arg, "text"))
			cli_usage_error("--format %s: not text, json or linux-pm", arg);
		return 0;
	case OPT_POWER:
		o->power_path = arg;
		return 0;
	case ARGP_KEY_ARG:
		o->args[o->nr_args++] = arg;
		return 0;
	case ARGP_KEY_NO_ARGS:
		cli_usage_error("usage: idlescope report FILE|DIR... [-j] [-o DIR] "
				"[-w WORKLOAD_LIST] [--format text|json|linux-pm] [--power FILE]");
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
	struct power_table power;
	char err_msg[512];
	char why[256];
	int i, err = 0;

	if (!o.args || !figures) {
		free(o.args);
		free(figures);
		return CLI_EXIT_ERROR;
	}
	cli_parse(&argp, "report", argc, argv, &o);
	if (o.power_path) {
		err = power_table_load(o.power_path, &power, why, sizeof(why));
		if (err)
			fprintf(stderr, "idlescope: error: --power %s\n", why);
		else
			pl.power = &power;
	}
	for (i = 0; i < o.nr_args && !err; i++)
		err = recset_add(&files, o.args[i]);
	if (!err && o.outdir)
		err = reportdir_check(o.outdir);
	if (!err) {
		run_meta_init(&meta);
		meta.figures = figures;
		if (o.workload_list && event_sources_read(&meta.events, o.workload_list,
							  err_msg, sizeof(err_msg))) {
			fprintf(stderr, "idlescope: error: %s\n", err_msg);
			err = -EINVAL;
		}
	}
	if (!err)
		err = recset_replay(&files, &pl, &meta);
	if (!err)
		err = recset_read_figures(&files, figures, pl.agg);
	if (!err) {
		reportset_meta_from_agg(&meta, pl.agg);
		if (!o.linux_pm)
			err = reportset_write(pl.agg, &meta, o.json, o.outdir);
		else if (!(err = linuxpm_fprint(stdout, pl.agg, &meta)) && o.outdir)
			err = reportset_write_dir(pl.agg, &meta, o.outdir);
	}
	pipeline_free(&pl);
	recset_free(&files);
	figures_free(figures);
	free(figures);
	free(o.args);
	return err ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}
