/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recfile.h - the raw record file of `idlescope -r FILE`.
 *
 * A versioned header (what the records need to be understood off-line: the
 * state table, CPU count, kernel release), then struct idlescope_record after
 * struct idlescope_record, exactly as the ring buffer delivered them, then,
 * when the loader ended cleanly, a trailer: what the live report knew that
 * the records do not say (duration, the BPF side's per-CPU counters, ...),
 * so that `idlescope report FILE` can print the live report again, byte for
 * byte.  Closing the file writes the trailer and then the record count into
 * the header; a count of 0 means the loader was killed: readers then take
 * every whole record up to the end and say how many bytes they ignored.
 *
 * The layout is that of the machine that wrote it (x86-64 guest and host).
 */
#ifndef __IDLESCOPE_RECFILE_H
#define __IDLESCOPE_RECFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "idlescope.h"

#define RECFILE_MAGIC		"IDLSCOPE"
#define RECFILE_TRAILER_MAGIC	"IDLSCEND"
#define RECFILE_VERSION		2
#define RECFILE_MAX_SKIPPED	32
#define RECFILE_NAME_LEN	32
#define RECFILE_REASON_LEN	128

struct recfile_state {
	__u64 target_residency_ns;
	__u64 exit_latency_ns;
	__u32 disabled;
	__u32 polling;			/* a POLL state: CPUIDLE_FLAG_POLLING */
};

struct recfile_header {
	char magic[8];			/* RECFILE_MAGIC, not NUL-terminated */
	__u32 version;			/* RECFILE_VERSION */
	__u32 header_size;		/* sizeof(struct recfile_header) */
	__u32 record_size;		/* sizeof(struct idlescope_record) */
	__u32 nr_cpus;
	__u32 nr_states;
	__u32 trailer_size;		/* sizeof(struct recfile_trailer) */
	__u64 nr_records;		/* set on a clean close; 0: no trailer */
	struct recfile_state states[IDLESCOPE_MAX_STATES];
	char kernel_release[72];
};

struct recfile_skipped {
	char prog[RECFILE_NAME_LEN];		/* BPF program not attached */
	char reason[RECFILE_REASON_LEN];
};

struct recfile_trailer {
	char magic[8];			/* RECFILE_TRAILER_MAGIC */
	__s64 start_time;		/* wall clock at start, s since the epoch */
	double duration_s;
	__u64 ringbuf_size_bytes;
	__u64 sysfs_usage_delta;	/* stateN/usage growth, all CPUs */
	__u64 records_produced[IDLESCOPE_MAX_CPUS];
	__u64 dropped_records[IDLESCOPE_MAX_CPUS];
	__u32 nr_skipped;
	__u32 pad;
	struct recfile_skipped skipped[RECFILE_MAX_SKIPPED];
};

/* Returns the stream positioned at the first record, or NULL (errno set). */
FILE *recfile_create(const char *path, const struct recfile_header *hdr);

/*
 * Append the trailer after @nr_records records and set the header's count,
 * then close @f.  Returns 0 or -errno; @f is closed either way.
 */
int recfile_finish(FILE *f, const struct recfile_trailer *trailer, __u64 nr_records);

/* An open record file being read. */
struct recfile {
	FILE *f;
	struct recfile_header hdr;
	bool has_trailer;		/* closed cleanly: trailer is valid */
	struct recfile_trailer trailer;
	__u64 nr_read;
};

/*
 * Open and check a record file.  Returns 0, or -1 with a one-line reason
 * in err[] ("not an idlescope record file", "version 3 is newer than this
 * idlescope (2)", "truncated: ...").
 */
int recfile_open(struct recfile *rf, const char *path, char *err, size_t size);

/* 1: a record read, 0: no more records, -1: a cut-short last record (ignored). */
int recfile_read(struct recfile *rf, struct idlescope_record *rec);

void recfile_close(struct recfile *rf);

#endif /* __IDLESCOPE_RECFILE_H */
