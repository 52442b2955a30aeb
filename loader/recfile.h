/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recfile.h - the raw record file of `idlescope -r FILE`.
 *
 * A versioned header (what the records need to be understood off-line: the
 * state table, CPU count, kernel release), then struct idlescope_record after
 * struct idlescope_record, exactly as the ring buffer delivered them.  A
 * loader killed mid-run leaves a file whose last record may be cut short:
 * readers stop at the last whole record and say how many bytes they ignored.
 */
#ifndef __IDLESCOPE_RECFILE_H
#define __IDLESCOPE_RECFILE_H

#include <stdio.h>
#include <linux/types.h>
#include "idlescope.h"

#define RECFILE_MAGIC		"IDLSCOPE"
#define RECFILE_VERSION		1

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
	__u32 pad;
	struct recfile_state states[IDLESCOPE_MAX_STATES];
	char kernel_release[72];
};

/* Returns the stream positioned at the first record, or NULL (errno set). */
FILE *recfile_create(const char *path, const struct recfile_header *hdr);

/*
 * Open and check a record file.  On error returns NULL with a one-line
 * reason in err[] ("not an idlescope record file", "version 2 is newer
 * than this idlescope (1)", ...).
 */
FILE *recfile_open(const char *path, struct recfile_header *hdr, char *err, size_t size);

/* 1: a record read, 0: end of file, -1: a cut-short last record (ignored). */
int recfile_read(FILE *f, struct idlescope_record *rec);

#endif /* __IDLESCOPE_RECFILE_H */
