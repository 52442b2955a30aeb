/* SPDX-License-Identifier: GPL-2.0 */
/*
 * headline.h - the numbers a kernel developer cites, per workload x host
 * governor, each with its 95% interval: report.txt's first screen, the
 * seed's experiment laid out like its cover letter, report.json's
 * "headline" and "seed_method", and what `idlescope compare` subtracts.
 */
#ifndef __IDLESCOPE_REPORT_HEADLINE_H
#define __IDLESCOPE_REPORT_HEADLINE_H

#include <stdbool.h>
#include <stdio.h>
#include "stats/aggregate.h"
#include "stats/ci.h"
#include "stats/regimes.h"
#include "stats/shares.h"
#include "format/json_writer.h"
#include "runinfo/meta.h"

/* At most this many lines and columns: one screen of a terminal. */
#define HEADLINE_MAX_LINES	60
#define HEADLINE_MAX_COLS	100


/*
 * One workload x host governor, all CPUs: each share is the mean over the
 * boots of the run with its interval over them (stats/boots.h), or with
 * one boot that boot's own batch-means interval.
 */
struct headline_cell {
	__u64 periods;
	__u64 predicted;
	__u64 late_sleeps;	/* sleeps woken > AGG_LATE_SLEEP_NS late */
	int nr_excluded;	/* boots whose run of it is left out */
	struct ci_pct metric[SHARE_NR_METRICS];
	int nr_boots;				/* boots that ran it */
	int boot[AGG_MAX_BOOTS];		/* their agg_boot() indices */
	__u64 boot_periods[AGG_MAX_BOOTS];
	struct ci_pct boot_metric[AGG_MAX_BOOTS][SHARE_NR_METRICS];
	/* Per metric, whether its boots fall into two regimes (stats/regimes.h). */
	struct regimes regimes[SHARE_NR_METRICS];
};

/* Appended to a headline cell shown as its two regimes' means. */
#define HEADLINE_REGIMES_MARK	"~"

/* A cell of the raw periods; false when the workload x governor has none. */
bool headline_cell(const struct agg *agg, int workload, int governor,
		   struct headline_cell *cell);
/* The same over the logical periods when @agg has them. */
bool headline_cell_logical(const struct agg *agg, int workload, int governor,
			   struct headline_cell *cell);
/* headline_cell() or headline_cell_logical(), by @view. */
bool headline_view_cell(const struct agg *agg, int workload, int governor,
			enum share_view view, struct headline_cell *cell);

/*
 * Shadow model @shadow's within-2x on @governor's periods of @workload;
 * false when it scored none there.
 */
bool headline_model_within_2x(const struct agg *agg, int workload, int governor,
			      int shadow, struct ci_pct *r);

/*
 * The seed's experiment on one workload, exactly: on the periods of the
 * host governor menu2010, "before" is the live governor's prediction and
 * "patch 1" / "patch 1+2" are the menu2010fix / menu2010rpd models
 * replayed on those same periods.  The 2010 cover letter's numbers
 * (69854 samples) are the reference columns.
 */
#define SEED_NR_COLUMNS		3
#define SEED_SAMPLES		69854

extern const char *const seed_column_names[SEED_NR_COLUMNS];
/* The models of the seed's columns, NULL for the live menu2010's. */
extern const char *const seed_models[SEED_NR_COLUMNS];
extern const double seed_pct[AGG_NR_FACTORS][SEED_NR_COLUMNS];

struct seed_method {
	__u64 periods;				/* of the menu2010 run */
	__u64 next_timer_wraps;			/* predictions from a next timer >= 2^32 ns */
	__u64 samples[SEED_NR_COLUMNS];		/* predictions scored */
	__u64 excluded[SEED_NR_COLUMNS];	/* periods without inputs */
	struct ci_pct within[SEED_NR_COLUMNS][AGG_NR_FACTORS];
};

/* false when the workload has no menu2010 run (or the models are not named). */
bool headline_seed_method(const struct agg *agg, int workload,
			  struct seed_method *sm);


/*
 * "model <name> reproduces the kernel's prediction on P% (A of C) of
 * periods" into buf; false (buf untouched) when @shadow was never checked
 * in @st.
 */
bool headline_format_agreement(char *buf, size_t size, const struct agg *agg,
			       const struct agg_stats *st, int shadow);
/*
 * "model <name> reproduces the kernel's chosen state on P% (A of C) of
 * selects", for a model that chooses states; false when never checked.
 */
bool headline_format_state_agreement(char *buf, size_t size, const struct agg *agg,
				     const struct agg_stats *st, int shadow);

/*
 * report.txt's first screen in at most @max_lines lines (workloads past
 * them are named in the detail), then one cover-letter table per workload.
 */
/*
 * The first screen, in at most @max_lines lines.  @meta: the run (the
 * workloads' event sources); a cell whose periods include a sleep that
 * woke more than AGG_LATE_SLEEP_NS late, or that left a boot's run out, is
 * marked HEADLINE_EXCLUDED_MARK.
 */
void headline_print(FILE *f, const struct agg *agg, const struct run_meta *meta,
		    int max_lines);
void headline_print_seed_methods(FILE *f, const struct agg *agg);

/*
 * headline_print_continued() - the headline's other tables, after the
 * first screen: deeper and shallower than ideal, raw and logical
 * @f: the stream
 * @agg: the report's aggregate
 * @meta: the run's facts (the workloads' event sources)
 */
void headline_print_continued(FILE *f, const struct agg *agg, const struct run_meta *meta);

/* report.json's "headline" and "seed_method" members. */
void headline_json(struct json *j, const struct agg *agg, const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_HEADLINE_H */
