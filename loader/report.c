// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - turn a struct agg into what people and machines read.
 *
 * report.txt starts with one section per workload across the governors
 * that ran it, the A/B comparison a reader wants first: each governor's
 * factor table, too-deep / too-shallow share and idle time per state side
 * by side, then the shadow replay summed over all governors' runs next to
 * the seed's published numbers.  The tables are built once as cells
 * (table.h), so summary.md prints the very same numbers as Markdown.
 *
 * Then it walks every workload x governor that has records: sample
 * counts, the seed's factor table, the shadow replay's table (next to the
 * seed's published numbers), state choices, too-deep / too-shallow counts,
 * then the all-CPUs and per-CPU histograms.  report.json carries the
 * same numbers unrounded, in a fixed key order (docs/report-schema.md).
 *
 * A report is either complete or absent: it is written to a temporary file
 * next to its final path and renamed over it only after fsync succeeded, so
 * a crash, a full disk or a VM killed by its timeout never leaves a
 * truncated report that looks valid.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "lateness.h"
#include "report.h"
#include "table.h"

#define HIST_STARS		40	/* bar width, halved for wide tables */
#define HIST_NARROW_MAX_IDX	32	/* beyond this bucket, wider columns */

/*
 * The seed's published result, the reference every shadow replay is read
 * against: Arjan van de Ven, "[PATCH 0/2] Some improvements to the cpuidle
 * menu governor" (LKML, 2010-05-09, shared/seeds/001-cover), one run of
 * 69854 samples, % of predictions within F of the actual idle duration for
 * the 2.6.34 menu governor before the series, after patch 1 and after
 * patches 1+2.  Rows follow agg_factors[] (1.5x, 2x, 4x, 10x, 100x).
 */
#define SEED_SAMPLES		69854
#define SEED_NR_COLUMNS		3

static const char *const seed_columns[SEED_NR_COLUMNS] = {
	"2010 before", "2010 p1", "2010 p1+2",
};

static const double seed_pct[AGG_NR_FACTORS][SEED_NR_COLUMNS] = {
	{ 29.1, 30.4, 34.1 },	/* 1.5x */
	{ 33.6, 49.3, 52.9 },	/* 2x */
	{ 43.6, 73.6, 75.2 },	/* 4x */
	{ 56.9, 86.1, 86.5 },	/* 10x */
	{ 78.4, 97.0, 97.2 },	/* 100x */
};

/* ---- histograms ------------------------------------------------------ */

static void print_stars(FILE *f, unsigned int val, unsigned int val_max,
			int width)
{
	int nr_stars, i;

	nr_stars = val_max ? (int)((__u64)val * width / val_max) : 0;
	for (i = 0; i < width; i++)
		fputc(i < nr_stars ? '*' : ' ', f);
}

static unsigned int max_count(const unsigned int *vals, int nr)
{
	unsigned int val_max = 0;
	int i;

	for (i = 0; i < nr; i++)
		if (vals[i] > val_max)
			val_max = vals[i];
	return val_max;
}

void print_log2_hist(FILE *f, const unsigned int *vals, int nr,
		     const char *unit_label)
{
	int idx_max = agg_highest_bucket(vals, nr);
	unsigned int val_max = max_count(vals, nr);
	bool wide = idx_max > HIST_NARROW_MAX_IDX;
	int width = wide ? 20 : 10;
	int stars = wide ? HIST_STARS / 2 : HIST_STARS;
	int i;

	if (idx_max < 0)
		return;

	fprintf(f, "%*s%-*s : count    distribution\n", wide ? 15 : 5, "",
		wide ? 29 : 19, unit_label);
	for (i = 0; i <= idx_max; i++) {
		/* bucket 0 is {0, 1}; bucket k is [2^k, 2^(k+1) - 1] */
		unsigned long long low = i ? 1ULL << i : 0;
		unsigned long long high = i == 63 ? ~0ULL : (1ULL << (i + 1)) - 1;

		fprintf(f, "%*llu -> %-*llu : %-8u |", width, low, width, high,
			vals[i]);
		print_stars(f, vals[i], val_max, stars);
		fputs("|\n", f);
	}
}

static void ratio_label(char *buf, size_t size, int log2)
{
	snprintf(buf, size, "2^%d", log2);
}

void print_ratio_hist(FILE *f, const unsigned int *ratio_hist)
{
	int lo, hi = agg_highest_bucket(ratio_hist, AGG_RATIO_SLOTS);
	unsigned int val_max = max_count(ratio_hist, AGG_RATIO_SLOTS);
	char low[16], high[16];
	int i;

	if (hi < 0)
		return;
	for (lo = 0; !ratio_hist[lo]; lo++)
		;

	/* Row k is [2^k, 2^(k+1)); the end rows are open-ended (clamped). */
	fprintf(f, "%*s%-*s : count    distribution\n", 5, "", 19,
		"predicted/actual");
	for (i = lo; i <= hi; i++) {
		int k = i + AGG_RATIO_LOG2_MIN;

		if (k == AGG_RATIO_LOG2_MIN)
			snprintf(low, sizeof(low), "0");
		else
			ratio_label(low, sizeof(low), k);
		if (k == AGG_RATIO_LOG2_MAX)
			snprintf(high, sizeof(high), "inf");
		else
			ratio_label(high, sizeof(high), k + 1);
		fprintf(f, "%10s -> %-10s : %-8u |", low, high, ratio_hist[i]);
		print_stars(f, ratio_hist[i], val_max, HIST_STARS);
		fputs("|\n", f);
	}
}

/* ---- text report ----------------------------------------------------- */

static double percent(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double ns_to_us(__u64 ns)
{
	return (double)ns / 1000.0;
}

static const char *workload_label(const char *name)
{
	return name[0] ? name : "(none)";
}

void report_print_factor_table(FILE *f, const struct agg_stats *st)
{
	int i;

	if (!st->predicted_samples) {
		fprintf(f, "    (no predictions recorded)\n");
		return;
	}
	fprintf(f, "    %-8s %12s %8s\n", "within", "samples", "%");
	for (i = 0; i < AGG_NR_FACTORS; i++)
		fprintf(f, "    %-8s %12llu %7.1f%%\n", agg_factors[i].label,
			(unsigned long long)st->within_factor[i],
			percent(st->within_factor[i], st->predicted_samples));
}

/*
 * Text tables: row labels at least 8 wide, the other columns wide enough
 * for their header and for "100.0" or a count.
 */
#define TEXT_INDENT		"    "
#define TEXT_LABEL_WIDTH	8
#define TEXT_MIN_WIDTH		7

static void print_table(FILE *f, const struct table *t)
{
	table_print_text(f, t, TEXT_INDENT, TEXT_LABEL_WIDTH, TEXT_MIN_WIDTH);
}

/* One cell of a percentage row: "-" when the column has no predictions. */
static void set_pct_cell(struct table *t, int row, int col, __u64 part,
			 __u64 whole)
{
	if (whole)
		table_set(t, row, col, "%.1f", percent(part, whole));
	else
		table_set(t, row, col, "-");
}

static void set_count_cell(struct table *t, int row, int col, __u64 count)
{
	table_set(t, row, col, "%llu", (unsigned long long)count);
}

/* Every table's columns must fit: checked here, where they are chosen. */
_Static_assert(1 + AGG_MAX_SHADOWS + 1 + SEED_NR_COLUMNS <= TABLE_MAX_COLS,
	       "shadow table columns");
_Static_assert(1 + IDLESCOPE_NR_GOVERNORS <= TABLE_MAX_COLS,
	       "live table columns");
_Static_assert(1 + AGG_NR_FACTORS + 4 <= TABLE_MAX_ROWS, "live table rows");
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
		table_set(t, 0, seed_col + c, "%s", seed_columns[c]);

	for (i = 0; i < AGG_NR_FACTORS; i++) {
		row = table_add_row(t, agg_factors[i].label);
		for (s = 0; s < nr; s++)
			set_pct_cell(t, row, 1 + s, st->shadow[s].within_factor[i],
				     st->shadow[s].samples);
		if (live_column)
			set_pct_cell(t, row, 1 + nr, st->within_factor[i],
				     st->predicted_samples);
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
}

bool report_format_agreement(char *buf, size_t size, const struct agg *agg,
			     const struct agg_stats *st, int shadow)
{
	const struct agg_shadow *sh;

	if (shadow < 0 || shadow >= agg_nr_shadows(agg))
		return false;
	sh = &st->shadow[shadow];
	if (!sh->agree_checked)
		return false;
	snprintf(buf, size, "model %s reproduces the kernel's prediction on %.1f%% (%llu of %llu) of periods",
		 agg_shadow_name(agg, shadow),
		 percent(sh->agree_samples, sh->agree_checked),
		 (unsigned long long)sh->agree_samples,
		 (unsigned long long)sh->agree_checked);
	return true;
}

/* The test of the models: the running governor's must reproduce it. */
static void print_agreements(FILE *f, const struct agg *agg,
			     const struct agg_stats *st)
{
	char line[256];
	int s;

	for (s = 0; s < agg_nr_shadows(agg); s++)
		if (report_format_agreement(line, sizeof(line), agg, st, s))
			fprintf(f, "%s%s\n", TEXT_INDENT, line);
}

void report_print_shadow_table(FILE *f, const struct agg *agg,
			       const struct agg_stats *st)
{
	struct table t;

	if (!agg_nr_shadows(agg))
		return;
	report_shadow_table(agg, st, true, &t);
	print_table(f, &t);
	print_agreements(f, agg, st);
}

/* The whole state table, plus any index used beyond it. */
static int nr_states_shown(const struct agg *agg, const struct agg_stats *st)
{
	int nr = agg_nr_states(agg), i;

	for (i = 0; i < IDLESCOPE_MAX_STATES; i++)
		if (st->state_entered[i] || st->state_chosen[i])
			nr = nr > i + 1 ? nr : i + 1;
	return nr;
}

static void print_states(FILE *f, const struct agg *agg,
			 const struct agg_stats *st)
{
	int nr = nr_states_shown(agg, st), i;

	fprintf(f, "    %-5s %12s %7s %12s %12s %12s\n", "state", "entered",
		"%", "chosen", "target_us", "exit_us");
	for (i = 0; i < nr; i++) {
		const struct agg_state_info *info = agg_state(agg, i);

		fprintf(f, "    %-5d %12llu %6.1f%% %12llu", i,
			(unsigned long long)st->state_entered[i],
			percent(st->state_entered[i], st->samples),
			(unsigned long long)st->state_chosen[i]);
		if (info)
			fprintf(f, " %12.3f %12.3f%s\n",
				ns_to_us(info->target_residency_ns),
				ns_to_us(info->exit_latency_ns),
				info->disabled ? " (disabled)" : "");
		else
			fprintf(f, " %12s %12s\n", "-", "-");
	}
	if (st->invalid_state_samples)
		fprintf(f, "    %llu samples with a state index out of range\n",
			(unsigned long long)st->invalid_state_samples);
}

static void print_misses(FILE *f, const struct agg *agg,
			 const struct agg_stats *st)
{
	fprintf(f, "    %-12s %12s %7s %12s %7s\n", "", "kernel", "%",
		"cross-check", "%");
	fprintf(f, "    %-12s %12llu %6.1f%% ", "too deep",
		(unsigned long long)st->miss_above_samples,
		percent(st->miss_above_samples, st->samples));
	if (agg_nr_states(agg))
		fprintf(f, "%12llu %6.1f%%\n",
			(unsigned long long)st->too_deep_samples,
			percent(st->too_deep_samples, st->crosscheck_samples));
	else
		fprintf(f, "%12s\n", "-");
	fprintf(f, "    %-12s %12llu %6.1f%% ", "too shallow",
		(unsigned long long)st->miss_below_samples,
		percent(st->miss_below_samples, st->samples));
	if (agg_nr_states(agg))
		fprintf(f, "%12llu %6.1f%%\n",
			(unsigned long long)st->too_shallow_samples,
			percent(st->too_shallow_samples, st->crosscheck_samples));
	else
		fprintf(f, "%12s\n", "-");
	if (agg_nr_states(agg))
		fprintf(f, "    (kernel %% of %llu samples, cross-check %% of %llu checked against the state table)\n",
			(unsigned long long)st->samples,
			(unsigned long long)st->crosscheck_samples);
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
			  agg_governor_name(view->governors[g]));
}

void report_live_table(const struct report_workload_view *view,
		       struct table *t)
{
	const struct agg_stats *st;
	int i, g, row;

	init_governor_table(t, view, "within");

	for (i = 0; i < AGG_NR_FACTORS; i++) {
		row = table_add_row(t, agg_factors[i].label);
		for (g = 0; g < view->nr_governors; g++) {
			st = &view->per_governor[g];
			set_pct_cell(t, row, 1 + g, st->within_factor[i],
				     st->predicted_samples);
		}
	}
	row = table_add_row(t, "predicted");
	for (g = 0; g < view->nr_governors; g++)
		set_count_cell(t, row, 1 + g,
			       view->per_governor[g].predicted_samples);
	row = table_add_row(t, "periods");
	for (g = 0; g < view->nr_governors; g++)
		set_count_cell(t, row, 1 + g, view->per_governor[g].samples);
	row = table_add_row(t, "too deep %");
	for (g = 0; g < view->nr_governors; g++) {
		st = &view->per_governor[g];
		set_pct_cell(t, row, 1 + g, st->miss_above_samples, st->samples);
	}
	row = table_add_row(t, "too shallow %");
	for (g = 0; g < view->nr_governors; g++) {
		st = &view->per_governor[g];
		set_pct_cell(t, row, 1 + g, st->miss_below_samples, st->samples);
	}
}

static __u64 time_in_states_ns(const struct agg_stats *st)
{
	__u64 sum = 0;
	int i;

	for (i = 0; i < IDLESCOPE_MAX_STATES; i++)
		sum += st->state_residency_ns[i];
	return sum;
}

void report_states_table(const struct agg *agg,
			 const struct report_workload_view *view,
			 struct table *t)
{
	int nr = nr_states_shown(agg, &view->all), i, g, row;
	const struct agg_state_info *info;
	char label[TABLE_CELL_LEN];

	init_governor_table(t, view, "state");

	for (i = 0; i < nr; i++) {
		/* The target residency says what "deeper" costs. */
		info = agg_state(agg, i);
		if (info)
			snprintf(label, sizeof(label), "%d (%g us)", i,
				 ns_to_us(info->target_residency_ns));
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

static void print_workload_view(FILE *f, const struct agg *agg, int workload)
{
	struct report_workload_view view;
	struct table t;

	if (!report_workload_view(agg, workload, &view))
		return;
	fprintf(f, "\n== workload %s, across governors ==\n",
		workload_label(agg_workload_name(agg, workload)));
	fprintf(f, "  live runs, all CPUs (%% of each governor's predictions within F of actual,\n"
		"  \"-\" if it makes none; too deep / too shallow: the kernel's cpu_idle_miss, %% of periods):\n");
	report_live_table(&view, &t);
	print_table(f, &t);

	fprintf(f, "\n  share of idle time per state (%%), all CPUs:\n");
	report_states_table(agg, &view, &t);
	print_table(f, &t);

	if (!agg_nr_shadows(agg))
		return;
	fprintf(f, "\n  shadow replay, all governors' runs (%% of each model's predictions within F\n"
		"  of actual; 2010 = the seed's published run, for reference):\n");
	report_shadow_table(agg, &view.all, false, &t);
	print_table(f, &t);
	print_agreements(f, agg, &view.all);
}

static void print_pair_summary(FILE *f, const struct agg_stats *st)
{
	fprintf(f, "  samples %llu, predicted %llu (%.1f%%)\n",
		(unsigned long long)st->samples,
		(unsigned long long)st->predicted_samples,
		percent(st->predicted_samples, st->samples));
	fprintf(f, "  residency mean %.3f us, min %.3f us, max %.3f us\n",
		st->samples ? ns_to_us(st->residency_sum_ns) / st->samples : 0.0,
		ns_to_us(st->residency_min_ns), ns_to_us(st->residency_max_ns));
	if (st->predicted_samples)
		fprintf(f, "  prediction mean %.3f us\n",
			ns_to_us(st->predicted_sum_ns) / st->predicted_samples);
}

static void print_histograms(FILE *f, const struct agg_stats *st,
			     const char *scope)
{
	fprintf(f, "\n  residency, %s:\n", scope);
	print_log2_hist(f, st->residency_us_hist, AGG_LOG2_SLOTS, "usecs");
	if (!st->predicted_samples)
		return;
	fprintf(f, "\n  prediction, %s:\n", scope);
	print_log2_hist(f, st->predicted_us_hist, AGG_LOG2_SLOTS, "usecs");
	fprintf(f, "\n  prediction/actual ratio, %s:\n", scope);
	print_ratio_hist(f, st->ratio_hist);
}

static void print_pair(FILE *f, const struct agg *agg,
		       const struct report_meta *meta, int workload,
		       int governor, const struct agg_stats *all)
{
	const struct agg_stats *st;
	char scope[32];
	int cpu;

	fprintf(f, "\n== workload %s, governor %s ==\n",
		workload_label(agg_workload_name(agg, workload)),
		agg_governor_name(governor));
	print_pair_summary(f, all);

	fprintf(f, "\n  prediction within factor F of actual (%% of %llu predicted samples):\n",
		(unsigned long long)all->predicted_samples);
	report_print_factor_table(f, all);

	if (agg_nr_shadows(agg)) {
		fprintf(f, "\n  shadow replay, all CPUs (%% of each column's predictions within F of actual;\n"
			"  live = the running governor's; 2010 = the seed's published run, for reference):\n");
		report_print_shadow_table(f, agg, all);
	}

	fprintf(f, "\n  states:\n");
	print_states(f, agg, all);
	fprintf(f, "\n  wrong state choices:\n");
	print_misses(f, agg, all);

	print_histograms(f, all, "all CPUs");
	for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++) {
		st = agg_get(agg, workload, governor, cpu);
		if (!st)
			continue;
		snprintf(scope, sizeof(scope), "CPU %d (%llu samples)", cpu,
			 (unsigned long long)st->samples);
		fprintf(f, "\n  residency, %s:\n", scope);
		print_log2_hist(f, st->residency_us_hist, AGG_LOG2_SLOTS,
				"usecs");
	}

	if (meta->text_hook)
		meta->text_hook(f, agg, workload, governor, all,
				meta->text_hook_ctx);
}

/*
 * A name from a record file on one line of a terminal: control bytes
 * (escape sequences) and non-ASCII become '?'.
 */
static void print_one_line(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ? '?' : *s, f);
}

/* 0 is a start time nobody recorded: a record file without its trailer. */
static void format_utc(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!t || !gmtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "unknown");
}

/* IDLESCOPE_CAP_* bit by bit, as the report names them. */
static const char *const capability_names[] = {
	"observation", "menu2010 governors", "select probes", "cpu_idle_miss",
	"timer lateness",
};

static __u64 total_dropped(const struct report_meta *meta)
{
	__u64 dropped = 0;
	int i;

	for (i = 0; i < meta->nr_cpus && i < IDLESCOPE_MAX_CPUS; i++)
		dropped += meta->dropped_records[i];
	return dropped;
}

/* Lost on the way (ring buffer full, a cut-short record) or not counted. */
static __u64 records_missing(const struct agg *agg, const struct report_meta *meta)
{
	return total_dropped(meta) + meta->records_cut_short + agg_rejected_records(agg);
}

static void print_lateness(FILE *f, const struct idlescope_lateness *l)
{
	if (!l->count) {
		fprintf(f, "not measured\n");
		return;
	}
	fprintf(f, "median %.1f us, p99 %.1f us, max %.1f us (%llu wake-ups)\n",
		lateness_percentile_ns(l, 50) / 1e3, lateness_percentile_ns(l, 99) / 1e3,
		l->max_ns / 1e3, (unsigned long long)l->count);
}

/*
 * What decides whether the numbers below can be trusted: the kernel and
 * its tick, the guest's clock and how late its timers fired, what was
 * lost, what the kernel let idlescope see.  First, so nobody misses it.
 */
static void print_fidelity(FILE *f, const struct agg *agg, const struct report_meta *meta)
{
	unsigned int i, n = 0;

	if (records_missing(agg, meta))
		fprintf(f, "WARNING: %llu idle periods dropped (ring buffer full), %llu cut short, "
			"%llu rejected: the numbers below miss them\n\n",
			(unsigned long long)total_dropped(meta),
			(unsigned long long)meta->records_cut_short,
			(unsigned long long)agg_rejected_records(agg));
	fprintf(f, "  %-14s ", "kernel");
	print_one_line(f, meta->kernel_release);
	if (meta->hz)
		fprintf(f, " (HZ %u, cpuidle driver ", meta->hz);
	else
		fprintf(f, " (HZ unknown, cpuidle driver ");
	print_one_line(f, meta->cpuidle_driver[0] ? meta->cpuidle_driver : "none");
	fprintf(f, ")\n  %-14s ", "clock");
	print_one_line(f, meta->clock_mode[0] ? meta->clock_mode : "unknown");
	if (meta->clock_args[0]) {
		fprintf(f, " (");
		print_one_line(f, meta->clock_args);
		fputc(')', f);
	}
	fprintf(f, "\n  %-14s ", "timer lateness");
	print_lateness(f, &meta->lateness);
	fprintf(f, "  %-14s", "capabilities");
	for (i = 0; i < sizeof(capability_names) / sizeof(capability_names[0]); i++)
		if (meta->capabilities & (1U << i))
			fprintf(f, "%s%s", n++ ? ", " : " ", capability_names[i]);
	fprintf(f, "%s\n", n ? "" : " none");
}

static void print_header(FILE *f, const struct agg *agg,
			 const struct report_meta *meta)
{
	__u64 produced = 0, dropped = 0;
	char start[32];
	int i;

	format_utc(start, sizeof(start), meta->start_time);
	fprintf(f, "idlescope report (schema %d)\n\n", REPORT_SCHEMA_VERSION);
	print_fidelity(f, agg, meta);
	fprintf(f, "  %-14s %s\n", "start (UTC)", start);
	fprintf(f, "  %-14s %.3f s\n", "duration", meta->duration_s);
	fprintf(f, "  %-14s", "governors");
	for (i = 0; i < meta->nr_governors; i++)
		fprintf(f, "%s%s", i ? ", " : " ", meta->governors[i]);
	fprintf(f, "\n  %-14s", "workloads");
	for (i = 0; i < meta->nr_workloads; i++) {
		fprintf(f, "%s", i ? ", " : " ");
		print_one_line(f, meta->workloads[i]);
	}
	fprintf(f, "\n  %-14s %s\n", "predictions",
		meta->predictions_available ? "available" : "not available");
	fprintf(f, "  %-14s %llu bytes\n", "ring buffer",
		(unsigned long long)meta->ringbuf_size_bytes);

	fprintf(f, "\n  %-5s %14s %14s\n", "cpu", "records", "dropped");
	for (i = 0; i < meta->nr_cpus && i < IDLESCOPE_MAX_CPUS; i++) {
		produced += meta->records_produced[i];
		dropped += meta->dropped_records[i];
		fprintf(f, "  %-5d %14llu %14llu\n", i,
			(unsigned long long)meta->records_produced[i],
			(unsigned long long)meta->dropped_records[i]);
	}
	fprintf(f, "  %-5s %14llu %14llu\n", "all",
		(unsigned long long)produced, (unsigned long long)dropped);
	fprintf(f, "  %-14s %llu (sysfs cpuidle usage over the same window)\n",
		"idle entries", (unsigned long long)meta->sysfs_usage_delta);
	if (agg_nr_shadows(agg)) {
		fprintf(f, "  %-14s", "shadow models");
		for (i = 0; i < agg_nr_shadows(agg); i++)
			fprintf(f, "%s%s", i ? ", " : " ",
				agg_shadow_name(agg, i));
		fprintf(f, " (%llu history resets on gaps in a CPU's periods)\n",
			(unsigned long long)meta->shadow_replay_resets);
	}
	if (agg_rejected_records(agg))
		fprintf(f, "  %llu records rejected by the aggregator (bad cpu/governor or too many workloads)\n",
			(unsigned long long)agg_rejected_records(agg));

	if (meta->nr_skipped) {
		fprintf(f, "\n  skipped BPF programs:\n");
		for (i = 0; i < meta->nr_skipped; i++) {
			fprintf(f, "    %-28s ", meta->skipped[i].name);
			print_one_line(f, meta->skipped[i].reason);
			fputc('\n', f);
		}
	}
}

static int stream_status(FILE *f)
{
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

int report_fprint_text(FILE *f, const struct agg *agg,
		       const struct report_meta *meta)
{
	struct agg_stats all;
	int w, g;

	errno = 0;
	print_header(f, agg, meta);
	for (w = 0; w < agg_nr_workloads(agg); w++)
		print_workload_view(f, agg, w);
	for (w = 0; w < agg_nr_workloads(agg); w++)
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			if (agg_sum(agg, w, g, AGG_ANY, &all))
				print_pair(f, agg, meta, w, g, &all);
	return stream_status(f);
}

/* ---- JSON ------------------------------------------------------------ */

/*
 * A minimal streaming writer: it tracks, per nesting level, whether a comma
 * is due and whether the level is written on one line.  Keys come in the
 * order the code emits them, which is the documented order.
 */
#define JSON_MAX_DEPTH	16

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool one_line[JSON_MAX_DEPTH];
};

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		const char *short_escape = NULL;

		switch (*p) {
		case '"':
			short_escape = "\\\"";
			break;
		case '\\':
			short_escape = "\\\\";
			break;
		case '\n':
			short_escape = "\\n";
			break;
		case '\r':
			short_escape = "\\r";
			break;
		case '\t':
			short_escape = "\\t";
			break;
		}
		/*
		 * Other control bytes and non-ASCII (names are raw bytes, not
		 * known to be UTF-8) as \u00XX: always valid JSON.
		 */
		if (short_escape)
			fputs(short_escape, f);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Separator, indentation and "key": before a value at the current level. */
static void json_prefix(struct json *j, const char *key)
{
	int d = j->depth;

	if (j->need_comma[d])
		fputc(',', j->f);
	if (j->one_line[d]) {
		if (j->need_comma[d])
			fputc(' ', j->f);
	} else if (d > 0 || j->need_comma[d]) {
		fprintf(j->f, "\n%*s", 2 * d, "");
	}
	j->need_comma[d] = true;
	if (key) {
		json_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char bracket,
		      bool one_line)
{
	if (j->depth > 0 || j->need_comma[0])
		json_prefix(j, key);
	fputc(bracket, j->f);
	j->depth++;
	j->need_comma[j->depth] = false;
	j->one_line[j->depth] = one_line || j->one_line[j->depth - 1];
}

static void json_close(struct json *j, char bracket)
{
	bool had_items = j->need_comma[j->depth];
	bool one_line = j->one_line[j->depth];

	j->depth--;
	if (had_items && !one_line)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(bracket, j->f);
}

static void json_object(struct json *j, const char *key, bool one_line)
{
	json_open(j, key, '{', one_line);
}

static void json_object_end(struct json *j)
{
	json_close(j, '}');
}

static void json_array(struct json *j, const char *key, bool one_line)
{
	json_open(j, key, '[', one_line);
}

static void json_array_end(struct json *j)
{
	json_close(j, ']');
}

static void json_u64(struct json *j, const char *key, __u64 val)
{
	json_prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

static void json_int(struct json *j, const char *key, int val)
{
	json_prefix(j, key);
	fprintf(j->f, "%d", val);
}

/* NaN and infinities are no JSON numbers: null (the reader refuses them). */
static void json_double(struct json *j, const char *key, const char *fmt,
			double val)
{
	json_prefix(j, key);
	if (isfinite(val))
		fprintf(j->f, fmt, val);
	else
		fputs("null", j->f);
}

static void json_bool(struct json *j, const char *key, bool val)
{
	json_prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

static void json_str(struct json *j, const char *key, const char *val)
{
	json_prefix(j, key);
	json_string(j->f, val);
}

static void json_log2_hist(struct json *j, const char *key,
			   const unsigned int *vals)
{
	int idx_max = agg_highest_bucket(vals, AGG_LOG2_SLOTS);
	int i;

	/* Buckets 0..highest non-empty, zeros in between included. */
	json_array(j, key, false);
	for (i = 0; i <= idx_max; i++) {
		json_object(j, NULL, true);
		json_u64(j, "low_us", i ? 1ULL << i : 0);
		json_u64(j, "high_us", i == 63 ? ~0ULL : (1ULL << (i + 1)) - 1);
		json_u64(j, "count", vals[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_ratio_hist(struct json *j, const unsigned int *vals)
{
	int i;

	/* All AGG_RATIO_SLOTS buckets, always: a fixed-shape array. */
	json_array(j, "ratio_log2_hist", false);
	for (i = 0; i < AGG_RATIO_SLOTS; i++) {
		json_object(j, NULL, true);
		json_int(j, "log2_low", i + AGG_RATIO_LOG2_MIN);
		json_u64(j, "count", vals[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_u64_array(struct json *j, const char *key, const __u64 *vals,
			   int nr)
{
	int i;

	json_array(j, key, true);
	for (i = 0; i < nr; i++)
		json_u64(j, NULL, vals[i]);
	json_array_end(j);
}

static void json_within_factor(struct json *j, const __u64 *counts)
{
	int i;

	json_array(j, "within_factor", false);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		json_object(j, NULL, true);
		json_str(j, "label", agg_factors[i].label);
		json_u64(j, "count", counts[i]);
		json_object_end(j);
	}
	json_array_end(j);
}

/* One entry per named shadow model, zeros included: a fixed shape. */
static void json_shadows(struct json *j, const struct agg *agg,
			 const struct agg_stats *st)
{
	int s;

	json_array(j, "shadow", false);
	for (s = 0; s < agg_nr_shadows(agg); s++) {
		const struct agg_shadow *sh = &st->shadow[s];

		json_object(j, NULL, false);
		json_str(j, "model", agg_shadow_name(agg, s));
		json_u64(j, "samples", sh->samples);
		json_within_factor(j, sh->within_factor);
		json_ratio_hist(j, sh->ratio_hist);
		json_u64(j, "agree_checked", sh->agree_checked);
		json_u64(j, "agree_samples", sh->agree_samples);
		json_object_end(j);
	}
	json_array_end(j);
}

/* The members of one stats object, in the documented order. */
static void json_stats_members(struct json *j, const struct agg *agg,
			       const struct agg_stats *st)
{
	json_u64(j, "samples", st->samples);
	json_u64(j, "residency_sum_ns", st->residency_sum_ns);
	json_u64(j, "residency_min_ns", st->residency_min_ns);
	json_u64(j, "residency_max_ns", st->residency_max_ns);
	json_u64(j, "predicted_samples", st->predicted_samples);
	json_u64(j, "predicted_sum_ns", st->predicted_sum_ns);
	json_within_factor(j, st->within_factor);

	json_u64_array(j, "state_entered_samples", st->state_entered,
		       IDLESCOPE_MAX_STATES);
	json_u64_array(j, "state_chosen_samples", st->state_chosen,
		       IDLESCOPE_MAX_STATES);
	json_u64_array(j, "state_residency_ns", st->state_residency_ns,
		       IDLESCOPE_MAX_STATES);
	json_u64(j, "invalid_state_samples", st->invalid_state_samples);
	json_u64(j, "miss_above_samples", st->miss_above_samples);
	json_u64(j, "miss_below_samples", st->miss_below_samples);
	json_u64(j, "crosscheck_samples", st->crosscheck_samples);
	json_u64(j, "too_deep_samples", st->too_deep_samples);
	json_u64(j, "too_shallow_samples", st->too_shallow_samples);

	json_log2_hist(j, "residency_us_hist", st->residency_us_hist);
	json_log2_hist(j, "predicted_us_hist", st->predicted_us_hist);
	json_ratio_hist(j, st->ratio_hist);
	json_shadows(j, agg, st);
}

/* The text header's fidelity lines (print_fidelity()), as numbers. */
static void json_fidelity(struct json *j, const struct report_meta *meta)
{
	const struct idlescope_lateness *l = &meta->lateness;
	unsigned int i;

	json_int(j, "hz", meta->hz);
	json_str(j, "cpuidle_driver", meta->cpuidle_driver);
	json_str(j, "clock_mode", meta->clock_mode);
	json_str(j, "clock_args", meta->clock_args);
	json_object(j, "timer_lateness", true);
	json_u64(j, "wakeups", l->count);
	json_u64(j, "median_ns", lateness_percentile_ns(l, 50));
	json_u64(j, "p99_ns", lateness_percentile_ns(l, 99));
	json_u64(j, "max_ns", l->max_ns);
	json_object_end(j);
	json_array(j, "capabilities", true);
	for (i = 0; i < sizeof(capability_names) / sizeof(capability_names[0]); i++)
		if (meta->capabilities & (1U << i))
			json_str(j, NULL, capability_names[i]);
	json_array_end(j);
	json_u64(j, "records_cut_short", meta->records_cut_short);
}

static void json_meta(struct json *j, const struct agg *agg,
		      const struct report_meta *meta)
{
	__u64 produced = 0, dropped = 0;
	char start[32];
	int i;

	for (i = 0; i < meta->nr_cpus && i < IDLESCOPE_MAX_CPUS; i++) {
		produced += meta->records_produced[i];
		dropped += meta->dropped_records[i];
	}
	format_utc(start, sizeof(start), meta->start_time);

	json_int(j, "schema_version", REPORT_SCHEMA_VERSION);
	json_str(j, "tool", "idlescope");
	json_str(j, "kernel_release", meta->kernel_release);
	json_fidelity(j, meta);
	json_str(j, "start_time_utc", start);
	json_double(j, "duration_s", "%.3f", meta->duration_s);

	json_array(j, "governors", true);
	for (i = 0; i < meta->nr_governors; i++)
		json_str(j, NULL, meta->governors[i]);
	json_array_end(j);
	json_array(j, "workloads", true);
	for (i = 0; i < meta->nr_workloads; i++)
		json_str(j, NULL, meta->workloads[i]);
	json_array_end(j);

	json_bool(j, "predictions_available", meta->predictions_available);
	json_u64(j, "ringbuf_size_bytes", meta->ringbuf_size_bytes);
	json_u64(j, "records_produced", produced);
	json_u64(j, "dropped_records", dropped);
	json_u64(j, "sysfs_usage_delta", meta->sysfs_usage_delta);
	json_u64(j, "aggregator_rejected_records", agg_rejected_records(agg));

	json_array(j, "per_cpu_records", false);
	for (i = 0; i < meta->nr_cpus && i < IDLESCOPE_MAX_CPUS; i++) {
		json_object(j, NULL, true);
		json_int(j, "cpu", i);
		json_u64(j, "records_produced", meta->records_produced[i]);
		json_u64(j, "dropped_records", meta->dropped_records[i]);
		json_object_end(j);
	}
	json_array_end(j);

	json_array(j, "skipped_programs", false);
	for (i = 0; i < meta->nr_skipped; i++) {
		json_object(j, NULL, true);
		json_str(j, "name", meta->skipped[i].name);
		json_str(j, "reason", meta->skipped[i].reason);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_definitions(struct json *j, const struct agg *agg,
			     const struct report_meta *meta)
{
	int i;

	json_array(j, "factors", false);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		json_object(j, NULL, true);
		json_str(j, "label", agg_factors[i].label);
		json_double(j, "factor", "%g",
			    (double)agg_factors[i].num / agg_factors[i].den);
		json_u64(j, "num", agg_factors[i].num);
		json_u64(j, "den", agg_factors[i].den);
		json_object_end(j);
	}
	json_array_end(j);

	json_array(j, "seed_reference", false);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		json_object(j, NULL, true);
		json_str(j, "label", agg_factors[i].label);
		json_double(j, "before_pct", "%.1f", seed_pct[i][0]);
		json_double(j, "patch1_pct", "%.1f", seed_pct[i][1]);
		json_double(j, "patch12_pct", "%.1f", seed_pct[i][2]);
		json_object_end(j);
	}
	json_array_end(j);

	json_array(j, "shadow_models", true);
	for (i = 0; i < agg_nr_shadows(agg); i++)
		json_str(j, NULL, agg_shadow_name(agg, i));
	json_array_end(j);
	json_u64(j, "shadow_replay_resets", meta->shadow_replay_resets);

	json_array(j, "state_table", false);
	for (i = 0; i < agg_nr_states(agg); i++) {
		const struct agg_state_info *info = agg_state(agg, i);

		json_object(j, NULL, true);
		json_int(j, "state", i);
		json_u64(j, "target_residency_ns", info->target_residency_ns);
		json_u64(j, "exit_latency_ns", info->exit_latency_ns);
		json_bool(j, "disabled", info->disabled);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_results(struct json *j, const struct agg *agg)
{
	const struct agg_stats *st;
	struct agg_stats all;
	int w, g, cpu;

	json_array(j, "results", false);
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!agg_sum(agg, w, g, AGG_ANY, &all))
				continue;
			json_object(j, NULL, false);
			json_str(j, "workload", agg_workload_name(agg, w));
			json_str(j, "governor", agg_governor_name(g));
			json_int(j, "governor_id", g);
			json_object(j, "all_cpus", false);
			json_stats_members(j, agg, &all);
			json_object_end(j);
			json_array(j, "per_cpu", false);
			for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++) {
				st = agg_get(agg, w, g, cpu);
				if (!st)
					continue;
				json_object(j, NULL, false);
				json_int(j, "cpu", cpu);
				json_stats_members(j, agg, st);
				json_object_end(j);
			}
			json_array_end(j);
			json_object_end(j);
		}
	}
	json_array_end(j);
}

/*
 * Per workload, what report.txt's "across governors" section is made of:
 * the governors that ran it (their numbers are in "results") and the sum
 * over all of them, whose shadow entries score each model on every run.
 */
static void json_across_governors(struct json *j, const struct agg *agg)
{
	struct report_workload_view view;
	int w, g;

	json_array(j, "across_governors", false);
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		if (!report_workload_view(agg, w, &view))
			continue;
		json_object(j, NULL, false);
		json_str(j, "workload", agg_workload_name(agg, w));
		json_array(j, "governors", true);
		for (g = 0; g < view.nr_governors; g++)
			json_str(j, NULL, agg_governor_name(view.governors[g]));
		json_array_end(j);
		json_object(j, "all_governors", false);
		json_stats_members(j, agg, &view.all);
		json_object_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

int report_fprint_json(FILE *f, const struct agg *agg,
		       const struct report_meta *meta)
{
	struct json j = { .f = f };

	errno = 0;
	json_object(&j, NULL, false);
	json_meta(&j, agg, meta);
	json_definitions(&j, agg, meta);
	json_results(&j, agg);
	json_across_governors(&j, agg);
	json_object_end(&j);
	fputc('\n', f);
	return stream_status(f);
}

/* ---- atomic files ---------------------------------------------------- */

/* Make the rename durable; best effort (9p and tmpfs may refuse). */
static void fsync_parent_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	fsync(fd);
	close(fd);
}

int report_write_file(const char *path, report_fprint_fn fprint,
		      const void *ctx)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto out_unlink;
	}

	err = fprint(f, ctx);
	if (!err && fflush(f))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err) {
		fsync_parent_dir(path);
		return 0;
	}
out_unlink:
	unlink(tmp);
	return err;
}

struct report_doc {
	report_doc_fprint_fn fprint;
	const struct agg *agg;
	const struct report_meta *meta;
};

static int fprint_doc(FILE *f, const void *ctx)
{
	const struct report_doc *doc = ctx;

	return doc->fprint(f, doc->agg, doc->meta);
}

int report_write_doc(const char *path, report_doc_fprint_fn fprint,
		     const struct agg *agg, const struct report_meta *meta)
{
	struct report_doc doc = { .fprint = fprint, .agg = agg, .meta = meta };

	return report_write_file(path, fprint_doc, &doc);
}

int report_write_text(const struct agg *agg, const struct report_meta *meta,
		      const char *path)
{
	return report_write_doc(path, report_fprint_text, agg, meta);
}

int report_write_json(const struct agg *agg, const struct report_meta *meta,
		      const char *path)
{
	return report_write_doc(path, report_fprint_json, agg, meta);
}

/* ---- meta ------------------------------------------------------------ */

void report_meta_init(struct report_meta *meta)
{
	struct utsname uts;

	memset(meta, 0, sizeof(*meta));
	if (!uname(&uts))
		snprintf(meta->kernel_release, sizeof(meta->kernel_release),
			 "%s", uts.release);
	meta->start_time = time(NULL);
}

/* Copy src into dst[size]; -ENAMETOOLONG if it had to be cut. */
static int copy_name(char *dst, size_t size, const char *src)
{
	return (size_t)snprintf(dst, size, "%s", src) >= size ?
	       -ENAMETOOLONG : 0;
}

int report_meta_add_governor(struct report_meta *meta, const char *name)
{
	if (meta->nr_governors == REPORT_MAX_GOVERNORS)
		return -ENOSPC;
	return copy_name(meta->governors[meta->nr_governors++],
			 REPORT_NAME_LEN, name);
}

int report_meta_add_workload(struct report_meta *meta, const char *name)
{
	if (meta->nr_workloads == REPORT_MAX_WORKLOADS)
		return -ENOSPC;
	return copy_name(meta->workloads[meta->nr_workloads++],
			 IDLESCOPE_WORKLOAD_LEN + 1, name);
}

int report_meta_add_skipped(struct report_meta *meta, const char *prog,
			    const char *reason)
{
	struct report_skipped_prog *skipped;
	int err;

	if (meta->nr_skipped == REPORT_MAX_SKIPPED)
		return -ENOSPC;
	skipped = &meta->skipped[meta->nr_skipped++];
	err = copy_name(skipped->name, sizeof(skipped->name), prog);
	if (copy_name(skipped->reason, sizeof(skipped->reason), reason))
		err = -ENAMETOOLONG;
	return err;
}
