// SPDX-License-Identifier: GPL-2.0
/*
 * logicalview.c - raw and logical idle periods in the report (see
 * logicalview.h).
 */
#include "report/logicalview.h"
#include "format/numbers.h"
#include "report/interval.h"
#include "format/table.h"
#include "governors.h"

/* agg_factors[] index of 2x. */
#define FACTOR_2X	1

static void add_share(struct table *t, int row, int col, const struct ci_acc *ci)
{
	char buf[TABLE_CELL_LEN];
	struct ci_pct r = ci_result(ci);

	report_fmt_share(buf, sizeof(buf), &r);
	table_set(t, row, col, "%s", buf);
}

/* One row: periods and within 2x of both views, menu's adjusted prediction. */
static void add_row(struct table *t, const struct agg *agg, const struct agg *logical,
		    int w, int g)
{
	struct agg_stats raw, merged = {};
	char label[TABLE_CELL_LEN];
	int row, lw;

	if (!agg_sum(agg, w, g, AGG_ANY, &raw))
		return;
	lw = agg_workload_index(logical, agg_workload_name(agg, w));
	if (lw >= 0)
		agg_sum(logical, lw, g, AGG_ANY, &merged);
	snprintf(label, sizeof(label), "%s %s", fmt_workload_label(agg_workload_name(agg, w)),
		 governor_name(g));
	row = table_add_row(t, label);
	table_set(t, row, 1, "%llu", (unsigned long long)raw.samples);
	table_set(t, row, 2, "%llu", (unsigned long long)merged.samples);
	add_share(t, row, 3, &raw.within_ci[FACTOR_2X]);
	add_share(t, row, 4, &merged.within_ci[FACTOR_2X]);
	if (raw.tick_adjusted_samples)
		add_share(t, row, 5, &raw.tick_adjusted_ci[FACTOR_2X]);
	else
		table_set(t, row, 5, "-");
}

void report_print_logical(FILE *f, const struct agg *agg)
{
	const struct agg *logical = agg_logical(agg);
	struct table t;
	int w, g;

	if (!logical)
		return;
	fprintf(f, "\n== logical and raw idle periods ==\n");
	table_init(&t, 6);
	table_add_row(&t, "workload governor");
	table_set(&t, 0, 1, "raw");
	table_set(&t, 0, 2, "logical");
	table_set(&t, 0, 3, "raw 2x %%");
	table_set(&t, 0, 4, "logical 2x %%");
	table_set(&t, 0, 5, "menu tick-adj 2x %%");
	for (w = 0; w < agg_nr_workloads(agg); w++)
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			add_row(&t, agg, logical, w, g);
	table_print_text(f, &t, "  ", 8, 8);
	fprintf(f, "  menu tick-adj: menu's prediction after its stopped-tick adjustment, on the\n"
		"  raw periods (its prediction before it is the raw column).\n");
}

void report_print_definitions(FILE *f)
{
	fprintf(f, "  logical idle period: consecutive idle periods of a CPU of which all but the\n"
		"    last were ended by the tick alone with nothing run in between, as one period\n"
		"    from its first entry to its last wake-up, scored against the prediction at\n"
		"    its first entry; raw: the idle driver's periods, the 2010 table's unit.\n"
		"  deeper / shallower than ideal: the entered state is deeper / shallower than\n"
		"    the ideal state (below).\n"
		"  kernel above / below: the kernel's cpu_idle_miss verdicts: above, the measured\n"
		"    residency fell short of the entered state's target residency (a shallower\n"
		"    state being enabled); below, the residency minus the entered state's exit\n"
		"    latency reached the next deeper enabled state's target residency.\n");
}
