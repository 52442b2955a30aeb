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

/**
 * print_log2_hist() - print a log2 histogram, libbpf-tools style
 * @f: the stream
 * @vals: @vals[k] is the count of log2 bucket k (agg_log2_bucket()):
 *	bucket 0 is {0, 1}, bucket k >= 1 is [2^k, 2^(k+1) - 1]
 * @nr: the number of buckets in @vals
 * @unit_label: the header's unit ("usecs", "nsecs", ...)
 *
 * A header "     <unit_label>               : count    distribution", then
 * rows "low -> high : count |****|" up to the highest bucket used, bars 40
 * stars wide for the largest count (20, and wider columns, when buckets
 * above 32 are used).  The live dashboard and report.txt share it, so the
 * two look the same.  Prints nothing when every count is 0.
 */
void print_log2_hist(FILE *f, const unsigned int *vals, int nr,
		     const char *unit_label);

/**
 * print_ratio_hist() - print the histogram of actual / predicted ratios
 * @f: the stream
 * @ratio_hist: agg_stats.ratio_hist, AGG_RATIO_SLOTS buckets of log2 of the
 *	ratio
 *
 * The look of print_log2_hist(), rows labelled by powers of 2 and from the
 * lowest bucket used to the highest; the end rows are open-ended (ratios
 * beyond them were clamped into them).  Prints nothing when all are 0.
 */
void print_ratio_hist(FILE *f, const unsigned int *ratio_hist);

/**
 * report_print_factor_table() - print the seed's factor table
 * @f: the stream
 * @st: the sums it is made from
 *
 * One row per agg_factors[] with the count and the % of the predicted
 * samples (one decimal) whose actual idle stayed within that factor of
 * the prediction: the table the seed's numbers are quoted against.
 * "(no predictions recorded)" when @st has none (teo, ladder).
 */
void report_print_factor_table(FILE *f, const struct agg_stats *st);

/**
 * report_print_shadow_table() - print the shadow replay's table
 * @f: the stream
 * @agg: the aggregate, for its shadow models' names
 * @st: the sums of one workload x governor (all CPUs)
 *
 * Per agg_factors[] row, the % of each shadow model's predictions within
 * F, the live governor's, and the seed's published before / patch 1 /
 * patches 1+2 columns, with "samples" and "excluded" rows; then the
 * shadow state choices (report_shadow_states_table()) if any; then one
 * agreement line per shadow that was checked against the kernel.  report.txt has it in every workload x
 * governor section.  Prints nothing when no shadow names were set.
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

/**
 * report_workload_view() - gather one workload across the governors
 * @agg: the aggregate
 * @workload: the workload's index in @agg
 * @view: filled (zeroed first): the governors with records for
 *	@workload, in id order, and the sum over all of them
 *
 * Return: the number of governors in @view, 0 when @workload has no
 * records (@view->all is then empty too).
 */
int report_workload_view(const struct agg *agg, int workload,
			 struct report_workload_view *view);

/**
 * report_live_table() - the view's live table, cells formatted once
 * @view: from report_workload_view()
 * @t: the table to fill (table_init()ed here)
 *
 * A column per governor; rows 1.5x .. 100x (% of its predictions within
 * F, "-" for governors that make none, as teo and ladder), then
 * "predicted" and "periods" counts, then the ideal-state shares (hit,
 * deeper, shallower, shallow time) and the kernel's cpu_idle_miss
 * verdicts ("kernel above %", "kernel below %"), each a % of periods
 * with its interval.  Every document prints the same cells: one decimal
 * for percentages, "-" where a column has nothing to divide by.
 */
void report_live_table(const struct report_workload_view *view,
		       struct table *t);

/**
 * report_states_table() - the view's time per idle state
 * @agg: the aggregate, for its state table
 * @view: from report_workload_view()
 * @t: the table to fill (table_init()ed here)
 *
 * A column per governor; a row per state, "<index> (<target> us)" (the
 * target residency says what "deeper" costs), with the % of the
 * governor's idle time spent in it.  States used beyond the table get a
 * row too (report_nr_states_shown()).
 */
void report_states_table(const struct agg *agg,
			 const struct report_workload_view *view,
			 struct table *t);

/**
 * report_shadow_table() - the shadow models' prediction table
 * @agg: the aggregate, for its shadow models' names
 * @st: the sums to show, e.g. a view's @all
 * @live_column: add a "live" column (@st's own predictions)
 * @t: the table to fill (table_init()ed here)
 *
 * A column per shadow model, then "live" if @live_column, then the seed's
 * published columns; rows 1.5x .. 100x (% within F, with intervals),
 * "samples", and "excluded" (periods a model left unscored).
 */
void report_shadow_table(const struct agg *agg, const struct agg_stats *st,
			 bool live_column, struct table *t);

/**
 * report_shadow_states_table() - the shadow models' chosen-state table
 * @agg: the aggregate, for its shadow models' names
 * @st: the sums to show
 * @t: the table to fill
 *
 * A column per shadow model that chose a state on @st's periods, then
 * "live" (the state entered); rows "hit %", "deep %", "shallow %" (the
 * state against the period's ideal one) and "periods" (those scored).
 *
 * Return: the number of model columns; 0 for none, and @t is untouched
 * (not initialised: the caller prints no table).
 */
int report_shadow_states_table(const struct agg *agg, const struct agg_stats *st,
			       struct table *t);

/*
 * Prints a document made from an aggregate and its meta to @f; 0 or
 * -errno (output_stream_status()).
 */
typedef int (*report_doc_fprint_fn)(FILE *f, const struct agg *agg,
				    const struct run_meta *meta);

/**
 * report_write_doc() - write one document atomically
 * @path: the file
 * @fprint: prints the document (report_fprint_text(), ...)
 * @agg: what it is made from
 * @meta: the run's description
 *
 * Through output_write_file(): a temporary file renamed over @path, so a
 * reader sees the old document or the whole new one, never half of it.
 *
 * Return: 0, or -errno (nothing is left behind).
 */
int report_write_doc(const char *path, report_doc_fprint_fn fprint,
		     const struct agg *agg, const struct run_meta *meta);

/**
 * report_nr_states_shown() - how many state rows a table needs
 * @agg: the aggregate, for its state table
 * @st: the sums whose states are shown
 *
 * A record may name a state index beyond the header's table (a state
 * the table did not list): it gets a row rather than being dropped.
 *
 * Return: the state table's size, or one past the highest state index
 * entered or chosen in @st if that is larger.
 */
int report_nr_states_shown(const struct agg *agg, const struct agg_stats *st);

/**
 * report_capability_name() - the name the report gives a capability
 * @bit: the bit number of an IDLESCOPE_CAP_* flag
 *
 * Return: the name ("observation", "select probes", ...), or NULL past
 * the last capability: callers loop until NULL.
 */
const char *report_capability_name(unsigned int bit);

/**
 * report_write_text() - write report.txt, the report for people
 * @agg: what it is made from
 * @meta: the run's description
 * @path: the file, written atomically (report_write_doc())
 *
 * Return: 0, or -errno (nothing is left behind).
 */
int report_write_text(const struct agg *agg, const struct run_meta *meta,
		      const char *path);

/**
 * report_write_json() - write report.json, the report for machines
 * @agg: what it is made from
 * @meta: the run's description
 * @path: the file, written atomically (report_write_doc())
 *
 * Its layout is docs/report-schema.md (REPORT_SCHEMA_VERSION).
 *
 * Return: 0, or -errno (nothing is left behind).
 */
int report_write_json(const struct agg *agg, const struct run_meta *meta,
		      const char *path);

/**
 * report_fprint_text() - print report.txt to an open stream
 * @f: the stream (stdout for `idlescope report`)
 * @agg: what it is made from
 * @meta: the run's description
 *
 * Whether the numbers can be trusted (the fidelity lines) comes first,
 * then the headline, then the sections per workload and per workload x
 * governor.
 *
 * Return: 0, or -errno of the stream's first write error (-EIO if errno
 * did not say).
 */
int report_fprint_text(FILE *f, const struct agg *agg,
		       const struct run_meta *meta);

/**
 * report_fprint_json() - print report.json to an open stream
 * @f: the stream (stdout for -j)
 * @agg: what it is made from
 * @meta: the run's description
 *
 * Return: 0, or -errno of the stream's first write error (-EIO if errno
 * did not say).
 */
int report_fprint_json(FILE *f, const struct agg *agg,
		       const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_REPORT_H */
