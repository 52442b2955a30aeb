// SPDX-License-Identifier: GPL-2.0
/*
 * recfile.c - write and read the raw record file (see recfile.h).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
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

int recfile_finish(FILE *f, const struct recfile_trailer *trailer, __u64 nr_records)
{
	int err = 0;

	/* The count goes in last: a file with a count has its trailer. */
	if (fwrite(trailer, sizeof(*trailer), 1, f) != 1 || fflush(f) ||
	    fseek(f, offsetof(struct recfile_header, nr_records), SEEK_SET) ||
	    fwrite(&nr_records, sizeof(nr_records), 1, f) != 1)
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int check_header(struct recfile *rf, const char *path, char *err, size_t size)
{
	const struct recfile_header *hdr = &rf->hdr;

	if (hdr->version > RECFILE_VERSION) {
		snprintf(err, size, "%s: record file version %u is newer than this idlescope (%u)",
			 path, hdr->version, RECFILE_VERSION);
		return -1;
	}
	if (hdr->version != RECFILE_VERSION) {
		snprintf(err, size, "%s: record file version %u is older than this idlescope (%u); "
			 "record it again", path, hdr->version, RECFILE_VERSION);
		return -1;
	}
	if (hdr->header_size != sizeof(*hdr) ||
	    hdr->record_size != sizeof(struct idlescope_record) ||
	    hdr->trailer_size != sizeof(struct recfile_trailer) ||
	    hdr->nr_states > IDLESCOPE_MAX_STATES || hdr->nr_cpus > IDLESCOPE_MAX_CPUS) {
		snprintf(err, size, "%s: inconsistent header (record size %u, %u CPUs, %u states)",
			 path, hdr->record_size, hdr->nr_cpus, hdr->nr_states);
		return -1;
	}
	return 0;
}

/* With a record count, the file is exactly header, records, trailer. */
static int read_trailer(struct recfile *rf, const char *path, char *err, size_t size)
{
	off_t records_end = sizeof(rf->hdr) + rf->hdr.nr_records * sizeof(struct idlescope_record);
	struct stat st;

	if (fstat(fileno(rf->f), &st) ||
	    st.st_size != records_end + (off_t)sizeof(rf->trailer)) {
		snprintf(err, size, "%s: truncated: the header says %llu records and a trailer",
			 path, (unsigned long long)rf->hdr.nr_records);
		return -1;
	}
	if (fseeko(rf->f, records_end, SEEK_SET) ||
	    fread(&rf->trailer, sizeof(rf->trailer), 1, rf->f) != 1 ||
	    memcmp(rf->trailer.magic, RECFILE_TRAILER_MAGIC, sizeof(rf->trailer.magic)) ||
	    rf->trailer.nr_skipped > RECFILE_MAX_SKIPPED ||
	    fseeko(rf->f, sizeof(rf->hdr), SEEK_SET)) {
		snprintf(err, size, "%s: corrupt trailer", path);
		return -1;
	}
	rf->has_trailer = true;
	return 0;
}

int recfile_open(struct recfile *rf, const char *path, char *err, size_t size)
{
	memset(rf, 0, sizeof(*rf));
	rf->f = fopen(path, "r");
	if (!rf->f) {
		snprintf(err, size, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(&rf->hdr, sizeof(rf->hdr), 1, rf->f) != 1 ||
	    memcmp(rf->hdr.magic, RECFILE_MAGIC, sizeof(rf->hdr.magic))) {
		/* A cut-short header and a foreign file look the same here. */
		if (!memcmp(rf->hdr.magic, RECFILE_MAGIC, sizeof(rf->hdr.magic)))
			snprintf(err, size, "%s: truncated header", path);
		else
			snprintf(err, size, "%s: not an idlescope record file", path);
		goto fail;
	}
	if (check_header(rf, path, err, size) ||
	    (rf->hdr.nr_records && read_trailer(rf, path, err, size)))
		goto fail;
	rf->hdr.kernel_release[sizeof(rf->hdr.kernel_release) - 1] = '\0';
	return 0;
fail:
	recfile_close(rf);
	return -1;
}

int recfile_read(struct recfile *rf, struct idlescope_record *rec)
{
	size_t n;

	if (rf->has_trailer && rf->nr_read == rf->hdr.nr_records)
		return 0;
	n = fread(rec, 1, sizeof(*rec), rf->f);
	if (n == sizeof(*rec)) {
		rf->nr_read++;
		return 1;
	}
	return n ? -1 : 0;
}

void recfile_close(struct recfile *rf)
{
	if (rf->f)
		fclose(rf->f);
	rf->f = NULL;
}
