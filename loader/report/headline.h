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

/**
 * headline_cell() - one headline cell over the raw periods
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @governor: the host governor (enum idlescope_governor)
 * @cell: filled (zeroed first): the shares over the boots that ran it
 *	and their regimes,
 *	the late sleeps and the boots left out (stats/boots.h)
 *
 * Return: false when @workload x @governor has no records (@cell zeroed).
 */
bool headline_cell(const struct agg *agg, int workload, int governor,
		   struct headline_cell *cell);

/**
 * headline_cell_logical() - one headline cell over the logical periods
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @governor: the host governor (enum idlescope_governor)
 * @cell: filled as by headline_cell(), its shares then replaced by the
 *	logical periods' (stats/logical.h) when @agg has them
 *
 * The late sleeps stay the raw periods' count: a logical period keeps
 * only its first raw period's lateness.
 *
 * Return: false when @workload x @governor has no records.
 */
bool headline_cell_logical(const struct agg *agg, int workload, int governor,
			   struct headline_cell *cell);

/**
 * headline_view_cell() - headline_cell() or headline_cell_logical()
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @governor: the host governor (enum idlescope_governor)
 * @view: VIEW_RAW for headline_cell(), else headline_cell_logical()
 * @cell: filled by the one called
 *
 * Return: what the one called returns.
 */
bool headline_view_cell(const struct agg *agg, int workload, int governor,
			enum share_view view, struct headline_cell *cell);

/**
 * headline_model_within_2x() - a shadow model's within-2x, as a headline share
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @governor: the host governor whose periods the model was replayed on
 * @shadow: the shadow model's index in @agg
 * @r: set to the share with its interval over the boots (left alone
 *	when false is returned)
 *
 * Return: false when @shadow is out of range or scored no period of
 * @workload x @governor.
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

/**
 * headline_seed_method() - the seed's experiment on one workload
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @sm: filled (zeroed first): the menu2010 run's periods and, per seed
 *	column, the predictions scored, those left out and the within-F
 *	shares
 *
 * Return: false when @workload has no menu2010 run, or the shadow models
 * menu2010fix and menu2010rpd were not replayed.
 */
bool headline_seed_method(const struct agg *agg, int workload,
			  struct seed_method *sm);


/**
 * headline_format_agreement() - how often a model reproduced the kernel
 * @buf: the line, without a newline
 * @size: @buf's size; the line is cut to fit
 * @agg: the aggregate, for the model's name
 * @st: the sums whose checks are counted
 * @shadow: the shadow model's index in @agg
 *
 * "model <name> reproduces the kernel's prediction on P% (A of C) of
 * periods": the test that the model is the governor it claims to be,
 * printed under every shadow table.
 *
 * Return: false (@buf untouched) when @shadow is out of range or was never
 * checked in @st.
 */
bool headline_format_agreement(char *buf, size_t size, const struct agg *agg,
			       const struct agg_stats *st, int shadow);
/**
 * headline_format_state_agreement() - how often a model chose the kernel's state
 * @buf: the line, without a newline
 * @size: @buf's size; the line is cut to fit
 * @agg: the aggregate, for the model's name
 * @st: the sums whose checks are counted
 * @shadow: the shadow model's index in @agg
 *
 * "model <name> reproduces the kernel's chosen state on P% (A of C) of
 * selects", for a model that chooses states.
 *
 * Return: false (@buf untouched) when @shadow is out of range or its
 * states were never checked in @st.
 */
bool headline_format_state_agreement(char *buf, size_t size, const struct agg *agg,
				     const struct agg_stats *st, int shadow);

/**
 * headline_print() - report.txt's first screen
 * @f: the stream
 * @agg: the report's aggregate
 * @meta: the run's facts (the workloads' event sources)
 * @max_lines: the lines it may take
 *
 * A table per headline share (workload rows, host governor columns),
 * then the periods, then the event sources, in at most @max_lines lines:
 * workloads past them are counted in a "more workloads" line and shown
 * in the detail.  A cell whose periods include a sleep that woke more
 * than AGG_LATE_SLEEP_NS late, or that left a boot's run out, is marked
 * HEADLINE_EXCLUDED_MARK.
 */
void headline_print(FILE *f, const struct agg *agg, const struct run_meta *meta,
		    int max_lines);

/**
 * headline_print_seed_methods() - the seed's experiment, per workload
 * @f: the stream
 * @agg: the report's aggregate
 *
 * For each workload with a menu2010 run, the cover letter's table laid
 * out again (headline_seed_method()) with the menu2010 model's agreement
 * line; one line saying what it needs when no workload has it.
 */
void headline_print_seed_methods(FILE *f, const struct agg *agg);

/**
 * headline_print_continued() - the headline's other tables, after the
 * first screen: deeper and shallower than ideal, raw and logical
 * @f: the stream
 * @agg: the report's aggregate
 * @meta: the run's facts (the workloads' event sources)
 */
void headline_print_continued(FILE *f, const struct agg *agg, const struct run_meta *meta);

/**
 * headline_json() - report.json's headline members
 * @j: the writer, inside report.json's top object
 * @agg: the report's aggregate
 * @meta: the run's facts
 *
 * "boots", the runs left out, "runs", "headline" and "headline_logical"
 * (the cells of headline_cell() and headline_cell_logical()) and
 * "seed_method"; docs/report-schema.md describes them.
 */
void headline_json(struct json *j, const struct agg *agg, const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_HEADLINE_H */
