/* SPDX-License-Identifier: GPL-2.0 */
/*
 * environment.h - the report's word on the environment the run had, which
 * the numbers depend on: how fast the guest ran and whether its sleeps
 * woke far too late (the clock line and a WARNING under it), and where
 * each workload's events come from (runinfo/eventsrc.h: a line under the
 * headline, and a mark on the headline's rows of the workloads the host
 * times under a virtual clock).
 */
#ifndef __IDLESCOPE_REPORT_ENVIRONMENT_H
#define __IDLESCOPE_REPORT_ENVIRONMENT_H

#include <stdbool.h>
#include <stdio.h>
#include "runinfo/meta.h"
#include "stats/aggregate.h"

/*
 * Marks a headline cell that left a boot's run out (agg_run_excluded()) or
 * saw a late sleep, and the WARNING lines that say which.
 */
#define HEADLINE_EXCLUDED_MARK	"!"

/* Appended to a host-timed workload's name in the headline. */
#define REPORT_HOST_TIMED_MARK	"^"

/**
 * report_host_timed() - whether a workload's events cannot end an idle period early
 * @meta: the run: its clock mode and the workloads' event sources
 * @workload: the workload's name
 *
 * A workload whose events the host times, in a guest on a virtual clock
 * (CLOCK=virtual or fixed), cannot end an idle period early: its periods
 * do not show what the pattern would do to a governor on real time.  The
 * headline marks such a workload's row.
 *
 * Return: true for such a workload; false under any other clock, or when
 * the workload list does not say.
 */
bool report_host_timed(const struct run_meta *meta, const char *workload);

/**
 * report_workload_row_label() - a workload's row label in the headline
 * @buf: the label
 * @size: @buf's size; the label is cut to fit
 * @meta: the run, for report_host_timed()
 * @workload: the workload's name
 *
 * The workload's name ("(none)" for the untagged one), with
 * REPORT_HOST_TIMED_MARK when report_host_timed().
 *
 * Return: @buf.
 */
const char *report_workload_row_label(char *buf, size_t size, const struct run_meta *meta,
				      const char *workload);

/**
 * report_print_event_sources() - which workloads' events come from where
 * @f: the stream
 * @meta: the run: its workloads and their event sources
 *
 * "events: timer: idle, periodic1ms, ...; ipi: pingpong; ..." over the
 * run's workloads, then a line saying what REPORT_HOST_TIMED_MARK means
 * when a workload is marked.  Nothing without a workload list.
 *
 * Return: the lines printed (0, 1 or 2), for the headline's line budget.
 */
int report_print_event_sources(FILE *f, const struct run_meta *meta);

/**
 * report_print_guest_speed() - the guest's ns per instruction, or "unknown"
 * @f: the output
 * @meta: the run (insn_ps_lo, insn_ps_hi)
 *
 * How much guest time an instruction took (live/insnrate.h): what a busy
 * stretch between idle periods costs in this guest.  Under shift=auto it
 * moves within a run; the range is over the start and end of every file.
 * No newline.
 */
void report_print_guest_speed(FILE *f, const struct run_meta *meta);

/**
 * report_print_late_sleeps() - WARNING lines: runs left out, sleeps far too late
 * @f: the output
 * @agg: the run's periods
 * @max_lines: at most this many lines
 *
 * A line per run left out of the headline and compare's test
 * (agg_run_excluded(): its workload missed its own target, or a sleep woke
 * more than AGG_LATE_SLEEP_NS late, the guest's time having jumped), its
 * boot, governor, workload and why; past @max_lines one line says how many
 * more (report.json's excluded_runs lists them).  Then, for a report
 * without boots to leave out (a live one), a line when sleeps woke too
 * late.  The headline marks their cells.  Prints nothing when there are
 * none.
 *
 * Return: the lines printed.
 */
int report_print_late_sleeps(FILE *f, const struct agg *agg, int max_lines);

/**
 * report_print_exit_spent() - the exits the states spent, against their declared latency
 * @f: the stream
 * @agg: the report's aggregate
 *
 * A line per state that spent one after a wake-up: how many, their
 * median, 99th percentile and maximum; nothing when no exit was timed.
 */
void report_print_exit_spent(FILE *f, const struct agg *agg);

#endif /* __IDLESCOPE_REPORT_ENVIRONMENT_H */
