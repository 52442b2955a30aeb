// SPDX-License-Identifier: GPL-2.0
/*
 * dashboard.c - the live view of the current workload, one screen.
 *
 * Budget (rows): status 1, workload 1, ratio histogram 1 + 9, within-F
 * header 1 + live 1 + one per model that predicts on the workload, ideal
 * and kernel verdicts 2: DASHBOARD_ROWS.  The models get the rows left
 * (MODEL_ROWS), the last saying how many more the report has when they
 * do not fit.  The ratio histogram folds the report's AGG_RATIO_SLOTS (33)
 * log2 buckets into 9 (<= 1/16 .. >= 16), so it never scrolls.
 */
#include <math.h>
#include <string.h>
#include "live/dashboard.h"
#include "report/headline.h"
#include "format/table.h"
#include "governors.h"
#include "format/numbers.h"
#include "report/interval.h"

#define RATIO_ROWS	9	/* log2 -4 .. +4, the ends open */
#define RATIO_LOG2_END	4
#define BAR_WIDTH	40
#define CELL_WIDTH	10

#define MODEL_ROWS	(DASHBOARD_ROWS - (1 + 1 + 1 + RATIO_ROWS + 2 + 2))
_Static_assert(MODEL_ROWS >= 2, "the dashboard has rows for models");

/* The governor with the most periods of @workload, or -1. */
static int main_governor(const struct agg *agg, int workload, struct agg_stats *st)
{
	struct agg_stats cand;
	int g, best = -1;

	for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
		if (!agg_sum(agg, workload, g, AGG_ANY, &cand))
			continue;
		if (best < 0 || cand.samples > st->samples) {
			*st = cand;
			best = g;
		}
	}
	return best;
}

static void draw_ratio_hist(FILE *f, const unsigned int *ratio_hist)
{
	__u64 rows[RATIO_ROWS] = {}, max = 0;
	static const char *const labels[RATIO_ROWS] = {
		"<= 1/16", "1/8", "1/4", "1/2", "1", "2", "4", "8", ">= 16",
	};
	int i, k, row, stars;

	for (i = 0; i < AGG_RATIO_SLOTS; i++) {
		k = i + AGG_RATIO_LOG2_MIN;
		k = k < -RATIO_LOG2_END ? -RATIO_LOG2_END : k > RATIO_LOG2_END ? RATIO_LOG2_END : k;
		rows[k + RATIO_LOG2_END] += ratio_hist[i];
	}
	for (row = 0; row < RATIO_ROWS; row++)
		max = rows[row] > max ? rows[row] : max;
	fprintf(f, "%-8s %9s  predicted/actual, row k: [2^k, 2^(k+1))\n", "ratio", "count");
	for (row = 0; row < RATIO_ROWS; row++) {
		stars = max ? (int)(rows[row] * BAR_WIDTH / max) : 0;
		fprintf(f, "%8s %9llu |%.*s%*s|\n", labels[row], (unsigned long long)rows[row],
			stars, "****************************************", BAR_WIDTH - stars, "");
	}
}

static void draw_within_row(FILE *f, const char *label, __u64 samples,
			    const struct ci_acc *cis)
{
	char cell[32];
	struct ci_pct r;
	int i;

	fprintf(f, "%-12.12s", label);
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		r = ci_result(&cis[i]);
		report_fmt_share(cell, sizeof(cell), &r);
		fputc(' ', f);
		table_print_cell(f, cell, CELL_WIDTH, false);
	}
	fprintf(f, " %9llu\n", (unsigned long long)samples);
}

static void draw_verdicts(FILE *f, const struct agg_stats *st)
{
	char hit[32], deep[32], shallow[32];
	struct ci_pct r;

	r = ci_result(&st->ideal_hit_ci);
	report_fmt_share(hit, sizeof(hit), &r);
	r = ci_result(&st->ideal_too_deep_ci);
	report_fmt_share(deep, sizeof(deep), &r);
	r = ci_result(&st->ideal_too_shallow_ci);
	report_fmt_share(shallow, sizeof(shallow), &r);
	fprintf(f, "ideal state  hit %-11s deeper %-11s shallower %s\n", hit, deep, shallow);
	r = ci_result(&st->miss_above_ci);
	report_fmt_share(deep, sizeof(deep), &r);
	r = ci_result(&st->miss_below_ci);
	report_fmt_share(shallow, sizeof(shallow), &r);
	fprintf(f, "kernel above %-11s below %s (%% of periods, cpu_idle_miss)\n", deep, shallow);
}

void dashboard_draw(FILE *f, const struct agg *agg,
		    const struct dashboard_status *status)
{
	int workload = agg_last_workload(agg), governor, i, s, rows, left;
	struct agg_stats st;

	fprintf(f, "=== idlescope %.0f s: %.0f periods/s, %llu records, %llu dropped ===\n",
		status->elapsed_s, status->periods_per_s,
		(unsigned long long)status->records, (unsigned long long)status->dropped);
	memset(&st, 0, sizeof(st));
	governor = workload < 0 ? -1 : main_governor(agg, workload, &st);
	if (governor < 0) {
		fprintf(f, "no idle periods yet\n");
		return;
	}
	fprintf(f, "workload %.16s, governor %s: %llu periods, %llu predicted\n",
		fmt_workload_label(agg_workload_name(agg, workload)),
		governor_name(governor), (unsigned long long)st.samples,
		(unsigned long long)st.predicted_samples);
	draw_ratio_hist(f, st.ratio_hist);

	fprintf(f, "%-12s", "% within");
	for (i = 0; i < AGG_NR_FACTORS; i++)
		fprintf(f, " %*s", CELL_WIDTH, agg_factors[i].label);
	fprintf(f, " %9s\n", "samples");
	if (st.predicted_samples)
		draw_within_row(f, governor_name(governor), st.predicted_samples,
				st.within_ci);
	for (s = 0, rows = 0, left = 0; s < agg_nr_shadows(agg); s++)
		left += st.shadow[s].samples > 0;
	for (s = 0; s < agg_nr_shadows(agg) && left; s++) {
		char label[AGG_SHADOW_NAME_LEN + 8];

		if (!st.shadow[s].samples)
			continue;
		if (rows == MODEL_ROWS - 1 && left > 1) {
			fprintf(f, "(%d more models: see the report)\n", left);
			break;
		}
		snprintf(label, sizeof(label), "~%s", agg_shadow_name(agg, s));
		draw_within_row(f, label, st.shadow[s].samples, st.shadow[s].within_ci);
		rows++;
		left--;
	}
	draw_verdicts(f, &st);
}
