/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what idlescope prints: log2 histograms (shared by the live
 * dashboard and report.txt), the seed's factor table, the shadow replay's
 * table next to the seed's published numbers, each workload's view across
 * governors, report.txt for people and report.json for machines (layout:
 * docs/report-schema.md).
 *
 * Files are written atomically (output/file.h): on failure nothing is left
 * behind and -errno is returned.
 */
#ifndef __IDLESCOPE_REPORT_REPORT_H
#define __IDLESCOPE_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include "stats/aggregate.h"
#include "format/table.h"
#include "runinfo/meta.h"

#define REPORT_SCHEMA_VERSION	3
/*
 * report.txt's fidelity lines before the headline, at most (kernel, clock,
 * late sleeps, losses).
 */
#define REPORT_SUMMARY_LINES	4

/*
 * The libbpf-tools histogram: header "     <unit_label>               : count
 * distribution", rows "low -> high : count |****|", bars 40 wide (20 and
 * wider columns when buckets above 32 are used), nothing when all are 0.
 * vals[k] is the count of log2 bucket k (agg_log2_bucket()).
 */
void print_log2_hist(FILE *f, const unsigned int *vals, int nr,
		     const char *unit_label);

/* The ratio histogram (agg_stats.ratio_hist), same look, power-of-2 labels. */
void print_ratio_hist(FILE *f, const unsigned int *ratio_hist);

/*
 * The seed's table: one row per agg_factors[] with count and % of the
 * predicted samples (one decimal).
 */
void report_print_factor_table(FILE *f, const struct agg_stats *st);

/*
 * The shadow replay's table for one aggregate: per agg_factors[] row, % of
 * each shadow model's predictions within F, the live governor's, and the
 * seed's published before / patch 1 / patches 1+2 columns; a samples row;
 * one agreement line per shadow that was checked.  Prints nothing when no
 * shadow names were set.  report.txt has it in every workload x governor
 * section (all CPUs).
 */
void report_print_shadow_table(FILE *f, const struct agg *agg,
			       const struct agg_stats *st);

/*
 * One workload across the governors that ran it: report.txt's first
 * sections, report.json's "across_governors" and summary.md are all made
 * from it.  Governors come in id order, each with its all-CPUs aggregate;
 * @all is the sum over every governor's runs, whose shadow scores rate
 * each model on all the periods of the workload.
 */
struct report_workload_view {
	int workload;
	int nr_governors;
	int governors[IDLESCOPE_NR_GOVERNORS];	/* enum idlescope_governor */
	struct agg_stats per_governor[IDLESCOPE_NR_GOVERNORS];
	struct agg_stats all;
};

/* Fill *view; returns the number of governors (0: no records for it). */
int report_workload_view(const struct agg *agg, int workload,
			 struct report_workload_view *view);

/*
 * The view's tables, cells formatted once for every document (one decimal
 * for percentages, "-" where a column has nothing to divide by):
 *
 * live: a column per governor; rows 1.5x .. 100x (% of its predictions
 * within F, "-" for governors that make none, as teo and ladder), then
 * "predicted" and "periods" counts, "too deep %" and "too shallow %" (the
 * kernel's cpu_idle_miss verdicts, % of periods).
 *
 * states: a column per governor; a row per state ("<index> (<target> us)")
 * with its % of the governor's idle time spent in it.
 *
 * shadow (for any aggregate, e.g. a view's @all): a column per shadow
 * model, then "live" (the aggregate's own predictions) if @live_column,
 * then the seed's published columns; rows 1.5x .. 100x and "samples".
 */
void report_live_table(const struct report_workload_view *view,
		       struct table *t);
void report_states_table(const struct agg *agg,
			 const struct report_workload_view *view,
			 struct table *t);
void report_shadow_table(const struct agg *agg, const struct agg_stats *st,
			 bool live_column, struct table *t);
/*
 * shadow states: a column per shadow model that chose a state on @st's
 * periods, then "live" (the state entered); rows "hit %", "deep %",
 * "shallow %" (the state against the period's ideal one) and "periods"
 * (those scored).  Returns the number of models, 0 (@t untouched) for none.
 */
int report_shadow_states_table(const struct agg *agg, const struct agg_stats *st,
			       struct table *t);

/*
 * Write a document made from an aggregate and its meta atomically
 * (output/file.h), its contents from fprint(f, agg, meta); 0 or -errno.
 */
typedef int (*report_doc_fprint_fn)(FILE *f, const struct agg *agg,
				    const struct run_meta *meta);

int report_write_doc(const char *path, report_doc_fprint_fn fprint,
		     const struct agg *agg, const struct run_meta *meta);

/* The whole state table, plus any state index used beyond it. */
int report_nr_states_shown(const struct agg *agg, const struct agg_stats *st);
/* The name of IDLESCOPE_CAP_* bit number bit, NULL past the last. */
const char *report_capability_name(unsigned int bit);

/* report.txt / report.json; 0 or -errno, atomic as described above. */
int report_write_text(const struct agg *agg, const struct run_meta *meta,
		      const char *path);
int report_write_json(const struct agg *agg, const struct run_meta *meta,
		      const char *path);

/* The same documents to an open stream (stdout for -j); 0 or -EIO. */
int report_fprint_text(FILE *f, const struct agg *agg,
		       const struct run_meta *meta);
int report_fprint_json(FILE *f, const struct agg *agg,
		       const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_REPORT_H */
