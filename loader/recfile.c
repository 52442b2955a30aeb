// SPDX-License-Identifier: GPL-2.0
/*
 * recfile.c - write and read the raw record file (see recfile.h).
 */
#include <errno.h>
#include <string.h>
#include "recfile.h"

FILE *recfile_create(const char *path, const struct recfile_header *hdr)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	if (fwrite(hdr, sizeof(*hdr), 1, f) != 1) {
		fclose(f);
		errno = EIO;
		return NULL;
	}
	return f;
}

FILE *recfile_open(const char *path, struct recfile_header *hdr, char *err, size_t size)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fread(hdr, sizeof(*hdr), 1, f) != 1 ||
	    memcmp(hdr->magic, RECFILE_MAGIC, sizeof(hdr->magic))) {
		/* A cut-short header and a foreign file look the same here. */
		if (!memcmp(hdr->magic, RECFILE_MAGIC, sizeof(hdr->magic)))
			snprintf(err, size, "%s: truncated header", path);
		else
			snprintf(err, size, "%s: not an idlescope record file", path);
		goto fail;
	}
	if (hdr->version > RECFILE_VERSION) {
		snprintf(err, size, "%s: record file version %u is newer than this idlescope (%u)",
			 path, hdr->version, RECFILE_VERSION);
		goto fail;
	}
	if (hdr->version != RECFILE_VERSION || hdr->header_size != sizeof(*hdr) ||
	    hdr->record_size != sizeof(struct idlescope_record) ||
	    hdr->nr_states > IDLESCOPE_MAX_STATES || hdr->nr_cpus > IDLESCOPE_MAX_CPUS) {
		snprintf(err, size, "%s: inconsistent header (version %u, record size %u)",
			 path, hdr->version, hdr->record_size);
		goto fail;
	}
	hdr->kernel_release[sizeof(hdr->kernel_release) - 1] = '\0';
	return f;
fail:
	fclose(f);
	return NULL;
}

int recfile_read(FILE *f, struct idlescope_record *rec)
{
	size_t n = fread(rec, 1, sizeof(*rec), f);

	if (n == sizeof(*rec))
		return 1;
	return n ? -1 : 0;
}
