/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logicalview.h - the report's section on logical idle periods
 * (stats/logical.h): raw and logical views side by side, and menu's
 * prediction before and after its adjustment for a stopped tick.
 */
#ifndef __IDLESCOPE_REPORT_LOGICALVIEW_H
#define __IDLESCOPE_REPORT_LOGICALVIEW_H

#include <stdio.h>
#include "stats/aggregate.h"

/**
 * report_print_logical() - report.txt's table of logical and raw periods
 * @f: the stream
 * @agg: the raw periods' aggregate
 *
 * A row per workload x governor: the periods and the within-2x share,
 * raw and logical; for menu, within 2x of its prediction after the tick
 * adjustment too.  Shows how much of a score is the tick's (stats/
 * logical.h).  Nothing when @agg has no logical aggregate.
 */
void report_print_logical(FILE *f, const struct agg *agg);

/**
 * report_print_definitions() - the definitions of the headline's words
 * @f: the stream
 *
 * One sentence each: logical and raw idle period, deeper / shallower than
 * ideal, kernel above / below; report.txt prints them under its method.
 */
void report_print_definitions(FILE *f);

#endif /* __IDLESCOPE_REPORT_LOGICALVIEW_H */
