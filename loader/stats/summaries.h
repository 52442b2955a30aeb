/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summaries.h - the BPF side's summaries (bpf/idlescope_summary.h) of a run, per
 * workload tag and CPU, and the counters beside them: read from the
 * kernel's maps by a light or lean live run (live/summary.c), or added up
 * from a record file's records (`idlescope dump --summary`).  Printed the
 * same way from either, so that the two of one light run compare byte for
 * byte (docs/bpf.md gives the format).
 *
 * Pure C: no libbpf.
 */
#ifndef __IDLESCOPE_STATS_SUMMARIES_H
#define __IDLESCOPE_STATS_SUMMARIES_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "idlescope.h"
#include "idlescope_summary.h"

/* The tag a BPF side's last slot stands for: the tags it had no slot for. */
#define SUMMARIES_OTHER		"(other tags)"

struct summary_entry {
	char workload[IDLESCOPE_WORKLOAD_LEN + 1];	/* NUL-terminated */
	int cpu;
	struct idlescope_summary s;
};

struct summaries {
	int nr;
	int cap;
	struct summary_entry *entries;
	/* Per CPU: records sent, their checksum (idlescope_record_sum()). */
	__u64 records[IDLESCOPE_MAX_CPUS];
	__u64 record_sum[IDLESCOPE_MAX_CPUS];
	int nr_cpus;			/* the CPUs the counters cover */
	bool has_record_sum;		/* record_sum[] was kept */
};

/**
 * summaries_get() - the summary of a workload on a CPU, added when new
 * @set: the set
 * @workload: its tag, up to IDLESCOPE_WORKLOAD_LEN bytes or a NUL
 * @cpu: 0..IDLESCOPE_MAX_CPUS - 1
 *
 * Return: the summary, zero when new; NULL without memory.
 */
struct idlescope_summary *summaries_get(struct summaries *set, const char *workload, int cpu);

/**
 * summaries_add_record() - one record's period into its summary and counters
 * @set: the set
 * @rec: the record; its cpu below IDLESCOPE_MAX_CPUS
 * @untimed_exit_ns: per state, the exit an untimed period spent
 *	(stats/period.h), or NULL
 *
 * The counters then count it and its checksum (has_record_sum).
 *
 * Return: 0, -EINVAL for a CPU out of range, -ENOMEM.
 */
int summaries_add_record(struct summaries *set, const struct idlescope_record *rec,
			 const __u64 *untimed_exit_ns);

/**
 * summaries_total() - a workload's summaries over every CPU
 * @set: the set
 * @workload: its tag as in the entries (NUL-terminated)
 * @sum: set to the sum
 *
 * Return: whether the workload has an entry.
 */
bool summaries_total(const struct summaries *set, const char *workload,
		     struct idlescope_summary *sum);

/**
 * summaries_sort() - put the entries in their printed order
 * @set: the set
 *
 * By workload, then CPU, so that the text is the same whatever order
 * the entries were read in.
 */
void summaries_sort(struct summaries *set);

/**
 * summaries_print() - the set in its text format
 * @f: where to
 * @set: the set; its entries are sorted first (summaries_sort())
 *
 * One "summary cpu=C FIELD=N ... workload=TAG" line per entry (the tag last
 * and escaped, format/escape.h), then one "counters cpu=C records=N" line
 * per CPU, with record_sum=0x... when kept.  docs/bpf.md lists the fields.
 */
void summaries_print(FILE *f, struct summaries *set);

/**
 * summaries_free() - free the set's entries
 * @set: the set; empty again (zeroed)
 */
void summaries_free(struct summaries *set);

#endif /* __IDLESCOPE_STATS_SUMMARIES_H */
