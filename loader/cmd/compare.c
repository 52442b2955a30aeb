// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - `idlescope compare A B`: what changed between two runs (or
 * two governors, --pair), and whether the change is more than noise.
 *
 * Each side goes through the same pipeline as `idlescope report` (one
 * aggregate over its record files, each replayed from a fresh start).
 * For every workload x host governor present in both, each headline
 * number (report/headline.h) and each shadow model's within 2x on that
 * governor's periods is subtracted, B - A, in percentage points.  The two
 * runs are independent, so the difference's interval adds the two 95%
 * half-widths in quadrature (ci_diff()); a difference is flagged when its
 * interval excludes 0, and is worse when it goes the wrong way for its
 * number (less within 2x, more too deep, ...).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/compare.h"
#include "report/headline.h"
#include "format/json_writer.h"
#include "pipeline.h"
#include "format/table.h"
#include "governors.h"
#include "format/numbers.h"
#include "report/linuxpm.h"

#define COMPARE_MAX_FILES	64
#define COMPARE_EXIT_BAD_INPUT	2

struct side {
	const char *arg;		/* as given: a file or a run directory */
	int nr_files;
	char *files[COMPARE_MAX_FILES];
	struct pipeline pl;
};

struct diff_row {
	const char *workload;
	int governor;			/* A's; B's is governor_b */
	int governor_b;
	const char *model;		/* NULL: the live governor's number */
	int metric;
	struct ci_pct a, b, diff;
	bool flagged, worse;
};

struct compare {
	struct side a, b;
	int pair_a, pair_b;		/* --pair GA:GB, else -1: same governor */
	double fail_above_pp;		/* NAN: no gate */
	bool json;
	bool linux_pm;			/* --format linux-pm: the before/after table */
	int nr_rows, nr_alloc;
	struct diff_row *rows;
};

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n >= k && !strcmp(name + n - k, suffix);
}

static int add_file(struct side *s, const char *dir, const char *name)
{
	if (s->nr_files == COMPARE_MAX_FILES)
		return -E2BIG;
	if (asprintf(&s->files[s->nr_files], "%s/%s", dir, name) < 0)
		return -ENOMEM;
	s->nr_files++;
	return 0;
}

/* DIR/NAME.rec and DIR/SUB/NAME.rec (a `make run` directory), in name order. */
static int collect_dir(struct side *s, const char *dir, int depth)
{
	struct dirent **ents;
	char sub[4096];
	struct stat st;
	int n, i, err = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (!err && name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", dir, name);
			if (stat(sub, &st))
				;
			else if (S_ISDIR(st.st_mode) && depth > 0)
				err = collect_dir(s, sub, depth - 1);
			else if (S_ISREG(st.st_mode) && has_suffix(name, ".rec"))
				err = add_file(s, dir, name);
		}
		free(ents[i]);
	}
	free(ents);
	return err;
}

/* The side's record files, then one pipeline over all of them. */
static int load_side(struct side *s)
{
	__u64 records_read[IDLESCOPE_MAX_CPUS];
	struct recfile rf;
	bool cut_short;
	struct stat st;
	int i, ret;

	if (stat(s->arg, &st)) {
		fprintf(stderr, "idlescope: error: %s: %s\n", s->arg, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = collect_dir(s, s->arg, 1);
	} else {
		s->files[0] = strdup(s->arg);
		s->nr_files = !!s->files[0];
		ret = s->nr_files ? 0 : -ENOMEM;
	}
	if (!ret && !s->nr_files)
		ret = -ENOENT;
	if (ret) {
		fprintf(stderr, "idlescope: error: %s: %s\n", s->arg,
			ret == -ENOENT ? "no record files (*.rec)" : strerror(-ret));
		return ret;
	}
	for (i = 0; i < s->nr_files; i++) {
		if (recfile_open(&rf, s->files[i])) {
			fprintf(stderr, "idlescope: error: %s\n", rf.error);
			return -EINVAL;
		}
		ret = pipeline_add_file(&s->pl, &rf, i == 0, records_read, &cut_short);
		if (ret)
			fprintf(stderr, "idlescope: error: %s\n", rf.error);
		recfile_close(&rf);
		if (ret)
			return ret;
	}
	return 0;
}

static struct diff_row *new_row(struct compare *c)
{
	struct diff_row *rows;

	if (c->nr_rows == c->nr_alloc) {
		c->nr_alloc = c->nr_alloc ? 2 * c->nr_alloc : 64;
		rows = realloc(c->rows, c->nr_alloc * sizeof(*rows));
		if (!rows)
			return NULL;
		c->rows = rows;
	}
	return &c->rows[c->nr_rows++];
}

static int add_row(struct compare *c, const char *workload, int ga, int gb,
		   const char *model, int metric, const struct ci_pct *a,
		   const struct ci_pct *b)
{
	struct diff_row *r;

	if (isnan(a->pct) || isnan(b->pct))
		return 0;
	r = new_row(c);
	if (!r)
		return -ENOMEM;
	r->workload = workload;
	r->governor = ga;
	r->governor_b = gb;
	r->model = model;
	r->metric = metric;
	r->a = *a;
	r->b = *b;
	r->diff = ci_diff(b, a);
	r->flagged = !isnan(r->diff.half) && (r->diff.lo > 0 || r->diff.hi < 0);
	r->worse = r->diff.pct * headline_metrics[metric].better < 0;
	return 0;
}

/* Every headline number and model score of one workload, A's ga against B's gb. */
static int diff_pair(struct compare *c, int wa, int wb, int ga, int gb)
{
	const struct agg *A = c->a.pl.agg, *B = c->b.pl.agg;
	const char *name = agg_workload_name(A, wa);
	struct headline_cell ca, cb;
	struct ci_pct ra, rb;
	int m, s, err = 0;

	if (!headline_cell(A, wa, ga, &ca) || !headline_cell(B, wb, gb, &cb))
		return 0;
	for (m = 0; m < HL_NR_METRICS && !err; m++)
		err = add_row(c, name, ga, gb, NULL, m, &ca.metric[m], &cb.metric[m]);
	for (s = 0; s < agg_nr_shadows(A) && !err; s++) {
		if (headline_model_within_2x(A, wa, ga, s, &ra) &&
		    headline_model_within_2x(B, wb, gb, s, &rb))
			err = add_row(c, name, ga, gb, agg_shadow_name(A, s), HL_WITHIN_2X,
				      &ra, &rb);
	}
	return err;
}

/*
 * Workloads of A also in B; the same governor on both sides (before and
 * after a kernel change), or with --pair, A's GA against B's GB (two
 * governors, from one run directory or two).
 */
static int diff_all(struct compare *c)
{
	const struct agg *A = c->a.pl.agg, *B = c->b.pl.agg;
	int wa, wb, g, err = 0;

	for (wa = 0; wa < agg_nr_workloads(A) && !err; wa++) {
		wb = agg_workload_index(B, agg_workload_name(A, wa));
		if (wb < 0)
			continue;
		if (c->pair_a >= 0) {
			err = diff_pair(c, wa, wb, c->pair_a, c->pair_b);
			continue;
		}
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS && !err; g++)
			err = diff_pair(c, wa, wb, g, g);
	}
	return err;
}

static bool fails_gate(const struct compare *c, const struct diff_row *r)
{
	return !isnan(c->fail_above_pp) && r->flagged && r->worse &&
	       fabs(r->diff.pct) > c->fail_above_pp;
}

/* A, B and B - A, right-aligned in terminal columns ("±" is one). */
static void print_cells(const char *a, const char *b, const char *d)
{
	putchar(' ');
	table_print_cell(stdout, a, 13, false);
	putchar(' ');
	table_print_cell(stdout, b, 13, false);
	putchar(' ');
	table_print_cell(stdout, d, 14, false);
}

/* "menu2010", or "menu:teo" for --pair rows. */
static void format_governors(char *buf, size_t size, const struct diff_row *r)
{
	if (r->governor == r->governor_b)
		snprintf(buf, size, "%s", governor_name(r->governor));
	else
		snprintf(buf, size, "%s:%s", governor_name(r->governor),
			 governor_name(r->governor_b));
}

static void print_text(const struct compare *c, int nr_failed)
{
	char a[32], b[32], d[32], metric[40], gov[40];
	int i, nr_flagged = 0, gov_width = 8;

	for (i = 0; i < c->nr_rows; i++) {
		format_governors(gov, sizeof(gov), &c->rows[i]);
		if ((int)strlen(gov) > gov_width)
			gov_width = strlen(gov);
	}
	printf("idlescope compare: B - A in percentage points, 95%% interval; * = interval excludes 0\n"
	       "A: %s (%d files)\nB: %s (%d files)\n\n", c->a.arg, c->a.nr_files,
	       c->b.arg, c->b.nr_files);
	printf("%-14s %-*s %-22s", "workload", gov_width, "governor", "number");
	print_cells("A", "B", "B - A");
	putchar('\n');
	for (i = 0; i < c->nr_rows; i++) {
		const struct diff_row *r = &c->rows[i];

		fmt_share(a, sizeof(a), &r->a);
		fmt_share(b, sizeof(b), &r->b);
		if (isnan(r->diff.half))
			snprintf(d, sizeof(d), "%+.1f", r->diff.pct);
		else
			snprintf(d, sizeof(d), "%+.1f ±%.1f", r->diff.pct, r->diff.half);
		if (r->model)
			snprintf(metric, sizeof(metric), "%s within 2x", r->model);
		else
			snprintf(metric, sizeof(metric), "%s", headline_metrics[r->metric].title);
		format_governors(gov, sizeof(gov), r);
		printf("%-14s %-*s %-22s", fmt_workload_label(r->workload), gov_width, gov,
		       metric);
		print_cells(a, b, d);
		printf("%s%s\n", r->flagged ? " *" : "", fails_gate(c, r) ? " FAIL" : "");
		nr_flagged += r->flagged;
	}
	printf("\n%d of %d differences flagged", nr_flagged, c->nr_rows);
	if (!isnan(c->fail_above_pp))
		printf(", %d worse by more than %g points: %s", nr_failed,
		       c->fail_above_pp, nr_failed ? "FAIL" : "ok");
	printf("\n");
}

static void print_json(const struct compare *c, int nr_failed)
{
	struct json j = { .f = stdout };
	int i;

	json_object(&j, NULL, false);
	json_str(&j, "a", c->a.arg);
	json_str(&j, "b", c->b.arg);
	json_number(&j, "fail_above_pp", c->fail_above_pp);
	json_array(&j, "differences", false);
	for (i = 0; i < c->nr_rows; i++) {
		const struct diff_row *r = &c->rows[i];

		json_object(&j, NULL, false);
		json_str(&j, "workload", r->workload);
		json_str(&j, "governor", governor_name(r->governor));
		json_str(&j, "governor_b", governor_name(r->governor_b));
		json_str(&j, "model", r->model ? r->model : "live");
		json_str(&j, "metric", headline_metrics[r->metric].name);
		json_ci(&j, "a", &r->a);
		json_ci(&j, "b", &r->b);
		json_ci(&j, "diff_pp", &r->diff);
		json_bool(&j, "flagged", r->flagged);
		json_bool(&j, "worse", r->worse);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_u64(&j, "failed_differences", nr_failed);
	json_bool(&j, "failed", nr_failed > 0);
	json_object_end(&j);
	fputc('\n', stdout);
}

/* --pair GA:GB: two governor names. */
static int parse_pair(struct compare *c, const char *arg)
{
	char name[64];
	const char *colon = strchr(arg, ':');

	if (colon && (size_t)(colon - arg) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(colon - arg), arg);
		c->pair_a = governor_id(name);
		c->pair_b = governor_id(colon + 1);
	}
	if (!colon || c->pair_a < 0 || c->pair_b < 0) {
		fprintf(stderr, "idlescope: error: --pair %s: need two governor names, GA:GB\n", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(struct compare *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "fail-above", required_argument, NULL, 'f' },
		{ "pair", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'F' },
		{},
	};
	char *end;
	int opt;

	optind = 2;
	while ((opt = getopt_long(argc, argv, "jf:p:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			c->json = true;
			break;
		case 'f':
			c->fail_above_pp = strtod(optarg, &end);
			if (*end || end == optarg || !(c->fail_above_pp >= 0) ||
			    isinf(c->fail_above_pp)) {
				fprintf(stderr, "idlescope: error: --fail-above %s: not a number of points >= 0\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'p':
			if (parse_pair(c, optarg))
				return -EINVAL;
			break;
		case 'F':
			c->json = !strcmp(optarg, "json");
			c->linux_pm = !strcmp(optarg, "linux-pm");
			if (!c->json && !c->linux_pm && strcmp(optarg, "text")) {
				fprintf(stderr, "idlescope: error: --format %s: not text, json or linux-pm\n",
					optarg);
				return -EINVAL;
			}
			break;
		default:
			return -EINVAL;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "idlescope: error: usage: idlescope compare A B [-j] [--fail-above PP] "
			"[--pair GA:GB] [--format text|json|linux-pm]\n");
		return -EINVAL;
	}
	c->a.arg = argv[optind];
	c->b.arg = argv[optind + 1];
	return 0;
}

static void free_side(struct side *s)
{
	int i;

	for (i = 0; i < s->nr_files; i++)
		free(s->files[i]);
	pipeline_free(&s->pl);
}

int compare_command(int argc, char **argv)
{
	struct compare c = { .fail_above_pp = NAN, .pair_a = -1, .pair_b = -1 };
	int i, nr_failed = 0, ret = COMPARE_EXIT_BAD_INPUT;

	if (parse_args(&c, argc, argv) || load_side(&c.a) || load_side(&c.b))
		goto cleanup;
	if (diff_all(&c)) {
		fprintf(stderr, "idlescope: error: comparing: %s\n", strerror(ENOMEM));
		goto cleanup;
	}
	for (i = 0; i < c.nr_rows; i++)
		nr_failed += fails_gate(&c, &c.rows[i]);
	if (c.json)
		print_json(&c, nr_failed);
	else if (c.linux_pm)
		linuxpm_fprint_compare(stdout, c.a.pl.agg, c.a.arg, c.b.pl.agg, c.b.arg,
				       c.pair_a, c.pair_b);
	else
		print_text(&c, nr_failed);
	ret = nr_failed ? 1 : 0;
cleanup:
	free_side(&c.a);
	free_side(&c.b);
	free(c.rows);
	return ret;
}
