// SPDX-License-Identifier: GPL-2.0
/*
 * compare_print.c - what `idlescope compare` prints: the table of rows
 * with both setups in its header, the JSON object (on stdout, or drawn in
 * --html's page), the linux-pm pair, the headline's shares A beside B
 * (see compare_print.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/escape.h"
#include "format/json_writer.h"
#include "report/interval.h"
#include "format/numbers.h"
#include "format/table.h"
#include "governors.h"
#include "output/file.h"
#include "report/html.h"
#include "report/headline.h"
#include "report/compare_print.h"
#include "report/linuxpm.h"
#include "runinfo/runinfo.h"

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

/* A side's setup facts, printable (runinfo_fact_value()). */
struct setup_text {
	char fact[RUNINFO_NR_FACTS][ESCAPE_SIZE(RECFILE_RELEASE_LEN)];
};

static void setup_text(const struct compare_side *s, struct setup_text *t)
{
	int fact;

	for (fact = 0; fact < RUNINFO_NR_FACTS; fact++)
		runinfo_fact_value(s->setup, fact, t->fact[fact], sizeof(t->fact[fact]));
}

/* "A: ARG (N files): kernel K (HZ n, cpuidle driver D), clock C, S states". */
static void print_setup(const struct compare_side *s)
{
	char arg[512];
	struct setup_text t;

	setup_text(s, &t);
	printf("%c: %s (%d files, %d boots): kernel %s (HZ %s, cpuidle driver %s), clock %s, %s\n",
	       s->name, escape_name(arg, sizeof(arg), s->arg, SIZE_MAX), s->nr_files,
	       agg_nr_boots(s->agg),
	       t.fact[RUNINFO_KERNEL], t.fact[RUNINFO_HZ],
	       t.fact[RUNINFO_DRIVER][0] ? t.fact[RUNINFO_DRIVER] : "none",
	       t.fact[RUNINFO_CLOCK][0] ? t.fact[RUNINFO_CLOCK] : "unknown",
	       t.fact[RUNINFO_STATES]);
}

/* The row's number: a model's within 2x, or a share and its view. */
static void format_number(char *buf, size_t size, const struct cmp_row *r)
{
	if (r->model)
		snprintf(buf, size, "%s within 2x", r->model);
	else
		snprintf(buf, size, "%s %s", share_metrics[r->metric].title,
			 share_view_names[r->view]);
}

/* "1@58.1 3@96.6": a row's regimes, boots at their mean, on one side or of the pairs. */
static void format_regimes(char *buf, size_t size, const struct regimes *g)
{
	snprintf(buf, size, "%d@%.1f %d@%.1f", g->regime[0].nr_boots, g->regime[0].mean_pct,
		 g->regime[1].nr_boots, g->regime[1].mean_pct);
}

void compare_format_governors(char *buf, size_t size, const struct cmp_row *r)
{
	if (r->governor == r->governor_b)
		snprintf(buf, size, "%s", governor_name(r->governor));
	else
		snprintf(buf, size, "%s:%s", governor_name(r->governor),
			 governor_name(r->governor_b));
}

/* What follows a row: its flag, why it has no test, the gate's verdict. */
static void print_row_tail(const struct compare_result *c, const struct cmp_row *r)
{
	char buf[64];
	const struct regimes *g;

	if (r->flagged)
		printf(" *");
	switch (r->untested) {
	case CMP_HOST_TIMED:
		printf(" (host-timed, not tested)");
		break;
	case CMP_REGIMES:
		g = r->regimes_diff.nr == 2 ? &r->regimes_diff :
		    r->regimes_a.nr == 2 ? &r->regimes_a : &r->regimes_b;
		format_regimes(buf, sizeof(buf), g);
		printf(" (regimes %s: %s, not tested)", r->regimes_diff.nr == 2 ? "of B - A" :
		       r->regimes_a.nr == 2 ? "in A" : "in B", buf);
		break;
	case CMP_NO_TEST:
		printf(" (no test)");
		break;
	case CMP_TESTED:
	case CMP_SECONDARY:
	case CMP_ONE_SIDE:
		break;
	}
	if (comparison_fails_gate(r, c->fail_above_pp))
		printf(r->flagged ? " FAIL" : " FAIL (untested)");
	putchar('\n');
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* The design, the family and what the gate can detect. */
static void print_design(const struct compare_result *c)
{
	const struct comparison *cmp = c->cmp;
	double *mde = calloc(cmp->nr_rows ? cmp->nr_rows : 1, sizeof(*mde));
	int i, n = 0;

	printf("design: %s", cmp_design_names[cmp->design]);
	if (cmp->design != CMP_INDEPENDENT)
		printf(" (%d pairs: each pair's B - A is one observation, t over them)",
		       cmp->nr_pairs);
	else
		printf(" (Welch's t over each side's boots)");
	printf("\nprimary rows (the gate's family): within 2x %% raw and ideal hit %% logical per "
	       "workload; %d of %d tested, Holm, family-wise 5%%\n", cmp->nr_tested,
	       cmp->nr_primary);
	for (i = 0; mde && i < cmp->nr_rows; i++)
		if (!isnan(cmp->rows[i].mde_pp))
			mde[n++] = cmp->rows[i].mde_pp;
	qsort(mde, n, sizeof(*mde), by_value);
	if (n)
		printf("detects, 80%% of the time, a difference of: median %.1f, largest %.1f points "
		       "(per row in -j's mde_pp)\n", mde[n / 2], mde[n - 1]);
	free(mde);
}

/* The primary rows (@primary) or the secondary ones, under their heading. */
static void print_rows(const struct compare_result *c, bool primary, int gov_width)
{
	char a[32], b[32], d[32], metric[40], gov[40];
	int i;

	printf(primary ? "\n== primary rows: the gate's family ==\n" :
	       "\n== secondary rows: shown, never flagged ==\n");
	printf("%-14s %-*s %-26s", "workload", gov_width, "governor", "number");
	print_cells("A", "B", "B - A");
	putchar('\n');
	for (i = 0; i < c->cmp->nr_rows; i++) {
		const struct cmp_row *r = &c->cmp->rows[i];

		if (r->primary != primary)
			continue;
		report_fmt_share(a, sizeof(a), &r->a);
		report_fmt_share(b, sizeof(b), &r->b);
		if (r->only_in)
			snprintf(d, sizeof(d), "only in %c", r->only_in);
		else if (isnan(r->diff.half))
			snprintf(d, sizeof(d), "%+.1f", r->diff.pct);
		else
			snprintf(d, sizeof(d), "%+.1f ±%.1f", r->diff.pct, r->diff.half);
		format_number(metric, sizeof(metric), r);
		compare_format_governors(gov, sizeof(gov), r);
		printf("%-14s %-*s %-26s", fmt_workload_label(r->workload), gov_width, gov, metric);
		print_cells(a, b, d);
		print_row_tail(c, r);
	}
}

void compare_print_text(const struct compare_result *c)
{
	char gov[40];
	int i, gov_width = 8;

	for (i = 0; i < c->cmp->nr_rows; i++) {
		compare_format_governors(gov, sizeof(gov), &c->cmp->rows[i]);
		if ((int)strlen(gov) > gov_width)
			gov_width = strlen(gov);
	}
	printf("idlescope compare: B - A in percentage points, 95%% interval; * = flagged by Holm's "
	       "procedure over the %d primary rows tested (family-wise 5%%)\n", c->cmp->nr_tested);
	print_setup(&c->a);
	print_setup(&c->b);
	print_design(c);
	print_rows(c, true, gov_width);
	print_rows(c, false, gov_width);
	if (c->cmp->nr_host_timed)
		printf("\n%d rows of host-timed workloads left out of the tested family "
		       "(--include-host-timed tests them)", c->cmp->nr_host_timed);
	if (c->cmp->nr_regimes)
		printf("\n%d primary rows left untested: their boots fall into regimes",
		       c->cmp->nr_regimes);
	printf("\n%d of %d differences flagged, %d numbers on one side only", c->cmp->nr_flagged,
	       c->cmp->nr_rows - c->cmp->nr_missing, c->cmp->nr_missing);
	if (!isnan(c->fail_above_pp))
		printf(", %d worse by more than %g points: %s", c->nr_failed,
		       c->fail_above_pp, c->nr_failed ? "FAIL" : "ok");
	printf("\n");
}

static void json_setup(struct json *j, const char *key, const struct compare_side *s)
{
	const struct recfile_header *hdr = s->setup;

	json_object(j, key, true);
	json_str(j, "path", s->arg);
	json_int(j, "files", s->nr_files);
	json_int(j, "boots", agg_nr_boots(s->agg));
	json_str(j, "kernel_release", s->meta->kernel_release);
	json_int(j, "hz", hdr->hz);
	json_str(j, "cpuidle_driver", s->meta->cpuidle_driver);
	json_str(j, "clock_mode", s->meta->clock_mode);
	json_int(j, "nr_states", hdr->nr_states);
	json_object_end(j);
}

static void json_row(struct json *j, const struct cmp_row *r)
{
	json_object(j, NULL, false);
	json_str(j, "workload", r->workload);
	json_str(j, "governor", governor_name(r->governor));
	json_str(j, "governor_b", governor_name(r->governor_b));
	json_str(j, "model", r->model ? r->model : "live");
	json_str(j, "metric", share_metrics[r->metric].name);
	json_str(j, "view", share_view_names[r->view]);
	json_bool(j, "host_timed", r->host_timed);
	report_json_ci(j, "a", &r->a);
	report_json_ci(j, "b", &r->b);
	if (r->only_in) {
		json_str(j, "only_in", r->only_in == 'A' ? "a" : "b");
	} else {
		report_json_ci(j, "diff_pp", &r->diff);
		json_number(j, "p_value", r->p_value);
		json_bool(j, "flagged", r->flagged);
		json_bool(j, "worse", r->worse);
		json_u64(j, "pairs", r->nr_pairs);
		json_number(j, "mde_pp", r->mde_pp);
	}
	json_bool(j, "primary", r->primary);
	json_str(j, "test", cmp_untested_names[r->untested]);
	json_object_end(j);
}

int compare_fprint_json(FILE *f, const struct compare_result *c)
{
	struct json j = { .f = f };
	int i;

	json_object(&j, NULL, false);
	json_str(&j, "a", c->a.arg);
	json_str(&j, "b", c->b.arg);
	json_setup(&j, "a_setup", &c->a);
	json_setup(&j, "b_setup", &c->b);
	json_number(&j, "fail_above_pp", c->fail_above_pp);
	json_str(&j, "correction", "holm");
	json_str(&j, "design", cmp_design_names[c->cmp->design]);
	json_u64(&j, "pairs", c->cmp->nr_pairs);
	json_u64(&j, "primary_rows", c->cmp->nr_primary);
	json_u64(&j, "rows_tested", c->cmp->nr_tested);
	json_u64(&j, "host_timed_untested", c->cmp->nr_host_timed);
	json_u64(&j, "regimes_untested", c->cmp->nr_regimes);
	json_array(&j, "differences", false);
	for (i = 0; i < c->cmp->nr_rows; i++)
		if (!c->cmp->rows[i].only_in)
			json_row(&j, &c->cmp->rows[i]);
	json_array_end(&j);
	json_array(&j, "one_side_only", false);
	for (i = 0; i < c->cmp->nr_rows; i++)
		if (c->cmp->rows[i].only_in)
			json_row(&j, &c->cmp->rows[i]);
	json_array_end(&j);
	json_u64(&j, "compared", c->cmp->nr_rows - c->cmp->nr_missing);
	json_u64(&j, "missing", c->cmp->nr_missing);
	json_u64(&j, "flagged", c->cmp->nr_flagged);
	json_u64(&j, "failed_differences", c->nr_failed);
	json_bool(&j, "failed", c->nr_failed > 0);
	json_object_end(&j);
	fputc('\n', f);
	return output_stream_status(f);
}

static int fprint_json(FILE *f, const void *ctx)
{
	return compare_fprint_json(f, ctx);
}

static int fprint_html(FILE *f, const void *ctx)
{
	return html_fprint_doc(f, HTML_PAGE_COMPARE, fprint_json, ctx);
}

int compare_write_html(const struct compare_result *c, const char *path)
{
	int err = output_write_file(path, fprint_html, c);

	if (err)
		fprintf(stderr, "idlescope: error: writing %s: %s\n", path, strerror(-err));
	return err;
}

void compare_print_linuxpm(const struct compare_result *c)
{
	const struct linuxpm_side a = { c->a.agg, c->a.meta, c->a.arg };
	const struct linuxpm_side b = { c->b.agg, c->b.meta, c->b.arg };

	linuxpm_fprint_compare(stdout, &a, &b, c->pair_a, c->pair_b);
}

/* ---- --format headline ------------------------------------------------ */

/* Governor columns per table: A and B each, 13 wide, within HEADLINE_MAX_COLS. */
#define HEADLINE_GOVERNORS_PER_TABLE	3

/* One headline table's number: a metric over one view of the periods. */
struct headline_number {
	int metric;
	int view;
};

static bool live_row_of(const struct cmp_row *r, const struct headline_number *hn)
{
	return !r->model && r->metric == hn->metric && r->view == hn->view;
}

/* The live row of @hn for @workload and @key's governors, or NULL. */
static const struct cmp_row *find_live_row(const struct compare_result *c,
					    const struct headline_number *hn,
					    const char *workload, const struct cmp_row *key)
{
	int i;

	for (i = 0; i < c->cmp->nr_rows; i++) {
		const struct cmp_row *r = &c->cmp->rows[i];

		if (live_row_of(r, hn) && r->governor == key->governor &&
		    r->governor_b == key->governor_b && !strcmp(r->workload, workload))
			return r;
	}
	return NULL;
}

/* Whether an earlier live row of @hn than @i has @i's governors (or workload). */
static bool seen_before(const struct compare_result *c, const struct headline_number *hn, int i,
			bool by_workload)
{
	const struct cmp_row *r = &c->cmp->rows[i];
	int j;

	for (j = 0; j < i; j++) {
		const struct cmp_row *q = &c->cmp->rows[j];

		if (!live_row_of(q, hn))
			continue;
		if (by_workload ? !strcmp(q->workload, r->workload) :
		    q->governor == r->governor && q->governor_b == r->governor_b)
			return true;
	}
	return false;
}

/* One table: the workloads by the governors of keys[0..n), A beside B. */
static void print_headline_table(const struct compare_result *c, const struct headline_number *hn,
				 const struct cmp_row *const *keys, int n)
{
	char gov[40], head[56], a[32], b[32];
	int i, k;

	snprintf(head, sizeof(head), "%s %s", share_metrics[hn->metric].title,
		 share_view_names[hn->view]);
	printf("\n%-20s", head);
	for (k = 0; k < n; k++) {
		compare_format_governors(gov, sizeof(gov), keys[k]);
		snprintf(head, sizeof(head), "%s A", gov);
		printf(" %13s", head);
		snprintf(head, sizeof(head), "%s B", gov);
		printf(" %13s", head);
	}
	putchar('\n');
	for (i = 0; i < c->cmp->nr_rows; i++) {
		const char *workload = c->cmp->rows[i].workload;

		if (!live_row_of(&c->cmp->rows[i], hn) || seen_before(c, hn, i, true))
			continue;
		printf("%-20s", fmt_workload_label(workload));
		for (k = 0; k < n; k++) {
			const struct cmp_row *r = find_live_row(c, hn, workload, keys[k]);

			snprintf(a, sizeof(a), "-");
			snprintf(b, sizeof(b), "-");
			if (r && r->only_in != 'B')
				report_fmt_share(a, sizeof(a), &r->a);
			if (r && r->only_in != 'A')
				report_fmt_share(b, sizeof(b), &r->b);
			if (r && r->flagged)
				strncat(b, "*", sizeof(b) - strlen(b) - 1);
			putchar(' ');
			table_print_cell(stdout, a, 13, false);
			putchar(' ');
			table_print_cell(stdout, b, 13, false);
		}
		putchar('\n');
	}
}

/* Every table of one number, HEADLINE_GOVERNORS_PER_TABLE governors each. */
static void print_headline_number(const struct compare_result *c, const struct headline_number *hn)
{
	const struct cmp_row *keys[HEADLINE_GOVERNORS_PER_TABLE];
	int i, n = 0;

	for (i = 0; i < c->cmp->nr_rows; i++) {
		if (!live_row_of(&c->cmp->rows[i], hn) || seen_before(c, hn, i, false))
			continue;
		keys[n++] = &c->cmp->rows[i];
		if (n == HEADLINE_GOVERNORS_PER_TABLE) {
			print_headline_table(c, hn, keys, n);
			n = 0;
		}
	}
	if (n)
		print_headline_table(c, hn, keys, n);
}

void compare_print_headline(const struct compare_result *c)
{
	struct headline_number hn;

	printf("idlescope compare: the headline's shares (%%), A beside B, 95%% interval; "
	       "* = B - A flagged by Holm's procedure over the %d rows tested\n", c->cmp->nr_tested);
	print_setup(&c->a);
	print_setup(&c->b);
	for (hn.metric = 0; hn.metric < SHARE_NR_METRICS; hn.metric++)
		for (hn.view = 0; hn.view < VIEW_NR; hn.view++)
			print_headline_number(c, &hn);
	printf("\ndesign: %s\n", cmp_design_names[c->cmp->design]);
}
