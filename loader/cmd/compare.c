// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - `idlescope compare A B`: what changed between two runs (or
 * two governors, --pair), and whether the change is more than noise.
 *
 * This file parses the options and calls down.  Each side goes through
 * the same pipeline as `idlescope report` (one aggregate over its record
 * files, each replayed from a fresh start: cmd/recset.h).  The rows (every
 * headline share of every workload x governor in both views of the
 * periods, and each model's within 2x), the design that pairs the sides'
 * boots or seeds, the tests, the gate's family and Holm's flags are
 * stats/comparison.h's; what is printed, in each format, is
 * report/compare_print.h's.  A workload whose wake-ups the host times
 * (EVENTS host in the workload list, -w or the run directory's
 * workloads.txt) is one the statistics leave out of the tested family,
 * unless --include-host-timed.
 *
 * A gate fails closed: it passes only on what it saw.  A number one side
 * has and the other lacks (a workload or governor missing from B, a probe
 * that did not attach), a side without idle periods, a record file the
 * loader did not finish, and two sides recorded on different setups are
 * errors (exit status 2), unless --allow-missing (or --across FACT) says
 * that is what is meant.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "cmd/compare.h"
#include "cmd/recset.h"
#include "stats/comparison.h"
#include "governors.h"
#include "format/numbers.h"
#include "args.h"
#include "pipeline.h"
#include "recfile.h"
#include "report/compare_print.h"
#include "report/environment.h"
#include "report/figures.h"
#include "runinfo/runinfo.h"

/* compare's statuses: 1 is the gate's verdict, every error is 2. */
#define COMPARE_EXIT_REGRESSION	1
#define COMPARE_EXIT_ERROR	CLI_EXIT_USAGE
/* The workload list a make run leaves in its run directory. */
#define COMPARE_RUN_WORKLOADS	"workloads.txt"

struct side {
	const char *arg;		/* as given: a file or a run directory */
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

/*
 * Where each workload's events come from: @list (-w), else the run
 * directory's workload list when the side is a run directory that has one.
 */
static int load_workloads(struct side *s, const char *list)
{
	char path[PATH_MAX], err[256];
	struct stat st;

	if (!list) {
		if (stat(s->arg, &st) || !S_ISDIR(st.st_mode))
			return 0;
		snprintf(path, sizeof(path), "%s/%s", s->arg, COMPARE_RUN_WORKLOADS);
		if (access(path, R_OK))
			return 0;
		list = path;
	}
	if (event_sources_read(&s->meta.events, list, err, sizeof(err))) {
		fprintf(stderr, "idlescope: error: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* The side's record files, one pipeline over all of them, their figures. */
static int load_side(struct side *s, bool allow_missing, const char *workload_list)
{
	struct agg_key key = { .workload = -1 };
	int err;

	s->files.refuse_untrailed = !allow_missing;
	run_meta_init(&s->meta);
	s->meta.figures = &s->figures;
	err = load_workloads(s, workload_list);
	if (!err)
		err = recset_add(&s->files, s->arg);
	if (!err)
		err = recset_replay(&s->files, &s->pl, &s->meta);
	if (!err)
		err = recset_read_figures(&s->files, &s->figures, s->pl.agg);
	if (err)
		return err;
	if (!allow_missing && !agg_next(s->pl.agg, &key)) {
		fprintf(stderr, "idlescope: error: %s: no idle periods to compare; "
			"--allow-missing compares nothing with it\n", s->arg);
		return -ENODATA;
	}
	return 0;
}

/* Both sides recorded on one setup, but for the facts of --across. */
static int check_setups(const struct compare *c)
{
	const struct recfile_header *a = &c->a.files.first, *b = &c->b.files.first;
	char va[ESCAPE_SIZE(RECFILE_RELEASE_LEN)], vb[ESCAPE_SIZE(RECFILE_RELEASE_LEN)];
	int fact = runinfo_setup_difference(a, b, RUNINFO_ALL_FACTS & ~c->across);

	if (fact < 0)
		return 0;
	runinfo_fact_values(a, b, fact, va, vb, sizeof(va));
	fprintf(stderr, "idlescope: error: A and B differ in %s: A '%s', B '%s'; "
		"--across %s compares them anyway\n", runinfo_fact_names[fact], va, vb,
		runinfo_fact_names[fact]);
	return -EINVAL;
}

/* Whether @workload's events are host-timed on either side (report/environment.h). */
static bool host_timed(const void *ctx, const char *workload)
{
	const struct compare *c = ctx;

	return report_host_timed(&c->a.meta, workload) || report_host_timed(&c->b.meta, workload);
}

/* The rows, their tests and the gate (stats/comparison.h); 0 or -ENOMEM. */
static int run_comparison(struct compare *c)
{
	int nr_a = agg_nr_boots(c->a.pl.agg), nr_b = agg_nr_boots(c->b.pl.agg), err;
	int *seeds_a = recset_boot_seeds(&c->a.files, nr_a);
	int *seeds_b = recset_boot_seeds(&c->b.files, nr_b);
	char **keys_a = recset_boot_keys(&c->a.files, c->a.pl.agg);
	char **keys_b = recset_boot_keys(&c->b.files, c->b.pl.agg);
	const struct cmp_side a = { c->a.pl.agg, (const char *const *)keys_a, seeds_a };
	const struct cmp_side b = { c->b.pl.agg, (const char *const *)keys_b, seeds_b };
	const struct cmp_options o = {
		.pair_a = c->pair_a, .pair_b = c->pair_b,
		.include_host_timed = c->include_host_timed,
		.host_timed = host_timed, .host_timed_ctx = c,
	};

	err = keys_a && keys_b ? comparison_run(&c->cmp, &a, &b, &o) : -ENOMEM;
	if (!err)
		c->nr_failed = comparison_nr_failing(&c->cmp, c->fail_above_pp);
	free(seeds_a);
	free(seeds_b);
	recset_free_boot_keys(keys_a, nr_a);
	recset_free_boot_keys(keys_b, nr_b);
	return err;
}

/*
 * Without --allow-missing, a row on one side only is an error, named in
 * one line: the gate would pass on a number it never compared.
 */
static int check_missing(const struct compare *c)
{
	const struct cmp_row *r;
	char gov[40];
	int i;

	if (c->allow_missing || (!c->cmp.nr_missing && c->cmp.nr_rows))
		return 0;
	if (!c->cmp.nr_rows) {
		fprintf(stderr, "idlescope: error: A and B have no number in common; "
			"--allow-missing compares nothing\n");
		return -ENODATA;
	}
	for (i = 0; !c->cmp.rows[i].only_in; i++)
		;
	r = &c->cmp.rows[i];
	compare_format_governors(gov, sizeof(gov), r);
	fprintf(stderr, "idlescope: error: %d numbers on one side only, the first: workload %s, "
		"governor %s, %s%s (%s) only in %c; --allow-missing compares the rest\n",
		c->cmp.nr_missing, fmt_workload_label(r->workload), gov,
		r->model ? r->model : share_metrics[r->metric].name,
		r->model ? " within 2x" : "", share_view_names[r->view], r->only_in);
	return -ENODATA;
}

/* --pair GA:GB: two governor names. */
static void parse_pair(struct compare *c, const char *arg)
{
	char name[64];
	const char *colon = strchr(arg, ':');

	if (colon && (size_t)(colon - arg) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(colon - arg), arg);
		c->pair_a = governor_id(name);
		c->pair_b = governor_id(colon + 1);
	}
	if (!colon || c->pair_a < 0 || c->pair_b < 0)
		cli_usage_error("--pair %s: need two governor names, GA:GB", arg);
}

/* --across FACT[,FACT...]: setup facts the two sides may differ in. */
static void parse_across(struct compare *c, const char *arg)
{
	char list[128], *tok, *save;
	int fact;

	if (snprintf(list, sizeof(list), "%s", arg) >= (int)sizeof(list))
		cli_usage_error("--across %s: too long", arg);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (fact = 0; fact < RUNINFO_NR_FACTS; fact++)
			if (!strcmp(tok, runinfo_fact_names[fact]))
				break;
		if (fact == RUNINFO_NR_FACTS)
			cli_usage_error("--across %s: '%s' is not one of " RUNINFO_FACT_LIST,
					arg, tok);
		c->across |= 1U << fact;
	}
	if (!c->across)
		cli_usage_error("--across needs a setup fact: " RUNINFO_FACT_LIST);
}

enum {
	OPT_FAIL_ABOVE = 0x100,
	OPT_PAIR,
	OPT_ALLOW_MISSING,
	OPT_ACROSS,
	OPT_FORMAT,
	OPT_INCLUDE_HOST_TIMED,
	OPT_HTML,
};

/* The most points a difference of two percentages can be. */
#define COMPARE_MAX_PP	100.0

static error_t compare_parse(int key, char *arg, struct argp_state *state)
{
	struct compare *c = state->input;

	switch (key) {
	case 'j':
		c->format = COMPARE_JSON;
		return 0;
	case OPT_FAIL_ABOVE:
		if (parse_decimal_fraction(arg, COMPARE_MAX_PP, &c->fail_above_pp))
			cli_usage_error("--fail-above %s: not a number of points from 0 to %g "
					"(digits, maybe a '.' and more)", arg, COMPARE_MAX_PP);
		return 0;
	case OPT_PAIR:
		parse_pair(c, arg);
		return 0;
	case OPT_ALLOW_MISSING:
		c->allow_missing = true;
		return 0;
	case OPT_ACROSS:
		parse_across(c, arg);
		return 0;
	case OPT_INCLUDE_HOST_TIMED:
		c->include_host_timed = true;
		return 0;
	case 'w':
		c->workload_list = arg;
		return 0;
	case OPT_HTML:
		c->html_path = arg;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			c->format = COMPARE_TEXT;
		else if (!strcmp(arg, "json"))
			c->format = COMPARE_JSON;
		else if (!strcmp(arg, "linux-pm"))
			c->format = COMPARE_LINUX_PM;
		else if (!strcmp(arg, "headline"))
			c->format = COMPARE_HEADLINE;
		else
			cli_usage_error("--format %s: not text, json, linux-pm or headline", arg);
		return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num >= 2)
			cli_usage_error("usage: idlescope compare A B [OPTION...] (not '%s' too)", arg);
		*(state->arg_num ? &c->b.arg : &c->a.arg) = arg;
		return 0;
	case ARGP_KEY_END:
		if (state->arg_num != 2)
			cli_usage_error("usage: idlescope compare A B [OPTION...]");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const char compare_doc[] =
"What changed from run A to run B, and whether it is more than noise: every\n"
"headline number of every workload x governor, over the raw and the logical\n"
"periods, B - A in percentage points with its 95% interval (docs/ab.md).\n"
"Sides of the same boots (--pair on one run) are paired by boot, sides of\n"
"the same seeds by seed, others independent; the interval and the p-value\n"
"share one t and its degrees of freedom.  The primary rows (each workload's\n"
"within 2x, raw, and ideal hit, logical) are tested: flagged (*) by Holm's\n"
"procedure over those tested, each with the difference it detects 80% of\n"
"the time.  Every other row is secondary: shown, never flagged.  Rows of\n"
"host-timed workloads (-w, or a run directory's workloads.txt) and rows\n"
"whose boots split into regimes are shown, not tested, and say so.\n"
"\n"
"A and B are record files or run directories (their *.rec files).  A gate\n"
"fails closed: a number on one side only, a side without idle periods, a\n"
"record file the loader did not finish, and sides recorded on different\n"
"setups (kernel, HZ, cpuidle driver, state table, clock mode and arguments,\n"
"exit cost) are errors; a primary difference worse than --fail-above that no\n"
"test could judge (regimes, too few boots) fails.\n"
"\v"
"Exit status: 0 no primary difference worse than --fail-above that is\n"
"flagged or untested (or no gate); 1 one is (a regression); 2 any error,\n"
"usage or input.";

static const struct argp_option compare_options[] = {
	{ "json", 'j', NULL, 0, "Print the comparison as JSON", 0 },
	{ "fail-above", OPT_FAIL_ABOVE, "PP", 0,
	  "Exit 1 when a flagged (or untestable) primary difference is worse than PP "
	  "percentage points", 0 },
	{ "pair", OPT_PAIR, "GA:GB", 0, "Compare A's governor GA with B's GB (A and B "
	  "may be one run)", 0 },
	{ "allow-missing", OPT_ALLOW_MISSING, NULL, 0, "Compare what both sides have: "
	  "numbers on one side only, empty sides and unfinished record files are "
	  "listed, not errors", 0 },
	{ "across", OPT_ACROSS, "FACT[,FACT]", 0, "Compare sides whose setup differs in "
	  "FACT: " RUNINFO_FACT_LIST " (a patch's before and after kernels: --across "
	  "kernel)", 0 },
	{ "workloads", 'w', "WORKLOAD_LIST", 0, "Where each workload's events come from "
	  "(workloads/suite.txt's format; default: a run directory's workloads.txt)", 0 },
	{ "include-host-timed", OPT_INCLUDE_HOST_TIMED, NULL, 0, "Test the rows of "
	  "host-timed workloads too", 0 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default), json (as -j), linux-pm "
	  "(the before/after pair of the table governor patches are posted with) or "
	  "headline (the live governors' shares, A beside B)", 0 },
	{ "html", OPT_HTML, "FILE", 0, "Also write the comparison as a web page, the flagged "
	  "differences first (one file that opens offline)", 0 },
	{},
};

/* What the output names of side @s, @name ('A' or 'B'). */
static struct compare_side side_shown(const struct side *s, char name)
{
	return (struct compare_side){
		.arg = s->arg, .name = name, .nr_files = s->files.nr_files,
		.setup = &s->files.first, .agg = s->pl.agg, .meta = &s->meta,
	};
}

/* --html's page, then the format asked for on stdout. */
static int print_comparison(const struct compare *c)
{
	const struct compare_result r = {
		.a = side_shown(&c->a, 'A'), .b = side_shown(&c->b, 'B'), .cmp = &c->cmp,
		.pair_a = c->pair_a, .pair_b = c->pair_b,
		.fail_above_pp = c->fail_above_pp, .nr_failed = c->nr_failed,
	};

	if (c->html_path && compare_write_html(&r, c->html_path))
		return -EIO;
	switch (c->format) {
	case COMPARE_TEXT:
		compare_print_text(&r);
		break;
	case COMPARE_JSON:
		compare_fprint_json(stdout, &r);
		break;
	case COMPARE_LINUX_PM:
		compare_print_linuxpm(&r);
		break;
	case COMPARE_HEADLINE:
		compare_print_headline(&r);
		break;
	}
	return 0;
}

static void free_side(struct side *s)
{
	recset_free(&s->files);
	pipeline_free(&s->pl);
	figures_free(&s->figures);
}

int compare_command(int argc, char **argv)
{
	static const struct argp argp = {
		.options = compare_options,
		.parser = compare_parse,
		.args_doc = "A B",
		.doc = compare_doc,
	};
	struct compare c = {
		.fail_above_pp = NAN, .pair_a = -1, .pair_b = -1,
	};
	int ret = COMPARE_EXIT_ERROR;

	cli_parse(&argp, "compare", argc, argv, &c);
	/* A file that shrinks under the reader is an error too: status 2. */
	recfile_set_fatal_status(COMPARE_EXIT_ERROR);
	if (load_side(&c.a, c.allow_missing, c.workload_list) ||
	    load_side(&c.b, c.allow_missing, c.workload_list) ||
	    check_setups(&c))
		goto cleanup;
	if (run_comparison(&c)) {
		fprintf(stderr, "idlescope: error: comparing: %s\n", strerror(ENOMEM));
		goto cleanup;
	}
	if (check_missing(&c))
		goto cleanup;
	if (print_comparison(&c))
		goto cleanup;
	ret = c.nr_failed ? COMPARE_EXIT_REGRESSION : CLI_EXIT_OK;
cleanup:
	recfile_set_fatal_status(CLI_EXIT_ERROR);
	free_side(&c.a);
	free_side(&c.b);
	comparison_free(&c.cmp);
	return ret;
}
