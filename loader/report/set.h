/* SPDX-License-Identifier: GPL-2.0 */
/*
 * set.h - the reports of one run, live or off-line: the text (or
 * JSON) report on stdout, and with -o DIR the set report.txt, report.json,
 * summary.md, linuxpm.txt, report.html and plots/ written into DIR as one
 * (output/dir.h).
 */
#ifndef __IDLESCOPE_REPORT_SET_H
#define __IDLESCOPE_REPORT_SET_H

#include <stdbool.h>
#include "stats/aggregate.h"
#include "report/report.h"

/**
 * reportset_meta_from_agg() - the run's facts the aggregate holds
 * @meta: the run's facts; its workloads and governors are added to
 * @agg: the replayed aggregate
 *
 * The workloads and governors the records name and whether any
 * prediction was recorded: what the report header says, which a report
 * of record files learns only from the records.
 */
void reportset_meta_from_agg(struct run_meta *meta, const struct agg *agg);

/**
 * reportset_write_dir() - write the report set of -o DIR
 * @agg: what the documents are made from
 * @meta: the run's facts
 * @outdir: the directory
 *
 * report.txt, report.json, summary.md, linuxpm.txt, report.html and
 * plots/, as one set (output/dir.h): DIR holds the old set or the new
 * one, never a mix.
 *
 * Return: 0, or -errno after one error line.
 */
int reportset_write_dir(const struct agg *agg, const struct run_meta *meta,
			const char *outdir);

/**
 * reportset_write() - the report on stdout, and the set if asked
 * @agg: what the documents are made from
 * @meta: the run's facts
 * @json: report.json on stdout, else report.txt
 * @outdir: the -o directory for the whole set, or NULL
 *
 * A write error on stdout is the caller's to find (cli_flush_stdout()).
 *
 * Return: 0, or -errno after one error line (the set's).
 */
int reportset_write(const struct agg *agg, const struct run_meta *meta, bool json,
		    const char *outdir);

#endif /* __IDLESCOPE_REPORT_SET_H */
