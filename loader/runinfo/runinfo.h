/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runinfo.h - what a report says about the run beyond its records, and how
 * it travels through a record file: read from the running system for a
 * live run (kernel HZ, cpuidle driver, the clock mode the VM runner put on
 * the kernel command line), written into the record file's header and
 * trailer, and read back into the report's metadata off-line, so that both
 * reports say the same.
 */
#ifndef __IDLESCOPE_RUNINFO_RUNINFO_H
#define __IDLESCOPE_RUNINFO_RUNINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "recfile.h"
#include "report/report.h"

/*
 * meta's hz (CONFIG_HZ from /boot/config-<release> or /proc/config.gz),
 * cpuidle_driver and clock_mode/clock_args (idlescope.clock= and the
 * base64 idlescope.clock_args= of /proc/cmdline); what is not found stays
 * empty (unknown).
 */
void runinfo_read_system(struct report_meta *meta);

/* A live run's record file header: @meta's facts, the state table. */
void runinfo_header(struct recfile_header *hdr, const struct report_meta *meta,
		    const struct idlescope_state *states, unsigned int nr_states,
		    unsigned int nr_cpus);

/* What the live report knew beyond the records, for the trailer. */
void runinfo_trailer(struct recfile_trailer *t, const struct report_meta *meta,
		     unsigned int nr_ringbufs);

/*
 * The report metadata of one record file, added to *meta: from its
 * header, and from its trailer exactly as the live report had it, or, for
 * a file the loader never closed, what the records themselves say
 * (@records_read per CPU; drops, duration and the sysfs count are then
 * unknown and add 0).  @first: the first file of the report.
 */
void runinfo_add_recfile(struct report_meta *meta, const struct recfile *rf,
			 const __u64 *records_read, bool first);

/*
 * What must be the same for two record files' numbers to be compared or
 * pooled: a bit each in a mask of facts.
 */
enum runinfo_fact {
	RUNINFO_CLOCK,			/* the clock mode */
	RUNINFO_HZ,
	RUNINFO_DRIVER,			/* the cpuidle driver */
	RUNINFO_STATES,			/* the state table */
	RUNINFO_KERNEL,			/* the kernel release */
	RUNINFO_NR_FACTS,
};

#define RUNINFO_ALL_FACTS	((1U << RUNINFO_NR_FACTS) - 1)

/* "clock", "hz", "driver", "states", "kernel": as `compare --across` names them. */
extern const char *const runinfo_fact_names[RUNINFO_NR_FACTS];

/* The first fact of @facts in which the headers differ, or -1. */
int runinfo_setup_difference(const struct recfile_header *a, const struct recfile_header *b,
			     unsigned int facts);

/* A header's value of @fact into buf, printable ("6.1.0", "1000", "4 states"). */
void runinfo_fact_value(const struct recfile_header *hdr, enum runinfo_fact fact,
			char *buf, size_t size);

/*
 * Whether @rf can go into one report with @first: recorded under the same
 * clock mode, HZ and cpuidle driver.  0, or -1 with one line in err[].
 */
int runinfo_check_same_setup(const struct recfile *first, const struct recfile *rf,
			     char *err, size_t size);

#endif /* __IDLESCOPE_RUNINFO_RUNINFO_H */
