/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what idlescope prints: log2 histograms (shared by the live
 * dashboard and report.txt), the seed's factor table, the shadow replay's
 * table next to the seed's published numbers, report.txt for people
 * and report.json for machines (layout: docs/report-schema.md).
 *
 * Files are written atomically: "<path>.tmp.<pid>" in the same directory,
 * fsync, rename.  On failure nothing is left behind and -errno is returned.
 */
#ifndef __IDLESCOPE_REPORT_H
#define __IDLESCOPE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include "aggregate.h"

#define REPORT_SCHEMA_VERSION	1

#define REPORT_MAX_GOVERNORS	16
#define REPORT_MAX_WORKLOADS	AGG_MAX_WORKLOADS
#define REPORT_MAX_SKIPPED	32
#define REPORT_NAME_LEN		32
#define REPORT_REASON_LEN	128
#define REPORT_RELEASE_LEN	65	/* struct utsname.release */

struct report_skipped_prog {
	char name[REPORT_NAME_LEN];		/* BPF program name */
	char reason[REPORT_REASON_LEN];		/* e.g. "no menu2010_select" */
};

/*
 * Called by report_write_text() after each workload x governor section, so
 * the shadow replay can print its columns there without report.c knowing
 * about it.  all_cpus is that pair's all-CPUs aggregate.
 */
typedef void (*report_text_hook_t)(FILE *f, const struct agg *agg,
				   int workload, int governor,
				   const struct agg_stats *all_cpus, void *ctx);

/* Everything about the run that is not in the aggregate. */
struct report_meta {
	char kernel_release[REPORT_RELEASE_LEN];	/* uname -r */
	int nr_governors;
	char governors[REPORT_MAX_GOVERNORS][REPORT_NAME_LEN];
	int nr_workloads;
	char workloads[REPORT_MAX_WORKLOADS][IDLESCOPE_WORKLOAD_LEN + 1];
	double duration_s;
	time_t start_time;			/* wall clock, printed as UTC */
	int nr_cpus;				/* entries used below */
	__u64 records_produced[IDLESCOPE_MAX_CPUS];
	__u64 dropped_records[IDLESCOPE_MAX_CPUS];
	__u64 ringbuf_size_bytes;
	__u64 sysfs_usage_delta;		/* sum of stateN/usage growth, all CPUs */
	int nr_skipped;
	struct report_skipped_prog skipped[REPORT_MAX_SKIPPED];
	bool predictions_available;
	/*
	 * Times the shadow replay lost a CPU's history (a gap in the
	 * period sequence: dropped records) and restarted its models: struct
	 * replay's replay_resets.  Printed only when shadows are named.
	 */
	__u64 shadow_replay_resets;

	report_text_hook_t text_hook;		/* optional */
	void *text_hook_ctx;
};

/* Zero *meta, fill kernel_release from uname(2) and start_time from now. */
void report_meta_init(struct report_meta *meta);
/*
 * Append to the lists; -ENOSPC when full, -ENAMETOOLONG when truncated
 * (the truncated copy is kept).
 */
int report_meta_add_governor(struct report_meta *meta, const char *name);
int report_meta_add_workload(struct report_meta *meta, const char *name);
int report_meta_add_skipped(struct report_meta *meta, const char *prog,
			    const char *reason);

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

/* report.txt / report.json; 0 or -errno, atomic as described above. */
int report_write_text(const struct agg *agg, const struct report_meta *meta,
		      const char *path);
int report_write_json(const struct agg *agg, const struct report_meta *meta,
		      const char *path);

/* The same documents to an open stream (stdout for -j); 0 or -EIO. */
int report_fprint_text(FILE *f, const struct agg *agg,
		       const struct report_meta *meta);
int report_fprint_json(FILE *f, const struct agg *agg,
		       const struct report_meta *meta);

#endif /* __IDLESCOPE_REPORT_H */
