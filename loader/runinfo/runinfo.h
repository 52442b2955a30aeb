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

/**
 * runinfo_header() - a live run's record file header
 * @hdr: set from recfile_header_init() on
 * @meta: the run's facts (kernel, HZ, capabilities, cpuidle driver, clock)
 * @states: the state table
 * @nr_states: its states, at most IDLESCOPE_MAX_STATES
 * @nr_cpus: the CPUs whose records the file holds
 */
void runinfo_header(struct recfile_header *hdr, const struct run_meta *meta,
		    const struct idlescope_state *states, unsigned int nr_states,
		    unsigned int nr_cpus);

/**
 * runinfo_trailer() - a live run's record file trailer
 * @t: set from zero
 * @meta: what the live report knew beyond the records (start, duration,
 *	counts per CPU, skipped programs, timer lateness, the kernel's own
 *	counts, the names of the numbers in the records)
 * @nr_ringbufs: the ring buffers the records came through
 */
void runinfo_trailer(struct recfile_trailer *t, const struct run_meta *meta,
		     unsigned int nr_ringbufs);

/**
 * runinfo_wake_names() - the names a record file's trailer keeps
 * @rf: the file, open
 * @names: its table of names (stats/wakeup.h); empty without a trailer
 */
void runinfo_wake_names(const struct recfile *rf, struct wake_names *names);

/**
 * runinfo_add_recfile() - add one record file's report metadata to a run's
 * @meta: the run, added to
 * @rf: the file, read to its end
 * @records_read: its records per CPU, as read
 * @first: it is the first file of the report
 *
 * From its header, and from its trailer exactly as the live report had
 * it, or, for a file the loader never closed, what the records themselves
 * say (@records_read per CPU; drops, duration and the sysfs count are then
 * unknown and add 0).
 */
void runinfo_add_recfile(struct run_meta *meta, const struct recfile *rf,
			 const __u64 *records_read, bool first);

/*
 * What must be the same for two record files' numbers to be compared or
 * pooled: a bit each in a mask of facts.
 */
enum runinfo_fact {
	RUNINFO_CLOCK,			/* the clock mode and its QEMU arguments */
	RUNINFO_HZ,
	RUNINFO_DRIVER,			/* the cpuidle driver */
	RUNINFO_STATES,			/* the state table */
	RUNINFO_KERNEL,			/* the kernel release */
	RUNINFO_EXIT_COST,		/* the idle states' exit cost (recfile.h) */
	RUNINFO_NR_FACTS,
};

#define RUNINFO_ALL_FACTS	((1U << RUNINFO_NR_FACTS) - 1)

/*
 * "clock", "hz", "driver", "states", "kernel", "exit_cost": as `compare
 * --across` names them.
 */
extern const char *const runinfo_fact_names[RUNINFO_NR_FACTS];
/* The same names for --help and errors: "kernel, hz, ... or exit_cost". */
#define RUNINFO_FACT_LIST	"kernel, hz, driver, states, clock or exit_cost"

/**
 * runinfo_setup_difference() - where two record files' setups differ
 * @a: one file's header
 * @b: the other's
 * @facts: the facts to look at, a mask of 1 << enum runinfo_fact
 *
 * Return: the first fact of @facts in which the headers differ, or -1.
 */
int runinfo_setup_difference(const struct recfile_header *a, const struct recfile_header *b,
			     unsigned int facts);

/**
 * runinfo_fact_value() - a header's value of one fact, printable
 * @hdr: the header
 * @fact: the fact
 * @buf: its value ("6.1.0", "1000", "4 states")
 * @size: of @buf
 */
void runinfo_fact_value(const struct recfile_header *hdr, enum runinfo_fact fact,
			char *buf, size_t size);

/**
 * runinfo_fact_values() - two headers' values of a fact they differ in, printable
 * @a: one header
 * @b: the other
 * @fact: the fact
 * @va: @a's value, as runinfo_fact_value() gives it; of one clock mode
 *	with other QEMU arguments, the mode and "(ARGS)"
 * @vb: @b's, likewise
 * @size: of each
 */
void runinfo_fact_values(const struct recfile_header *a, const struct recfile_header *b,
			 enum runinfo_fact fact, char *va, char *vb, size_t size);

/**
 * runinfo_check_same_setup() - whether two record files make one report
 * @first: the report's first file
 * @rf: another file
 * @err: the reason when they do not, one line
 * @size: of @err
 *
 * One report is one setup: recorded under the same clock mode, HZ,
 * cpuidle driver, exit cost and kernel release (one governor on two
 * kernels is two governors: compare --across kernel sets them side by side).
 *
 * Return: 0, or -1 with the reason in @err.
 */
int runinfo_check_same_setup(const struct recfile *first, const struct recfile *rf,
			     char *err, size_t size);

#endif /* __IDLESCOPE_RUNINFO_RUNINFO_H */
