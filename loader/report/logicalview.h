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

/*
 * Per workload x governor: periods and within 2x, raw and logical; for
 * menu, within 2x of its prediction after the tick adjustment.  Nothing
 * when @agg has no logical aggregate.
 */
void report_print_logical(FILE *f, const struct agg *agg);

/* The one-sentence definitions of the headline's words. */
void report_print_definitions(FILE *f);

#endif /* __IDLESCOPE_REPORT_LOGICALVIEW_H */
