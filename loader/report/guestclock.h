/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guestclock.h - what the report's clock line says about the guest's
 * clock besides its mode: how fast the guest ran (guest time per
 * instruction) and whether its sleeps woke far too late.
 */
#ifndef __IDLESCOPE_REPORT_GUESTCLOCK_H
#define __IDLESCOPE_REPORT_GUESTCLOCK_H

#include <stdio.h>
#include "runinfo/meta.h"
#include "stats/aggregate.h"

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
 * report_print_late_sleeps() - a WARNING line, if sleeps woke far too late
 * @f: the output
 * @agg: the run's periods
 *
 * Idle periods a sleep's timer ended more than AGG_LATE_SLEEP_NS late: the
 * guest's clock lost its pace (a spinning vCPU under shift=auto, the first
 * seconds after boot, the host clock); the headline marks their cells.
 * Prints nothing when there are none.
 *
 * Return: the lines printed, 0 or 1.
 */
int report_print_late_sleeps(FILE *f, const struct agg *agg);

#endif /* __IDLESCOPE_REPORT_GUESTCLOCK_H */
