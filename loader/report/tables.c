// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - the tables every document shares, built once as cells
 * (format/table.h) so report.txt and summary.md print the very same numbers: a
 * workload's live governors side by side, its idle time per state, and a
 * shadow replay next to the seed's published numbers.
 */
#include <stddef.h>
#include <string.h>
#include "report/headline.h"
#include "report/report.h"
#include "format/table.h"
#include "governors.h"
#include "format/numbers.h"
#include "report/interval.h"
#include "stats/sat.h"

/* The shadow table's reference columns (numbers: report/headline.h). */
static const char *const seed_short_labels[SEED_NR_COLUMNS] = {
	"2010 before", "2010 p1", "2010 p1+2",
};

/* One cell of a percentage row: "-" when the column has no predictions. */
static void set_pct_cell(struct table *t, int row, int col, __u64 part,
			 __u64 whole)
{
	if (whole)
		table_set(t, row, col, "%.1f", fmt_percent(part, whole));
	else
		table_set(t, row, col, "-");
}

/* A share with its 95% interval: "52.9 ±1.3" (report_fmt_share()). */
static void set_ci_cell(struct table *t, int row, int col,
			const struct ci_acc *acc)
{
	struct ci_pct r = ci_result(acc);
	char buf[TABLE_CELL_LEN];

	report_fmt_share(buf, sizeof(buf), &r);
	table_set(t, row, col, "%s", buf);
}

static void set_count_cell(struct table *t, int row, int col, __u64 count)
{
	table_set(t, row, col, "%llu", (unsigned long long)count);
}

/* Every table's columns must fit: checked here, where they are chosen. */
_Static_assert(1 + AGG_MAX_SHADOWS + 1 + SEED_NR_COLUMNS <= TABLE_MAX_COLS,
	       "shadow table columns");
_Static_assert(1 + AGG_NR_FACTORS + 2 <= TABLE_MAX_ROWS, "shadow table rows");
_Static_assert(1 + AGG_MAX_SHADOWS + 1 <= TABLE_MAX_COLS, "shadow states table columns");
_Static_assert(1 + IDLESCOPE_NR_GOVERNORS <= TABLE_MAX_COLS,
	       "live table columns");
_Static_assert(1 + AGG_NR_FACTORS + 8 <= TABLE_MAX_ROWS, "live table rows");
_Static_assert(1 + IDLESCOPE_MAX_STATES <= TABLE_MAX_ROWS, "state table rows");

void report_shadow_table(const struct agg *agg, const struct agg_stats *st,
			 bool live_column, struct table *t)
{
	int nr = agg_nr_shadows(agg), seed_col = 1 + nr + live_column;
	int i, s, c, row;

	table_init(t, seed_col + SEED_NR_COLUMNS);
	table_add_row(t, "within");
	for (s = 0; s < nr; s++)
		table_set(t, 0, 1 + s, "%s", agg_shadow_name(agg, s));
	if (live_column)
		table_set(t, 0, 1 + nr, "live");
	for (c = 0; c < SEED_NR_COLUMNS; c++)
		table_set(t, 0, seed_col + c, "%s", seed_short_labels[c]);

	for (i = 0; i < AGG_NR_FACTORS; i++) {
		row = table_add_row(t, agg_factors[i].label);
		for (s = 0; s < nr; s++)
			set_ci_cell(t, row, 1 + s, &st->shadow[s].within_ci[i]);
		if (live_column)
			set_ci_cell(t, row, 1 + nr, &st->within_ci[i]);
		for (c = 0; c < SEED_NR_COLUMNS; c++)
			table_set(t, row, seed_col + c, "%.1f", seed_pct[i][c]);
	}

	row = table_add_row(t, "samples");
	for (s = 0; s < nr; s++)
		set_count_cell(t, row, 1 + s, st->shadow[s].samples);
	if (live_column)
		set_count_cell(t, row, 1 + nr, st->predicted_samples);
	for (c = 0; c < SEED_NR_COLUMNS; c++)
		set_count_cell(t, row, seed_col + c, SEED_SAMPLES);

	row = table_add_row(t, "excluded");
	for (s = 0; s < nr; s++)
		set_count_cell(t, row, 1 + s, st->shadow[s].excluded_samples);
	for (c = 1 + nr; c < seed_col + SEED_NR_COLUMNS; c++)
		table_set(t, row, c, "-");
}

/* The rows of report_shadow_states_table(): a model's share, the live one. */
static const struct {
	const char *label;
	size_t shadow_offset;	/* of the struct ci_acc in struct agg_shadow */
	size_t live_offset;	/* ... in struct agg_stats */
} shadow_state_rows[] = {
	{ "hit %", offsetof(struct agg_shadow, ideal_hit_ci),
	  offsetof(struct agg_stats, ideal_hit_ci) },
	{ "deep %", offsetof(struct agg_shadow, ideal_too_deep_ci),
	  offsetof(struct agg_stats, ideal_too_deep_ci) },
	{ "shallow %", offsetof(struct agg_shadow, ideal_too_shallow_ci),
	  offsetof(struct agg_stats, ideal_too_shallow_ci) },
};

#define NR_SHADOW_STATE_ROWS \
	((int)(sizeof(shadow_state_rows) / sizeof(shadow_state_rows[0])))

static const struct ci_acc *acc_at(const void *base, size_t offset)
{
	return (const struct ci_acc *)((const char *)base + offset);
}

int report_shadow_states_table(const struct agg *agg, const struct agg_stats *st,
			       struct table *t)
{
	int models[AGG_MAX_SHADOWS], nr = 0, live, s, r, row;

	for (s = 0; s < agg_nr_shadows(agg); s++)
		if (st->shadow[s].ideal_samples)
			models[nr++] = s;
	if (!nr)
		return 0;
	live = 1 + nr;
	table_init(t, live + 1);
	table_add_row(t, "ideal");
	for (s = 0; s < nr; s++)
		table_set(t, 0, 1 + s, "%s", agg_shadow_name(agg, models[s]));
	table_set(t, 0, live, "live");

	for (r = 0; r < NR_SHADOW_STATE_ROWS; r++) {
		row = table_add_row(t, shadow_state_rows[r].label);
		for (s = 0; s < nr; s++)
			set_ci_cell(t, row, 1 + s, acc_at(&st->shadow[models[s]],
							  shadow_state_rows[r].shadow_offset));
		set_ci_cell(t, row, live, acc_at(st, shadow_state_rows[r].live_offset));
	}
	row = table_add_row(t, "periods");
	for (s = 0; s < nr; s++)
		set_count_cell(t, row, 1 + s, st->shadow[models[s]].ideal_samples);
	set_count_cell(t, row, live, st->ideal_samples);
	return nr;
}

/* The whole state table, plus any index used beyond it. */
int report_nr_states_shown(const struct agg *agg, const struct agg_stats *st)
{
	int nr = agg_nr_states(agg), i;

	for (i = 0; i < IDLESCOPE_MAX_STATES; i++)
		if (st->state_entered[i] || st->state_chosen[i])
			nr = nr > i + 1 ? nr : i + 1;
	return nr;
}

/* ---- one workload across governors ---------------------------------- */

int report_workload_view(const struct agg *agg, int workload,
			 struct report_workload_view *view)
{
	int g, n = 0;

	memset(view, 0, sizeof(*view));
	view->workload = workload;
	for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
		if (!agg_sum(agg, workload, g, AGG_ANY, &view->per_governor[n]))
			continue;
		view->governors[n++] = g;
	}
	view->nr_governors = n;
	agg_sum(agg, workload, AGG_ANY, AGG_ANY, &view->all);
	return n;
}

/* A table with a column per governor of the view, @corner above the labels. */
static void init_governor_table(struct table *t,
				const struct report_workload_view *view,
				const char *corner)
{
	int g;

	table_init(t, 1 + view->nr_governors);
	table_add_row(t, corner);
	for (g = 0; g < view->nr_governors; g++)
		table_set(t, 0, 1 + g, "%s",
			  governor_name(view->governors[g]));
}

/* A row of one share per governor, each with its interval. */
static void add_ci_row(struct table *t, const struct report_workload_view *view,
		       const char *label, size_t acc_offset)
{
	int g, row = table_add_row(t, label);

	for (g = 0; g < view->nr_governors; g++)
		set_ci_cell(t, row, 1 + g, (const struct ci_acc *)
			    ((const char *)&view->per_governor[g] + acc_offset));
}

void report_live_table(const struct report_workload_view *view,
		       struct table *t)
{
	int i, g, row;

	init_governor_table(t, view, "within");

	for (i = 0; i < AGG_NR_FACTORS; i++)
		add_ci_row(t, view, agg_factors[i].label,
			   offsetof(struct agg_stats, within_ci[i]));
	row = table_add_row(t, "predicted");
	for (g = 0; g < view->nr_governors; g++)
		set_count_cell(t, row, 1 + g,
			       view->per_governor[g].predicted_samples);
	row = table_add_row(t, "periods");
	for (g = 0; g < view->nr_governors; g++)
		set_count_cell(t, row, 1 + g, view->per_governor[g].samples);
	add_ci_row(t, view, "ideal hit %", offsetof(struct agg_stats, ideal_hit_ci));
	add_ci_row(t, view, "deeper than ideal %",
		   offsetof(struct agg_stats, ideal_too_deep_ci));
	add_ci_row(t, view, "shallower than ideal %",
		   offsetof(struct agg_stats, ideal_too_shallow_ci));
	add_ci_row(t, view, "shallow time %",
		   offsetof(struct agg_stats, ideal_shallow_time_ci));
	add_ci_row(t, view, "kernel above %", offsetof(struct agg_stats, miss_above_ci));
	add_ci_row(t, view, "kernel below %", offsetof(struct agg_stats, miss_below_ci));
}

static __u64 time_in_states_ns(const struct agg_stats *st)
{
	__u64 sum = 0;
	int i;

	for (i = 0; i < IDLESCOPE_MAX_STATES; i++)
		sum = sat_add(sum, st->state_residency_ns[i]);
	return sum;
}

void report_states_table(const struct agg *agg,
			 const struct report_workload_view *view,
			 struct table *t)
{
	int nr = report_nr_states_shown(agg, &view->all), i, g, row;
	const struct agg_state_info *info;
	char label[TABLE_CELL_LEN];

	init_governor_table(t, view, "state");

	for (i = 0; i < nr; i++) {
		/* The target residency says what "deeper" costs. */
		info = agg_state(agg, i);
		if (info)
			snprintf(label, sizeof(label), "%d (%g us)", i,
				 fmt_ns_to_us(info->target_residency_ns));
		else
			snprintf(label, sizeof(label), "%d", i);
		row = table_add_row(t, label);
		for (g = 0; g < view->nr_governors; g++) {
			const struct agg_stats *st = &view->per_governor[g];

			set_pct_cell(t, row, 1 + g, st->state_residency_ns[i],
				     time_in_states_ns(st));
		}
	}
}

