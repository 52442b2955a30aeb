// SPDX-License-Identifier: GPL-2.0
/*
 * test_headline - the one-screen views: report.txt's headline with ten
 * workloads (one untagged) x six governors fits in HEADLINE_MAX_LINES lines
 * of at most HEADLINE_MAX_COLS columns, names every workload and carries
 * the numbers the records were made to give; the live dashboard of the
 * current workload fits an 80x24 console.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/aggregate.h"
#include "live/dashboard.h"
#include "report/headline.h"
#include "report/report.h"
#include "check.h"
#include "fixtures.h"

#define NR_WORKLOADS	11	/* make run's ten and the untagged periods */
#define PERIODS		200

static const int governors[] = {
	IDLESCOPE_GOV_MENU, IDLESCOPE_GOV_TEO, IDLESCOPE_GOV_LADDER,
	IDLESCOPE_GOV_MENU2010, IDLESCOPE_GOV_MENU2010FIX, IDLESCOPE_GOV_MENU2010RPD,
};

static const struct agg_state_info states[] = {
	{ .target_residency_ns = 0 },
	{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
	{ .target_residency_ns = 500 * US, .exit_latency_ns = 100 * US },
};

static void workload_name(char *buf, size_t size, int w)
{
	/* The last workload is the untagged one. */
	if (w == NR_WORKLOADS - 1)
		buf[0] = '\0';
	else
		snprintf(buf, size, "workload%d", w);
}

/*
 * Every period lasts 1000 us in state 2 (its ideal state: a hit), except
 * every fourth, in state 1 (too shallow); the predicting governors guess
 * 1000 us (within 2x) on even periods and 5000 us on odd ones: 50% within 2x.
 */
static struct agg *make_runs(void)
{
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	char name[IDLESCOPE_WORKLOAD_LEN];
	unsigned int g;
	int w, i;

	agg_set_states(agg, states, ARRAY_SIZE(states));
	for (w = 0; w < NR_WORKLOADS; w++) {
		workload_name(name, sizeof(name), w);
		for (g = 0; g < ARRAY_SIZE(governors); g++) {
			for (i = 0; i < PERIODS; i++) {
				if (governors[g] == IDLESCOPE_GOV_TEO ||
				    governors[g] == IDLESCOPE_GOV_LADDER)
					rec = make_record(name, governors[g], 0, 2, 1000 * US);
				else
					rec = make_prediction(name, governors[g], 0,
							      (i % 2 ? 5000 : 1000) * US,
							      1000 * US);
				rec.state = i % 4 ? 2 : 1;
				agg_add(agg, &rec);
			}
		}
	}
	return agg;
}

/* The row of @label in the table under @title contains @want. */
static bool row_has(const char *text, const char *title, const char *label,
		    const char *want)
{
	const char *table = strstr(text, title), *row;
	char pattern[64];

	snprintf(pattern, sizeof(pattern), "\n%s", label);
	row = table ? strstr(table, pattern) : NULL;
	return row && memmem(row, strcspn(row + 1, "\n") + 1, want, strlen(want));
}

/* Code points, so "±" counts as one column. */
static int columns(const char *line, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += ((unsigned char)line[i] & 0xc0) != 0x80;
	return n;
}

/* Lines and the widest line of a text. */
static void measure(const char *text, int *nr_lines, int *widest)
{
	const char *line;
	size_t len;

	*nr_lines = *widest = 0;
	for (line = text; *line; line += len + (line[len] == '\n')) {
		len = strcspn(line, "\n");
		(*nr_lines)++;
		if (columns(line, len) > *widest)
			*widest = columns(line, len);
	}
}

static void test_dashboard(const struct agg *agg)
{
	struct dashboard_status status = { .elapsed_s = 10, .periods_per_s = 1200,
					   .records = 12000 };
	char *text = NULL;
	size_t size = 0;
	int nr_lines, widest;
	FILE *f = open_memstream(&text, &size);

	dashboard_draw(f, agg, &status);
	fclose(f);
	measure(text, &nr_lines, &widest);
	check(nr_lines <= DASHBOARD_ROWS && widest <= DASHBOARD_COLS,
	      "dashboard: fits an 80x24 console", "%d lines, %d columns", nr_lines, widest);
	check(strstr(text, "\nworkload (none), governor menu: 200 periods, 200 predicted\n") != NULL,
	      "dashboard: shows the current workload (the last record's) and its governor",
	      "got:\n%s", text);
	check(row_has(text, "% within", "menu ", " 50.0 ±0.0  50.0 ±0.0  50.0 ±0.0 100.0 ±0.0"),
	      "dashboard: within F of the current workload's governor, aligned", "got:\n%s", text);
	check(strstr(text, "ideal state  hit 75.0 ±0.0") != NULL,
	      "dashboard: ideal-state verdicts with their intervals", "got:\n%s", text);
	free(text);
}

int main(void)
{
	struct agg *agg = make_runs();
	struct run_meta meta;
	char *text = NULL, *end, *line, name[IDLESCOPE_WORKLOAD_LEN + 8];
	size_t size = 0, len;
	int nr_lines = 0, widest = 0, w;
	bool named = true;
	FILE *f;

	run_meta_init(&meta);
	for (w = 0; w < NR_WORKLOADS; w++) {
		workload_name(name, sizeof(name), w);
		run_meta_add_workload(&meta, name);
	}
	f = open_memstream(&text, &size);
	report_fprint_text(f, agg, &meta);
	fclose(f);

	end = strstr(text, "\n== seed method");
	check(end != NULL, "headline: ends where the seed method begins", "no seed method section");
	if (!end)
		return 1;
	*end = '\0';
	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t len = strcspn(line, "\n");

		nr_lines++;
		if (columns(line, len) > widest)
			widest = columns(line, len);
	}
	check(nr_lines <= HEADLINE_MAX_LINES, "headline: make run's workloads x 6 governors fit 60 lines",
	      "%d lines", nr_lines);
	check(widest <= HEADLINE_MAX_COLS, "headline: no line wider than 100 columns",
	      "%d columns", widest);
	for (w = 0; w < NR_WORKLOADS - 1; w++) {
		snprintf(name, sizeof(name), "\nworkload%d ", w);
		named &= strstr(text, name) != NULL;
	}
	check(named && !strstr(text, "\n(none) "),
	      "headline: names every workload, not the untagged periods", "a workload is missing");
	check(row_has(text, "within 2x %", "workload0 ", "50.0 ±0.0"),
	      "headline: within 2x of the predicting governors is 50.0 ±0.0", "not found");
	check(row_has(text, "ideal hit %", "workload3 ", "75.0 ±0.0"),
	      "headline: ideal hit 75.0 ±0.0 (every fourth period too shallow)", "not found");
	line = strstr(end + 1, "  workloads ");
	len = line ? strcspn(line, "\n") : 0;
	check(line && memmem(line, len, ", (none)", 8) && !memmem(line, len, ", ,", 3),
	      "header: the untagged workload lists as (none), not an empty name",
	      "got %.*s", (int)len, line ? line : "");
	test_dashboard(agg);
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	free(text);
	agg_free(agg);
	return check_done();
}
