// SPDX-License-Identifier: GPL-2.0
/*
 * linuxpm.c - the linux-pm table (see report/linuxpm.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "report/figures.h"
#include "report/linuxpm.h"
#include "report/report.h"
#include "governors.h"
#include "format/numbers.h"
#include "output/file.h"

#define LABEL_WIDTH	18
#define SCORE_LEN	32

/* One row: a governor's (or a side's) periods of one workload. */
struct linuxpm_row {
	__u64 idles;
	__u64 belows;			/* too shallow */
	__u64 aboves;			/* too deep */
	char score[SCORE_LEN];
};

/* The figures of @meta's run, NULL: none (compare's side without figures). */
static const struct figures *figures_of(const struct run_meta *meta)
{
	return meta ? meta->figures : NULL;
}

/*
 * The kernel's own verdicts where it has them (cpu_idle_miss, what
 * stateN/below and above count); without that tracepoint, the loader's
 * same rule against the state table.
 */
static bool row_of(const struct agg *agg, int workload, int governor, bool kernel_verdicts,
		   struct linuxpm_row *row)
{
	struct agg_stats st;

	memset(row, 0, sizeof(*row));
	if (!agg_sum(agg, workload, governor, AGG_ANY, &st))
		return false;
	row->idles = st.samples;
	row->belows = kernel_verdicts ? st.miss_below_samples : st.too_shallow_samples;
	row->aboves = kernel_verdicts ? st.miss_above_samples : st.too_deep_samples;
	return true;
}

/* The column names, after the block's title (on a line of its own if long). */
static void print_header(FILE *f, const char *title)
{
	if (strlen(title) > LABEL_WIDTH) {
		fprintf(f, "%s\n", title);
		title = "";
	}
	fprintf(f, "%-*s %10s %10s %10s %9s %9s %9s\n", LABEL_WIDTH, title, "idles",
		"idle_miss", "miss ratio", "belows", "aboves", "score");
}

/* A workload's block: its name, and the figure its score is. */
static void print_block_header(FILE *f, const char *workload, const char *figure)
{
	char title[96];

	if (figure)
		snprintf(title, sizeof(title), "%s, score %s", workload, figure);
	else
		snprintf(title, sizeof(title), "%s", workload);
	print_header(f, title);
}

static void print_row(FILE *f, const char *label, const struct linuxpm_row *row)
{
	__u64 miss = row->belows + row->aboves;

	fprintf(f, "%-*s %10llu %10llu %9.2f%% %9llu %9llu %9s\n", LABEL_WIDTH, label,
		(unsigned long long)row->idles, (unsigned long long)miss,
		fmt_percent(miss, row->idles), (unsigned long long)row->belows,
		(unsigned long long)row->aboves, row->score);
}

static void print_legend(FILE *f, bool kernel_verdicts)
{
	fprintf(f, "idles: idle periods (cpu_idle); belows, aboves: too shallow, too deep, %s;\n"
		"idle_miss = belows + aboves; miss ratio = idle_miss / idles;\n"
		"score: the workload's own figure named in its title, mean over runs "
		"(\"-\": none)\n",
		kernel_verdicts ? "the kernel's\n"
				  "cpu_idle_miss verdicts (what stateN/below and stateN/above count)" :
				  "by the\n"
				  "kernel's rule against the state table (no cpu_idle_miss tracepoint)");
}

/* Signed difference of two counts, as a share of the second, in %. */
static double diff_pct(__u64 a, __u64 b)
{
	return b ? 100.0 * ((double)a - (double)b) / (double)b : 0.0;
}

/*
 * The records against the kernel's counters over the run.  The windows
 * differ a little: sysfs is read after the governor switch and at the
 * detach, the records also hold the periods before the switch.
 */
static void print_crosscheck(FILE *f, const struct agg *agg, const struct run_meta *meta)
{
	__u64 dropped = run_meta_dropped(meta);
	struct agg_stats all;

	if (!run_meta_trailer_known(meta) || !meta->sysfs_usage_delta) {
		fprintf(f, "cross-check against sysfs: not available (a record file without "
			"its trailer, or no sysfs counts)\n");
		return;
	}
	agg_sum(agg, AGG_ANY, AGG_ANY, AGG_ANY, &all);
	fprintf(f, "cross-check against sysfs, all runs, every workload and untagged periods:\n"
		"  idles  %10llu + %llu dropped, sysfs usage %10llu (%+.2f%%)\n"
		"  belows %10llu, sysfs below %10llu (%+.2f%%)\n"
		"  aboves %10llu, sysfs above %10llu (%+.2f%%)\n",
		(unsigned long long)all.samples, (unsigned long long)dropped,
		(unsigned long long)meta->sysfs_usage_delta,
		diff_pct(all.samples + dropped, meta->sysfs_usage_delta),
		(unsigned long long)all.miss_below_samples,
		(unsigned long long)meta->sysfs_below_delta,
		diff_pct(all.miss_below_samples, meta->sysfs_below_delta),
		(unsigned long long)all.miss_above_samples,
		(unsigned long long)meta->sysfs_above_delta,
		diff_pct(all.miss_above_samples, meta->sysfs_above_delta));
}

int linuxpm_fprint(FILE *f, const struct agg *agg, const struct run_meta *meta)
{
	bool kernel_verdicts = meta->capabilities & IDLESCOPE_CAP_MISS_TP;
	struct linuxpm_row row;
	bool any = false, shown;
	const char *workload, *figure;
	int w, g;

	errno = 0;
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		workload = agg_workload_name(agg, w);
		figure = figures_first(figures_of(meta), workload);
		if (!workload[0])
			continue;
		for (g = 0, shown = false; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!row_of(agg, w, g, kernel_verdicts, &row))
				continue;
			figures_format_mean(row.score, sizeof(row.score), figures_of(meta),
					    governor_name(g), workload, figure);
			if (!shown) {
				fprintf(f, "%s", any ? "\n" : "");
				print_block_header(f, workload, figure);
				shown = any = true;
			}
			print_row(f, governor_name(g), &row);
		}
	}
	fprintf(f, "%s", any ? "\n" : "no tagged workload\n");
	print_legend(f, kernel_verdicts);
	print_crosscheck(f, agg, meta);
	return output_stream_status(f);
}

/*
 * One workload's before/after rows, A's @ga against B's @gb; the score is
 * the figure of the "before" side (else the "after" one's) on both rows.
 */
static bool print_before_after(FILE *f, const struct linuxpm_side *a, int wa, int ga,
		       const struct linuxpm_side *b, int wb, int gb, bool first)
{
	const char *workload = agg_workload_name(a->agg, wa);
	const char *figure = figures_first(figures_of(a->meta), workload);
	struct linuxpm_row before, after;
	char title[96];
	int n;

	if (!row_of(a->agg, wa, ga, true, &before) || !row_of(b->agg, wb, gb, true, &after))
		return false;
	if (!figure)
		figure = figures_first(figures_of(b->meta), workload);
	figures_format_mean(before.score, sizeof(before.score), figures_of(a->meta),
			    governor_name(ga), workload, figure);
	figures_format_mean(after.score, sizeof(after.score), figures_of(b->meta),
			    governor_name(gb), workload, figure);
	n = snprintf(title, sizeof(title), "%s, %s", workload, governor_name(ga));
	if (ga != gb)
		n += snprintf(title + n, sizeof(title) - n, " -> %s", governor_name(gb));
	if (figure)
		snprintf(title + n, sizeof(title) - n, ", score %s", figure);
	fprintf(f, "%s", first ? "" : "\n");
	print_header(f, title);
	print_row(f, "before", &before);
	print_row(f, "after", &after);
	fprintf(f, "%-*s %10s %10s %+8.2fpp\n", LABEL_WIDTH, "change",
		"", "", fmt_percent(after.belows + after.aboves, after.idles) -
		fmt_percent(before.belows + before.aboves, before.idles));
	return true;
}

int linuxpm_fprint_compare(FILE *f, const struct linuxpm_side *a, const struct linuxpm_side *b,
			   int pair_a, int pair_b)
{
	bool any = false;
	int wa, wb, g;

	errno = 0;
	fprintf(f, "before: %s\nafter:  %s\n\n", a->name, b->name);
	for (wa = 0; wa < agg_nr_workloads(a->agg); wa++) {
		wb = agg_workload_index(b->agg, agg_workload_name(a->agg, wa));
		if (wb < 0 || !agg_workload_name(a->agg, wa)[0])
			continue;
		if (pair_a >= 0) {
			any |= print_before_after(f, a, wa, pair_a, b, wb, pair_b, !any);
			continue;
		}
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			any |= print_before_after(f, a, wa, g, b, wb, g, !any);
	}
	fprintf(f, "%s", any ? "\n" : "no workload and governor on both sides\n");
	print_legend(f, true);
	return output_stream_status(f);
}
