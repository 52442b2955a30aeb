/* SPDX-License-Identifier: GPL-2.0 */
/*
 * causes.h - the reports' account of why the periods missed and what they
 * cost (stats/why.h): what ended them, every score broken down by it, the
 * teo-style hits and intercepts, the tick decision judged, and the energy
 * and exit latency against the oracle.  report.txt has a block after the
 * headline (energy and latency against the oracle, per workload and
 * governor), a table per workload across governors and a wake-up table
 * per workload x governor; summary.md the across-governors table;
 * report.json the "power_table" and "why" members.
 */
#ifndef __IDLESCOPE_REPORT_CAUSES_H
#define __IDLESCOPE_REPORT_CAUSES_H

#include <stdio.h>
#include "stats/aggregate.h"
#include "format/json_writer.h"
#include "format/table.h"
#include "report/report.h"

/**
 * why_headline_lines() - the lines the energy block takes in the headline
 * @agg: the aggregate
 * @budget: the headline's lines, this block's included
 *
 * The block and the headline's own tables share @budget so that both
 * show as many workloads.
 *
 * Return: the block's lines (0 without a power table).
 */
int why_headline_lines(const struct agg *agg, int budget);

/**
 * why_headline_print() - the energy block of the headline
 * @f: where to
 * @agg: the aggregate
 * @lines: why_headline_lines()'s answer
 *
 * A title, then a row per workload and a column per governor: "+12.3%
 * +4.1us", the governor's idle energy over the oracle's and the exit
 * latency it paid per wake-up beyond the oracle's.
 */
void why_headline_print(FILE *f, const struct agg *agg, int lines);

/**
 * why_print_method() - report.txt's method lines for these numbers
 * @f: where to
 * @agg: the aggregate (its power table's source is named)
 */
void why_print_method(FILE *f, const struct agg *agg);

/**
 * report_why_table() - a workload's causes and costs across governors
 * @agg: the aggregate
 * @view: the workload's view (report_workload_view())
 * @t: the table: a column per governor; rows intercepts, tick stopped for
 *	nothing, needless tick wake-ups (% with intervals), energy over the
 *	oracle (%), exit latency beyond the oracle's (us per wake-up), idle
 *	time shallower than the oracle's state (%)
 */
void report_why_table(const struct agg *agg, const struct report_workload_view *view,
		      struct table *t);

/**
 * report_print_why() - report.txt's account of one workload x governor
 * @f: where to
 * @agg: the aggregate
 * @workload: the workload's index
 * @governor: enum idlescope_governor
 *
 * The wake-up classes with their scores (at most TABLE_MAX_ROWS - 2,
 * the rest as "other"), the hits and intercepts, the tick decisions, the
 * energy.
 */
void report_print_why(FILE *f, const struct agg *agg, int workload, int governor);

/**
 * report_why_json() - report.json's "power_table" and "why" members
 * @j: the writer, inside the top-level object
 * @agg: the aggregate
 */
void report_why_json(struct json *j, const struct agg *agg);

#endif /* __IDLESCOPE_REPORT_CAUSES_H */
