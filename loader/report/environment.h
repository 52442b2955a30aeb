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

/*
 * Whether @workload's events are the host's while the guest ran on a
 * virtual clock (CLOCK=virtual or fixed), where they cannot end an idle
 * period early.
 */
bool report_host_timed(const struct run_meta *meta, const char *workload);

/* The headline's row label of @workload, into buf[size]. */
const char *report_workload_row_label(char *buf, size_t size, const struct run_meta *meta,
				      const char *workload);

/*
 * "events: timer: idle, periodic1ms, ...; ipi: pingpong; ..." over the
 * run's workloads, and what the mark means when one is marked; nothing
 * without a workload list.  Returns the lines printed.
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
