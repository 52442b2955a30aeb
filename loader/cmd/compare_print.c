// SPDX-License-Identifier: GPL-2.0
/*
 * compare_print.c - what `idlescope compare` prints: the table of rows
 * with both setups in its header, the JSON object (on stdout, or drawn in
 * --html's page), the linux-pm pair.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cmd/comparison.h"
#include "format/escape.h"
#include "format/json_writer.h"
#include "format/numbers.h"
#include "format/table.h"
#include "governors.h"
#include "output/file.h"
#include "report/html.h"
#include "report/headline.h"
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

static void setup_text(const struct side *s, struct setup_text *t)
{
	int fact;

	for (fact = 0; fact < RUNINFO_NR_FACTS; fact++)
		runinfo_fact_value(&s->files.first, fact, t->fact[fact], sizeof(t->fact[fact]));
}

/* "A: ARG (N files): kernel K (HZ n, cpuidle driver D), clock C, S states". */
static void print_setup(const struct side *s)
{
	char arg[512];
	struct setup_text t;

	setup_text(s, &t);
	printf("%c: %s (%d files, %d boots): kernel %s (HZ %s, cpuidle driver %s), clock %s, %s\n",
	       s->name, escape_name(arg, sizeof(arg), s->arg, SIZE_MAX), s->files.nr_files,
	       agg_nr_boots(s->pl.agg),
	       t.fact[RUNINFO_KERNEL], t.fact[RUNINFO_HZ],
	       t.fact[RUNINFO_DRIVER][0] ? t.fact[RUNINFO_DRIVER] : "none",
	       t.fact[RUNINFO_CLOCK][0] ? t.fact[RUNINFO_CLOCK] : "unknown",
	       t.fact[RUNINFO_STATES]);
}

void compare_print_text(const struct compare *c)
{
	char a[32], b[32], d[32], metric[40], gov[40];
	int i, gov_width = 8;

	for (i = 0; i < c->nr_rows; i++) {
		compare_format_governors(gov, sizeof(gov), &c->rows[i]);
		if ((int)strlen(gov) > gov_width)
			gov_width = strlen(gov);
	}
	printf("idlescope compare: B - A in percentage points, 95%% interval; * = flagged by Holm's "
	       "procedure over the %d rows tested (family-wise 5%%)\n", c->nr_tested);
	print_setup(&c->a);
	print_setup(&c->b);
	putchar('\n');
	printf("%-14s %-*s %-26s", "workload", gov_width, "governor", "number");
	print_cells("A", "B", "B - A");
	putchar('\n');
	for (i = 0; i < c->nr_rows; i++) {
		const struct diff_row *r = &c->rows[i];

		fmt_share(a, sizeof(a), &r->a);
		fmt_share(b, sizeof(b), &r->b);
		if (r->only_in)
			snprintf(d, sizeof(d), "only in %c", r->only_in);
		else if (isnan(r->diff.half))
			snprintf(d, sizeof(d), "%+.1f", r->diff.pct);
		else
			snprintf(d, sizeof(d), "%+.1f ±%.1f", r->diff.pct, r->diff.half);
		if (r->model)
			snprintf(metric, sizeof(metric), "%s within 2x", r->model);
		else
			snprintf(metric, sizeof(metric), "%s %s", share_metrics[r->metric].title,
				 share_view_names[r->view]);
		compare_format_governors(gov, sizeof(gov), r);
		printf("%-14s %-*s %-26s", fmt_workload_label(r->workload), gov_width, gov,
		       metric);
		print_cells(a, b, d);
		printf("%s%s%s\n", r->flagged ? " *" : "", !compare_fails_gate(c, r) ? "" :
		       r->flagged ? " FAIL" : " FAIL (untested)",
		       r->host_timed && !c->include_host_timed && !r->only_in ?
		       " (host-timed, not tested)" : "");
	}
	if (c->shared_boot)
		printf("\nA and B share a boot: not independent runs, so not a significance test; "
		       "nothing is flagged%s", isnan(c->fail_above_pp) ? "" :
		       ", and every difference worse than --fail-above fails untested");
	if (c->nr_host_timed)
		printf("\n%d rows of host-timed workloads left out of the tested family "
		       "(--include-host-timed tests them)", c->nr_host_timed);
	printf("\n%d of %d differences flagged, %d numbers on one side only", c->nr_flagged,
	       c->nr_rows - c->nr_missing, c->nr_missing);
	if (!isnan(c->fail_above_pp))
		printf(", %d worse by more than %g points: %s", c->nr_failed,
		       c->fail_above_pp, c->nr_failed ? "FAIL" : "ok");
	printf("\n");
}

static void json_setup(struct json *j, const char *key, const struct side *s)
{
	const struct recfile_header *hdr = &s->files.first;

	json_object(j, key, true);
	json_str(j, "path", s->arg);
	json_int(j, "files", s->files.nr_files);
	json_int(j, "boots", agg_nr_boots(s->pl.agg));
	json_str(j, "kernel_release", s->meta.kernel_release);
	json_int(j, "hz", hdr->hz);
	json_str(j, "cpuidle_driver", s->meta.cpuidle_driver);
	json_str(j, "clock_mode", s->meta.clock_mode);
	json_int(j, "nr_states", hdr->nr_states);
	json_object_end(j);
}

static void json_row(struct json *j, const struct diff_row *r)
{
	json_object(j, NULL, false);
	json_str(j, "workload", r->workload);
	json_str(j, "governor", governor_name(r->governor));
	json_str(j, "governor_b", governor_name(r->governor_b));
	json_str(j, "model", r->model ? r->model : "live");
	json_str(j, "metric", share_metrics[r->metric].name);
	json_str(j, "view", share_view_names[r->view]);
	json_bool(j, "host_timed", r->host_timed);
	json_ci(j, "a", &r->a);
	json_ci(j, "b", &r->b);
	if (r->only_in) {
		json_str(j, "only_in", r->only_in == 'A' ? "a" : "b");
	} else {
		json_ci(j, "diff_pp", &r->diff);
		json_number(j, "p_value", r->p_value);
		json_bool(j, "flagged", r->flagged);
		json_bool(j, "worse", r->worse);
	}
	json_object_end(j);
}

int compare_fprint_json(FILE *f, const struct compare *c)
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
	json_u64(&j, "rows_tested", c->nr_tested);
	json_u64(&j, "host_timed_untested", c->nr_host_timed);
	json_bool(&j, "independent", !c->shared_boot);
	json_array(&j, "differences", false);
	for (i = 0; i < c->nr_rows; i++)
		if (!c->rows[i].only_in)
			json_row(&j, &c->rows[i]);
	json_array_end(&j);
	json_array(&j, "one_side_only", false);
	for (i = 0; i < c->nr_rows; i++)
		if (c->rows[i].only_in)
			json_row(&j, &c->rows[i]);
	json_array_end(&j);
	json_u64(&j, "compared", c->nr_rows - c->nr_missing);
	json_u64(&j, "missing", c->nr_missing);
	json_u64(&j, "flagged", c->nr_flagged);
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

int compare_write_html(const struct compare *c, const char *path)
{
	int err = output_write_file(path, fprint_html, c);

	if (err)
		fprintf(stderr, "idlescope: error: writing %s: %s\n", path, strerror(-err));
	return err;
}

void compare_print_linuxpm(const struct compare *c)
{
	const struct linuxpm_side a = { c->a.pl.agg, &c->a.meta, c->a.arg };
	const struct linuxpm_side b = { c->b.pl.agg, &c->b.meta, c->b.arg };

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

static bool live_row_of(const struct diff_row *r, const struct headline_number *hn)
{
	return !r->model && r->metric == hn->metric && r->view == hn->view;
}

/* The live row of @hn for @workload and @key's governors, or NULL. */
static const struct diff_row *find_live_row(const struct compare *c,
					    const struct headline_number *hn,
					    const char *workload, const struct diff_row *key)
{
	int i;

	for (i = 0; i < c->nr_rows; i++) {
		const struct diff_row *r = &c->rows[i];

		if (live_row_of(r, hn) && r->governor == key->governor &&
		    r->governor_b == key->governor_b && !strcmp(r->workload, workload))
			return r;
	}
	return NULL;
}

/* Whether an earlier live row of @hn than @i has @i's governors (or workload). */
static bool seen_before(const struct compare *c, const struct headline_number *hn, int i,
			bool by_workload)
{
	const struct diff_row *r = &c->rows[i];
	int j;

	for (j = 0; j < i; j++) {
		const struct diff_row *q = &c->rows[j];

		if (!live_row_of(q, hn))
			continue;
		if (by_workload ? !strcmp(q->workload, r->workload) :
		    q->governor == r->governor && q->governor_b == r->governor_b)
			return true;
	}
	return false;
}

/* One table: the workloads by the governors of keys[0..n), A beside B. */
static void print_headline_table(const struct compare *c, const struct headline_number *hn,
				 const struct diff_row *const *keys, int n)
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
	for (i = 0; i < c->nr_rows; i++) {
		const char *workload = c->rows[i].workload;

		if (!live_row_of(&c->rows[i], hn) || seen_before(c, hn, i, true))
			continue;
		printf("%-20s", fmt_workload_label(workload));
		for (k = 0; k < n; k++) {
			const struct diff_row *r = find_live_row(c, hn, workload, keys[k]);

			snprintf(a, sizeof(a), "-");
			snprintf(b, sizeof(b), "-");
			if (r && r->only_in != 'B')
				fmt_share(a, sizeof(a), &r->a);
			if (r && r->only_in != 'A')
				fmt_share(b, sizeof(b), &r->b);
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
static void print_headline_number(const struct compare *c, const struct headline_number *hn)
{
	const struct diff_row *keys[HEADLINE_GOVERNORS_PER_TABLE];
	int i, n = 0;

	for (i = 0; i < c->nr_rows; i++) {
		if (!live_row_of(&c->rows[i], hn) || seen_before(c, hn, i, false))
			continue;
		keys[n++] = &c->rows[i];
		if (n == HEADLINE_GOVERNORS_PER_TABLE) {
			print_headline_table(c, hn, keys, n);
			n = 0;
		}
	}
	if (n)
		print_headline_table(c, hn, keys, n);
}

void compare_print_headline(const struct compare *c)
{
	struct headline_number hn;

	printf("idlescope compare: the headline's shares (%%), A beside B, 95%% interval; "
	       "* = B - A flagged by Holm's procedure over the %d rows tested\n", c->nr_tested);
	print_setup(&c->a);
	print_setup(&c->b);
	for (hn.metric = 0; hn.metric < SHARE_NR_METRICS; hn.metric++)
		for (hn.view = 0; hn.view < VIEW_NR; hn.view++)
			print_headline_number(c, &hn);
	if (c->shared_boot)
		printf("\nA and B share a boot: not independent runs, so not a significance test; "
		       "nothing is flagged\n");
}
