// SPDX-License-Identifier: GPL-2.0
/*
 * headline_json.c - the headline in report.json: the boots, the runs left
 * out, each record file's run, every cell of both views with its boots
 * and regimes, and the seed's experiment (the text is headline.c's).
 */
#include <math.h>
#include "report/headline.h"
#include "report/environment.h"
#include "report/interval.h"
#include "runinfo/eventsrc.h"
#include "governors.h"

static void json_seed_method(struct json *j, const struct agg *agg, int w)
{
	struct seed_method sm;
	int c, i;

	if (!headline_seed_method(agg, w, &sm))
		return;
	json_object(j, NULL, false);
	json_str(j, "workload", agg_workload_name(agg, w));
	json_str(j, "host_governor", "menu2010");
	json_u64(j, "periods", sm.periods);
	json_u64(j, "next_timer_wrap_samples", sm.next_timer_wraps);
	json_array(j, "columns", false);
	for (c = 0; c < SEED_NR_COLUMNS; c++) {
		json_object(j, NULL, false);
		json_str(j, "column", seed_column_names[c]);
		json_str(j, "model", c ? seed_models[c] : "menu2010 (live)");
		json_u64(j, "samples", sm.samples[c]);
		json_u64(j, "excluded_samples", sm.excluded[c]);
		json_array(j, "within_factor", false);
		for (i = 0; i < AGG_NR_FACTORS; i++) {
			json_object(j, NULL, true);
			json_str(j, "factor", agg_factors[i].label);
			json_number(j, "pct", sm.within[c][i].pct);
			json_number(j, "lo", sm.within[c][i].lo);
			json_number(j, "hi", sm.within[c][i].hi);
			json_number(j, "seed_pct", seed_pct[i][c]);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/*
 * The boots behind a cell's intervals, and with several each one's own
 * shares.  A live aggregate records no boot: it is one, like a report of
 * one boot's files, and both write the same (the off-line report of a
 * live run's file is byte for byte the live one).
 */
/* A cell's metrics whose boots fall into two regimes, each regime's boots and values. */
static void json_cell_regimes(struct json *j, const struct headline_cell *cell)
{
	const struct regime *r;
	int m, i;

	json_array(j, "regimes", false);
	for (m = 0; m < SHARE_NR_METRICS; m++) {
		if (cell->regimes[m].nr != 2)
			continue;
		json_object(j, NULL, true);
		json_str(j, "metric", share_metrics[m].name);
		json_array(j, "regimes", true);
		for (i = 0; i < 2; i++) {
			r = &cell->regimes[m].regime[i];
			json_object(j, NULL, true);
			json_u64(j, "boots", r->nr_boots);
			json_number(j, "mean", r->mean_pct);
			json_number(j, "lo", r->lo_pct);
			json_number(j, "hi", r->hi_pct);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_cell_boots(struct json *j, const struct headline_cell *cell)
{
	int b, m;

	json_u64(j, "boots", cell->nr_boots > 1 ? cell->nr_boots : 1);
	json_str(j, "interval", cell->nr_boots > 1 ? "over boots" : "within one boot");
	json_array(j, "too_few_independent_samples", true);
	for (m = 0; m < SHARE_NR_METRICS; m++) {
		if (!cell->metric[m].too_correlated)
			continue;
		json_str(j, NULL, share_metrics[m].name);
	}
	json_array_end(j);
	json_array(j, "per_boot", false);
	for (b = 0; cell->nr_boots > 1 && b < cell->nr_boots; b++) {
		json_object(j, NULL, true);
		json_u64(j, "boot", cell->boot[b]);
		json_u64(j, "periods", cell->boot_periods[b]);
		for (m = 0; m < SHARE_NR_METRICS; m++)
			report_json_ci(j, share_metrics[m].name, &cell->boot_metric[b][m]);
		json_object_end(j);
	}
	json_array_end(j);
	json_cell_regimes(j, cell);
}

/* The headline's cells of one view, raw (headline_cell()) or logical. */
static void json_headline_cells(struct json *j, const char *name, const struct agg *agg,
				const struct run_meta *meta,
				bool (*cell_of)(const struct agg *, int, int,
						struct headline_cell *))
{
	struct headline_cell cell;
	const char *workload;
	int w, g, m;

	json_array(j, name, false);
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		workload = agg_workload_name(agg, w);
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!cell_of(agg, w, g, &cell))
				continue;
			json_object(j, NULL, false);
			json_str(j, "workload", workload);
			json_str(j, "events",
				 event_source_word(event_source_of(&meta->events, workload)));
			json_bool(j, "host_timed", report_host_timed(meta, workload));
			json_str(j, "governor", governor_name(g));
			json_u64(j, "periods", cell.periods);
			json_u64(j, "predicted", cell.predicted);
			json_u64(j, "late_sleeps", cell.late_sleeps);
			json_u64(j, "excluded_boots", cell.nr_excluded);
			for (m = 0; m < SHARE_NR_METRICS; m++)
				report_json_ci(j, share_metrics[m].name, &cell.metric[m]);
			json_cell_boots(j, &cell);
			json_object_end(j);
		}
	}
	json_array_end(j);
}

/* The runs left out of the headline (agg_run_excluded()), and why. */
static void json_excluded_runs(struct json *j, const struct agg *agg)
{
	const struct agg_exclusion *x;
	int i;

	json_array(j, "excluded_runs", false);
	for (i = 0; i < agg_nr_exclusions(agg); i++) {
		x = agg_exclusion(agg, i);
		json_object(j, NULL, true);
		json_u64(j, "boot", x->boot);
		json_str(j, "boot_id", agg_boot_id(agg, x->boot));
		json_str(j, "governor", governor_name(x->governor));
		json_str(j, "workload", x->workload);
		json_str(j, "reason", x->reason);
		json_object_end(j);
	}
	json_array_end(j);
}

/*
 * Each record file's run: its boot and seed, its governor, where it stood
 * in its boot, the guest's speed at its start and end.
 */
static void json_runs(struct json *j, const struct run_meta *meta)
{
	const struct run_file *r;
	int i;

	json_array(j, "runs", false);
	for (i = 0; i < meta->nr_runs; i++) {
		r = &meta->runs[i];
		json_object(j, NULL, true);
		json_int(j, "boot", r->boot);
		json_int(j, "seed", r->seed);
		json_str(j, "governor", r->governor >= 0 ? governor_name(r->governor) : "none");
		json_u64(j, "position", r->position);
		json_u64(j, "guest_ps_per_instruction_start", r->insn_ps_start);
		json_u64(j, "guest_ps_per_instruction_end", r->insn_ps_end);
		json_object_end(j);
	}
	json_array_end(j);
}

void headline_json(struct json *j, const struct agg *agg, const struct run_meta *meta)
{
	int w;

	json_array(j, "boots", false);
	for (w = 0; agg_nr_boots(agg) > 1 && w < agg_nr_boots(agg); w++) {
		json_object(j, NULL, true);
		json_u64(j, "boot", w);
		json_str(j, "boot_id", agg_boot_id(agg, w));
		json_object_end(j);
	}
	json_array_end(j);
	json_excluded_runs(j, agg);
	json_runs(j, meta);
	json_headline_cells(j, "headline", agg, meta, headline_cell);
	json_headline_cells(j, "headline_logical", agg, meta, headline_cell_logical);
	json_array(j, "seed_method", false);
	for (w = 0; w < agg_nr_workloads(agg); w++)
		json_seed_method(j, agg, w);
	json_array_end(j);
}
