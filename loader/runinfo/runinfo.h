/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runinfo.h - how what a report says about the run beyond its records
 * (runinfo/meta.h) travels through a record file: written into its header
 * and trailer by the live run, and read back into the run's metadata
 * off-line, so that both reports say the same.
 */
#ifndef __IDLESCOPE_RUNINFO_RUNINFO_H
#define __IDLESCOPE_RUNINFO_RUNINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "recfile.h"
#include "runinfo/meta.h"

/* A live run's record file header: @meta's facts, the state table. */
void runinfo_header(struct recfile_header *hdr, const struct run_meta *meta,
		    const struct idlescope_state *states, unsigned int nr_states,
		    unsigned int nr_cpus);

/* What the live report knew beyond the records, for the trailer. */
void runinfo_trailer(struct recfile_trailer *t, const struct run_meta *meta,
		     unsigned int nr_ringbufs);

/*
 * The report metadata of one record file, added to *meta: from its
 * header, and from its trailer exactly as the live report had it, or, for
 * a file the loader never closed, what the records themselves say
 * (@records_read per CPU; drops, duration and the sysfs count are then
 * unknown and add 0).  @first: the first file of the report.
 */
void runinfo_add_recfile(struct run_meta *meta, const struct recfile *rf,
			 const __u64 *records_read, bool first);

/*
 * Whether @rf can go into one report with @first: recorded under the same
 * clock mode, HZ and cpuidle driver.  0, or -1 with one line in err[].
 */
int runinfo_check_same_setup(const struct recfile *first, const struct recfile *rf,
			     char *err, size_t size);

#endif /* __IDLESCOPE_RUNINFO_RUNINFO_H */
