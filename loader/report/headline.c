// SPDX-License-Identifier: GPL-2.0
/*
 * headline.c - report.txt's first screen and the seed's experiment.
 *
 * The first screen answers "which governor does best on which workload,
 * and how sure is that" in at most HEADLINE_MAX_LINES lines: one small
 * table per number (within 2x, ideal-state hit, too deep, too shallow,
 * periods), a row per workload and a column per governor, every share
 * with its 95% interval (stats/ci.h: batch means, since periods are correlated).
 * Transposed this way ten workloads x six governors fit one screen.
 *
 * The seed's experiment follows in the cover letter's own layout, per
 * workload: only the periods of the menu2010 run, the live governor as
 * "before" and the replayed menu2010fix / menu2010rpd models as "patch 1"
 * and "patch 1+2" on those same periods, the 2010 numbers beside them.
 */
#include <math.h>
#include <string.h>
#include "report/headline.h"
#include "stats/aggregate.h"
#include "stats/boots.h"
#include "format/table.h"
#include "governors.h"
#include "format/numbers.h"
#include "report/interval.h"
#include "report/environment.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* agg_factors[] index of the headline's factor. */
#define HEADLINE_FACTOR		1
_Static_assert(AGG_NR_FACTORS > HEADLINE_FACTOR, "2x is in the factor table");

/*
 * Arjan van de Ven, "[PATCH 0/2] Some improvements to the cpuidle menu
 * governor" (LKML, 2010-05-09, shared/seeds/001-cover): % of 69854
 * predictions within F, the menu governor before the series (2.6.34-rc:
 * vanilla 2.6.34 already has patch 1), after patch 1, after patches 1+2.
 * Rows follow agg_factors[].
 */
const char *const seed_column_names[SEED_NR_COLUMNS] = {
	"before patches", "patch 1", "patch 1+2",
};

const double seed_pct[AGG_NR_FACTORS][SEED_NR_COLUMNS] = {
	{ 29.1, 30.4, 34.1 },	/* 1.5x */
	{ 33.6, 49.3, 52.9 },	/* 2x */
	{ 43.6, 73.6, 75.2 },	/* 4x */
	{ 56.9, 86.1, 86.5 },	/* 10x */
	{ 78.4, 97.0, 97.2 },	/* 100x */
};

/* The governor whose periods the seed method uses, and the two models. */
const char *const seed_models[SEED_NR_COLUMNS] = {
	NULL, "menu2010fix", "menu2010rpd",
};

/* "model <name> reproduces the kernel's <what> on P% (A of C) of <of>". */
static bool format_agreement(char *buf, size_t size, const struct agg *agg, int shadow,
			     __u64 agreed, __u64 checked, const char *what, const char *of)
{
	if (!checked)
		return false;
	snprintf(buf, size, "model %s reproduces the kernel's %s on %.1f%% (%llu of %llu) of %s",
		 agg_shadow_name(agg, shadow), what, fmt_percent(agreed, checked),
		 (unsigned long long)agreed, (unsigned long long)checked, of);
	return true;
}

bool headline_format_agreement(char *buf, size_t size, const struct agg *agg,
			       const struct agg_stats *st, int shadow)
{
	const struct agg_shadow *sh;

	if (shadow < 0 || shadow >= agg_nr_shadows(agg))
		return false;
	sh = &st->shadow[shadow];
	return format_agreement(buf, size, agg, shadow, sh->agree_samples, sh->agree_checked,
				"prediction", "periods");
}

bool headline_format_state_agreement(char *buf, size_t size, const struct agg *agg,
				     const struct agg_stats *st, int shadow)
{
	const struct agg_shadow *sh;

	if (shadow < 0 || shadow >= agg_nr_shadows(agg))
		return false;
	sh = &st->shadow[shadow];
	return format_agreement(buf, size, agg, shadow, sh->state_agree_samples,
				sh->state_agree_checked, "chosen state", "selects");
}

static const struct ci_acc *within_acc(const struct agg_stats *st, int factor)
{
	return &st->within_ci[factor];
}

/* @arg: shadow * AGG_NR_FACTORS + factor. */
static const struct ci_acc *shadow_within_acc(const struct agg_stats *st, int arg)
{
	return &st->shadow[arg / AGG_NR_FACTORS].within_ci[arg % AGG_NR_FACTORS];
}

/* A cell's shares, in all boots and in each, from boots_cell_get() or its logical twin. */
static void cell_from_boots(struct headline_cell *cell, const struct boots_cell *bc)
{
	struct ci_pct per_boot[AGG_MAX_BOOTS], boots_of_metric[AGG_MAX_BOOTS];
	int b, m, n;

	cell->periods = bc->pooled.samples;
	cell->predicted = bc->pooled.predicted_samples;
	for (m = 0; m < SHARE_NR_METRICS; m++) {
		cell->metric[m] = boots_cell_share(bc, share_acc, m, per_boot);
		for (b = 0, n = 0; b < bc->nr_boots; b++) {
			if (!bc->boot[b].samples)
				continue;
			cell->boot_metric[n][m] = per_boot[b];
			boots_of_metric[n++] = per_boot[b];
		}
		regimes_find(boots_of_metric, n, &cell->regimes[m]);
	}
	cell->nr_boots = 0;
	for (b = 0; b < bc->nr_boots; b++) {
		if (!bc->boot[b].samples)
			continue;
		cell->boot[cell->nr_boots] = b;
		cell->boot_periods[cell->nr_boots++] = bc->boot[b].samples;
	}
}

bool headline_cell(const struct agg *agg, int workload, int governor,
		   struct headline_cell *cell)
{
	struct boots_cell bc;
	bool found;

	memset(cell, 0, sizeof(*cell));
	found = boots_cell_get(agg, workload, governor, &bc);
	if (found) {
		cell_from_boots(cell, &bc);
		cell->late_sleeps = bc.pooled.late_sleep_samples;
		cell->nr_excluded = bc.nr_excluded;
	}
	boots_cell_free(&bc);
	return found;
}

/*
 * The same cell over the logical periods (stats/logical.h), as the
 * headline shows it, the raw one's where there are none; the late sleeps
 * are the raw periods' (a logical period keeps only its first one's).
 */
bool headline_cell_logical(const struct agg *agg, int workload, int governor,
			   struct headline_cell *cell)
{
	struct boots_cell bc;

	if (!headline_cell(agg, workload, governor, cell))
		return false;
	if (boots_cell_get_logical(agg, workload, governor, &bc))
		cell_from_boots(cell, &bc);
	boots_cell_free(&bc);
	return true;
}

bool headline_model_within_2x(const struct agg *agg, int workload, int governor,
			      int shadow, struct ci_pct *r)
{
	struct boots_cell bc;
	bool found;

	if (shadow < 0 || shadow >= agg_nr_shadows(agg))
		return false;
	found = boots_cell_get(agg, workload, governor, &bc) &&
		bc.pooled.shadow[shadow].samples;
	if (found)
		*r = boots_cell_share(&bc, shadow_within_acc,
				      shadow * AGG_NR_FACTORS + HEADLINE_FACTOR, NULL);
	boots_cell_free(&bc);
	return found;
}

static int shadow_index(const struct agg *agg, const char *name)
{
	int s;

	for (s = 0; s < agg_nr_shadows(agg); s++)
		if (!strcmp(agg_shadow_name(agg, s), name))
			return s;
	return -1;
}

bool headline_seed_method(const struct agg *agg, int workload,
			  struct seed_method *sm)
{
	struct boots_cell bc;
	bool found;
	int c, i, s;

	memset(sm, 0, sizeof(*sm));
	found = boots_cell_get(agg, workload, IDLESCOPE_GOV_MENU2010, &bc);
	for (c = 1; c < SEED_NR_COLUMNS; c++)
		found = found && shadow_index(agg, seed_models[c]) >= 0;
	if (!found) {
		boots_cell_free(&bc);
		return false;
	}
	sm->periods = bc.pooled.samples;
	sm->next_timer_wraps = bc.pooled.next_timer_wrap_samples;
	sm->samples[0] = bc.pooled.predicted_samples;
	for (i = 0; i < AGG_NR_FACTORS; i++)
		sm->within[0][i] = boots_cell_share(&bc, within_acc, i, NULL);
	for (c = 1; c < SEED_NR_COLUMNS; c++) {
		s = shadow_index(agg, seed_models[c]);
		sm->samples[c] = bc.pooled.shadow[s].samples;
		sm->excluded[c] = bc.pooled.shadow[s].excluded_samples;
		for (i = 0; i < AGG_NR_FACTORS; i++)
			sm->within[c][i] = boots_cell_share(&bc, shadow_within_acc,
							    s * AGG_NR_FACTORS + i, NULL);
	}
	boots_cell_free(&bc);
	return true;
}

/*
 * Governors with records anywhere; with @predicting, those that predicted.
 * Not "none": no governor chose those periods (a governor switch, no
 * cpuidle driver), so they say nothing about one.
 */
static int headline_governors(const struct agg *agg, bool predicting, int *govs)
{
	struct agg_stats st;
	int g, n = 0;

	for (g = IDLESCOPE_GOV_NONE + 1; g < IDLESCOPE_NR_GOVERNORS; g++) {
		if (!agg_sum(agg, AGG_ANY, g, AGG_ANY, &st))
			continue;
		if (predicting && !st.predicted_samples)
			continue;
		govs[n++] = g;
	}
	return n;
}

/*
 * The headline's rows: the workloads run, not the untagged periods (the
 * loader's own start and the gaps between workloads), which the detail
 * still reports as "(none)".
 */
static bool headline_workload_shown(const struct agg *agg, int w)
{
	return agg_workload_name(agg, w)[0] != '\0';
}

static int headline_nr_workloads(const struct agg *agg)
{
	int w, n = 0;

	for (w = 0; w < agg_nr_workloads(agg); w++)
		n += headline_workload_shown(agg, w);
	return n;
}

bool headline_view_cell(const struct agg *agg, int workload, int governor,
			enum share_view view, struct headline_cell *cell)
{
	return view == VIEW_RAW ? headline_cell(agg, workload, governor, cell) :
	       headline_cell_logical(agg, workload, governor, cell);
}

/* One headline cell's text: a share of @view, or (@metric < 0) both views' periods. */
static void headline_cell_text(char *buf, size_t size, const struct agg *agg, int w, int g,
			       int metric, enum share_view view)
{
	struct headline_cell raw, logical;

	if (!headline_view_cell(agg, w, g, metric < 0 ? VIEW_RAW : view, &raw)) {
		snprintf(buf, size, " ");
	} else if (metric < 0) {
		headline_view_cell(agg, w, g, VIEW_LOGICAL, &logical);
		snprintf(buf, size, "%llu/%llu%s", (unsigned long long)raw.periods,
			 (unsigned long long)logical.periods,
			 raw.late_sleeps || raw.nr_excluded ? HEADLINE_EXCLUDED_MARK : "");
	} else if (raw.regimes[metric].nr == 2) {
		snprintf(buf, size, "%.1f|%.1f%s", raw.regimes[metric].regime[0].mean_pct,
			 raw.regimes[metric].regime[1].mean_pct, HEADLINE_REGIMES_MARK);
		if (raw.late_sleeps || raw.nr_excluded)
			strncat(buf, HEADLINE_EXCLUDED_MARK, size - strlen(buf) - 1);
	} else {
		report_fmt_share(buf, size, &raw.metric[metric]);
		if (raw.late_sleeps || raw.nr_excluded)
			strncat(buf, HEADLINE_EXCLUDED_MARK, size - strlen(buf) - 1);
	}
}

/*
 * One metric of one view (or, with @metric < 0, the periods of both), a
 * row per workload.
 */
static void headline_table(FILE *f, const struct agg *agg, const struct run_meta *meta,
			   int metric, enum share_view view, int nr_rows,
			   const int *govs, int nr_govs)
{
	char buf[TABLE_CELL_LEN], label[TABLE_CELL_LEN];
	struct table t;
	int w, g, row, shown = 0;

	table_init(&t, 1 + nr_govs);
	if (metric < 0)
		snprintf(label, sizeof(label), "periods raw/logical");
	else
		snprintf(label, sizeof(label), "%s %s", share_metrics[metric].title,
			 share_view_names[view]);
	table_add_row(&t, label);
	for (g = 0; g < nr_govs; g++)
		table_set(&t, 0, 1 + g, "%s", governor_name(govs[g]));
	for (w = 0; w < agg_nr_workloads(agg) && shown < nr_rows; w++) {
		if (!headline_workload_shown(agg, w))
			continue;
		shown++;
		row = table_add_row(&t, report_workload_row_label(label, sizeof(label), meta,
								  agg_workload_name(agg, w)));
		for (g = 0; g < nr_govs; g++) {
			headline_cell_text(buf, sizeof(buf), agg, w, govs[g], metric, view);
			table_set(&t, row, 1 + g, "%s", buf);
		}
	}
	table_print_text(f, &t, "", 14, 11);
}

/*
 * What the intervals are: over boots (how many), or within one boot; "±?"
 * marks a share whose periods were too correlated for an interval.
 */
static void headline_print_title(FILE *f, const struct agg *agg)
{
	int w, g, lo = AGG_MAX_BOOTS, hi = 0;
	struct headline_cell cell;

	for (w = 0; w < agg_nr_workloads(agg); w++) {
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!headline_workload_shown(agg, w) || !headline_cell(agg, w, g, &cell))
				continue;
			lo = cell.nr_boots < lo ? cell.nr_boots : lo;
			hi = cell.nr_boots > hi ? cell.nr_boots : hi;
		}
	}
	if (hi > 1 && lo == hi)
		fprintf(f, "headline: %% ±95%% interval over %d boots (t; floor: within-boot "
			"batch means), all CPUs\n", hi);
	else if (hi > 1)
		fprintf(f, "headline: %% ±95%% interval over %d-%d boots per cell (t; one boot: "
			"batch means), all CPUs\n", lo, hi);
	else
		fprintf(f, "headline: %% ±95%% interval within one boot (batch means; boot-to-boot "
			"spread not seen), all CPUs\n");
	fprintf(f, "until the wake-up; raw = idle driver's periods, logical = tick-ended runs as "
		"one; ±? = see method\n");
}

/* The tables of the first screen, in order: a metric and a view each. */
static const struct {
	enum share_metric metric;
	enum share_view view;
} first_screen[] = {
	{ SHARE_WITHIN_2X, VIEW_RAW }, { SHARE_WITHIN_2X, VIEW_LOGICAL },
	{ SHARE_IDEAL_HIT, VIEW_RAW }, { SHARE_IDEAL_HIT, VIEW_LOGICAL },
};

/* The tables after it: the rest of the ideal state's verdicts. */
static const struct {
	enum share_metric metric;
	enum share_view view;
} continued[] = {
	{ SHARE_TOO_DEEP, VIEW_RAW }, { SHARE_TOO_DEEP, VIEW_LOGICAL },
	{ SHARE_TOO_SHALLOW, VIEW_RAW }, { SHARE_TOO_SHALLOW, VIEW_LOGICAL },
};

/* Whether a cell of @metric in @view, of a workload shown, falls into regimes. */
static bool table_has_regimes(const struct agg *agg, int metric, enum share_view view)
{
	struct headline_cell cell;
	int w, g;

	for (w = 0; w < agg_nr_workloads(agg); w++) {
		if (!headline_workload_shown(agg, w))
			continue;
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			if (headline_view_cell(agg, w, g, view, &cell) &&
			    cell.regimes[metric].nr == 2)
				return true;
	}
	return false;
}

static bool first_screen_has_regimes(const struct agg *agg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(first_screen); i++)
		if (table_has_regimes(agg, first_screen[i].metric, first_screen[i].view))
			return true;
	return false;
}

void headline_print(FILE *f, const struct agg *agg, const struct run_meta *meta,
		    int max_lines)
{
	/* Two title lines, each table a header and rows, a line of "more". */
	const int nr_tables = ARRAY_SIZE(first_screen) + 1;
	int nr_workloads = headline_nr_workloads(agg), nr_rows = nr_workloads;
	int govs[IDLESCOPE_NR_GOVERNORS], nr_govs;
	unsigned int i;

	bool regimes = first_screen_has_regimes(agg);

	/* The event sources' line and the host-timed mark's below the tables. */
	if (meta->events.nr)
		max_lines -= 2;
	/* The regimes mark's line. */
	if (regimes)
		max_lines -= 1;
	if (2 + nr_tables * (1 + nr_rows) > max_lines)
		nr_rows = (max_lines - 3) / nr_tables - 1;
	if (nr_rows > TABLE_MAX_ROWS - 1)
		nr_rows = TABLE_MAX_ROWS - 1;
	headline_print_title(f, agg);
	for (i = 0; i < ARRAY_SIZE(first_screen); i++) {
		nr_govs = headline_governors(agg, first_screen[i].metric == SHARE_WITHIN_2X, govs);
		headline_table(f, agg, meta, first_screen[i].metric, first_screen[i].view,
			       nr_rows, govs, nr_govs);
	}
	nr_govs = headline_governors(agg, false, govs);
	headline_table(f, agg, meta, -1, VIEW_RAW, nr_rows, govs, nr_govs);
	if (nr_workloads > nr_rows)
		fprintf(f, "(%d more workloads in the detail below)\n", nr_workloads - nr_rows);
	if (regimes)
		fprintf(f, HEADLINE_REGIMES_MARK " boots in two regimes: the low and high one's "
			"means (boots below; compare leaves it untested)\n");
	report_print_event_sources(f, meta);
}

/* One line per cell of @metric in @view whose boots fall into two regimes. */
static void print_regimes_of(FILE *f, const struct agg *agg, int metric, enum share_view view)
{
	const struct regime *lo, *hi;
	struct headline_cell cell;
	int w, g;

	for (w = 0; w < agg_nr_workloads(agg); w++) {
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!headline_view_cell(agg, w, g, view, &cell) ||
			    cell.regimes[metric].nr != 2)
				continue;
			lo = &cell.regimes[metric].regime[0];
			hi = &cell.regimes[metric].regime[1];
			fprintf(f, "%s %s %s %s: %d %s at %.1f (%.1f-%.1f), %d at %.1f "
				"(%.1f-%.1f)\n", fmt_workload_label(agg_workload_name(agg, w)),
				governor_name(g), share_metrics[metric].title, share_view_names[view],
				lo->nr_boots, lo->nr_boots == 1 ? "boot" : "boots", lo->mean_pct,
				lo->lo_pct, lo->hi_pct, hi->nr_boots, hi->mean_pct, hi->lo_pct,
				hi->hi_pct);
		}
	}
}

/*
 * The cells whose boots fall into two regimes (stats/regimes.h): a mean
 * with an interval over them would describe no boot, so each regime's
 * boots and values, under a title only when there are any.
 */
static void print_regimes(FILE *f, const struct agg *agg)
{
	enum share_view view;
	bool any = false;
	int m;

	for (view = 0; view < VIEW_NR && !any; view++)
		for (m = 0; m < SHARE_NR_METRICS && !any; m++)
			any = table_has_regimes(agg, m, view);
	if (!any)
		return;
	fprintf(f, "\n== headline, regimes: cells whose boots fall apart (%s) ==\n",
		HEADLINE_REGIMES_MARK);
	for (view = 0; view < VIEW_NR; view++)
		for (m = 0; m < SHARE_NR_METRICS; m++)
			print_regimes_of(f, agg, m, view);
}

void headline_print_continued(FILE *f, const struct agg *agg, const struct run_meta *meta)
{
	int govs[IDLESCOPE_NR_GOVERNORS], nr_govs = headline_governors(agg, false, govs);
	unsigned int i;

	fprintf(f, "\n== headline, continued: the ideal state's other verdicts ==\n");
	for (i = 0; i < ARRAY_SIZE(continued); i++)
		headline_table(f, agg, meta, continued[i].metric, continued[i].view,
			       TABLE_MAX_ROWS - 1, govs, nr_govs);
	print_regimes(f, agg);
}

static void seed_method_table(const struct seed_method *sm, struct table *t)
{
	char buf[TABLE_CELL_LEN];
	int c, i, row;

	table_init(t, 1 + 2 * SEED_NR_COLUMNS);
	table_add_row(t, "Factor");
	for (c = 0; c < SEED_NR_COLUMNS; c++) {
		table_set(t, 0, 1 + c, "%s", seed_column_names[c]);
		table_set(t, 0, 1 + SEED_NR_COLUMNS + c, "2010 %s",
			  c ? seed_column_names[c] : "before");
	}
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		row = table_add_row(t, agg_factors[i].label);
		for (c = 0; c < SEED_NR_COLUMNS; c++) {
			if (isnan(sm->within[c][i].pct))
				snprintf(buf, sizeof(buf), "-");
			else if (sm->within[c][i].too_correlated)
				snprintf(buf, sizeof(buf), "%.1f%% ±?", sm->within[c][i].pct);
			else if (isnan(sm->within[c][i].half))
				snprintf(buf, sizeof(buf), "%.1f%%", sm->within[c][i].pct);
			else
				snprintf(buf, sizeof(buf), "%.1f%% ±%.1f",
					 sm->within[c][i].pct, sm->within[c][i].half);
			table_set(t, row, 1 + c, "%s", buf);
			table_set(t, row, 1 + SEED_NR_COLUMNS + c, "%.1f%%", seed_pct[i][c]);
		}
	}
	row = table_add_row(t, "samples");
	for (c = 0; c < SEED_NR_COLUMNS; c++) {
		table_set(t, row, 1 + c, "%llu", (unsigned long long)sm->samples[c]);
		table_set(t, row, 1 + SEED_NR_COLUMNS + c, "%d", SEED_SAMPLES);
	}
}

/*
 * The 2010 governors truncate the next timer to 32 bits of ns, as 2.6.34
 * did (expected_us = DIV_ROUND_UP((u32)ns, 1000)): a next timer at or
 * beyond 2^32 ns (4.29 s; in a quiet guest mostly "no timer at all")
 * becomes a pseudo-random expected duration.  How many of their
 * predictions that decided, per governor.
 */
static void print_next_timer_wraps(FILE *f, const struct agg *agg, int w)
{
	static const int govs[] = {
		IDLESCOPE_GOV_MENU2010, IDLESCOPE_GOV_MENU2010FIX, IDLESCOPE_GOV_MENU2010RPD,
	};
	struct agg_stats st;
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(govs) / sizeof(govs[0]); i++) {
		if (!agg_sum(agg, w, govs[i], AGG_ANY, &st) || !st.predicted_samples)
			continue;
		fprintf(f, "%s%s %.1f%% (%llu of %llu)", n++ ? ", " : "next timer >= 2^32 ns, wrapped by the (u32) cast: ",
			governor_name(govs[i]),
			fmt_percent(st.next_timer_wrap_samples, st.predicted_samples),
			(unsigned long long)st.next_timer_wrap_samples,
			(unsigned long long)st.predicted_samples);
	}
	if (n)
		fputc('\n', f);
}

void headline_print_seed_methods(FILE *f, const struct agg *agg)
{
	struct seed_method sm;
	struct agg_stats st;
	char line[256];
	struct table t;
	int w, printed = 0;

	for (w = 0; w < agg_nr_workloads(agg); w++) {
		if (!headline_seed_method(agg, w, &sm))
			continue;
		fprintf(f, "\n== seed method, workload %s: the menu2010 run's %llu periods ==\n",
			fmt_workload_label(agg_workload_name(agg, w)),
			(unsigned long long)sm.periods);
		seed_method_table(&sm, &t);
		table_print_text(f, &t, "", 8, 9);
		fprintf(f, "before = live menu2010 (2.6.34-rc); patch 1, 1+2 = menu2010fix (2.6.34), "
			"menu2010rpd (+ 2.6.35's detector) replayed on the same periods\n");
		if (sm.excluded[1] || sm.excluded[2])
			fprintf(f, "periods without the models' inputs, not scored: %llu, %llu\n",
				(unsigned long long)sm.excluded[1],
				(unsigned long long)sm.excluded[2]);
		agg_sum(agg, w, IDLESCOPE_GOV_MENU2010, AGG_ANY, &st);
		if (headline_format_agreement(line, sizeof(line), agg, &st,
					    shadow_index(agg, "menu2010")))
			fprintf(f, "%s\n", line);
		print_next_timer_wraps(f, agg, w);
		printed++;
	}
	if (!printed)
		fprintf(f, "\n== seed method: needs a menu2010 run and the menu2010fix, menu2010rpd models ==\n");
}
