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

/* What the report header says about workloads, governors and predictions. */
void reportset_meta_from_agg(struct run_meta *meta, const struct agg *agg);

/*
 * -o DIR: report.txt, report.json, summary.md, linuxpm.txt, report.html
 * and plots/, as one set.  0, or -errno after one error line.
 */
int reportset_write_dir(const struct agg *agg, const struct run_meta *meta,
			const char *outdir);

/*
 * The JSON (@json) or text report on stdout; with @outdir (not NULL) the
 * report set into it.  0, or -errno after one error line.
 */
int reportset_write(const struct agg *agg, const struct run_meta *meta, bool json,
		    const char *outdir);

#endif /* __IDLESCOPE_REPORT_SET_H */
