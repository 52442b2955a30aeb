// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - the report documents on disk, and the metadata they
 * print.
 *
 * A report is either complete or absent: it is written to a temporary file
 * next to its final path and renamed over it only after fsync succeeded, so
 * a crash, a full disk or a VM killed by its timeout never leaves a
 * truncated report that looks valid.  The metadata (report_meta) is what
 * the run knew besides its records: kernel, start, governors, workloads,
 * programs it skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "report/fault.h"
#include "report/report.h"
#include "stats/sat.h"

int report_stream_status(FILE *f)
{
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- atomic files ---------------------------------------------------- */

/* Make the rename durable; best effort (9p and tmpfs may refuse). */
static void fsync_parent_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	fsync(fd);
	close(fd);
}

int report_write_file(const char *path, report_fprint_fn fprint,
		      const void *ctx)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	err = fault_point("writing a document");
	if (err)
		return err;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto out_unlink;
	}

	err = fprint(f, ctx);
	if (!err && fflush(f))
		err = -errno;
	if (!err && fsync(fd))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (!err) {
		fsync_parent_dir(path);
		return 0;
	}
out_unlink:
	unlink(tmp);
	return err;
}

struct report_doc {
	report_doc_fprint_fn fprint;
	const struct agg *agg;
	const struct report_meta *meta;
};

static int fprint_doc(FILE *f, const void *ctx)
{
	const struct report_doc *doc = ctx;

	return doc->fprint(f, doc->agg, doc->meta);
}

int report_write_doc(const char *path, report_doc_fprint_fn fprint,
		     const struct agg *agg, const struct report_meta *meta)
{
	struct report_doc doc = { .fprint = fprint, .agg = agg, .meta = meta };

	return report_write_file(path, fprint_doc, &doc);
}

int report_write_text(const struct agg *agg, const struct report_meta *meta,
		      const char *path)
{
	return report_write_doc(path, report_fprint_text, agg, meta);
}

int report_write_json(const struct agg *agg, const struct report_meta *meta,
		      const char *path)
{
	return report_write_doc(path, report_fprint_json, agg, meta);
}

/* ---- meta ------------------------------------------------------------ */

void report_meta_init(struct report_meta *meta)
{
	struct utsname uts;

	memset(meta, 0, sizeof(*meta));
	if (!uname(&uts))
		snprintf(meta->kernel_release, sizeof(meta->kernel_release),
			 "%s", uts.release);
	meta->start_time = time(NULL);
}

static __u64 sum_cpus(const struct report_meta *meta, const __u64 *per_cpu)
{
	__u64 sum = 0;
	int cpu;

	for (cpu = 0; cpu < meta->nr_cpus && cpu < IDLESCOPE_MAX_CPUS; cpu++)
		sat_inc(&sum, per_cpu[cpu]);
	return sum;
}

__u64 report_meta_produced(const struct report_meta *meta)
{
	return sum_cpus(meta, meta->records_produced);
}

__u64 report_meta_dropped(const struct report_meta *meta)
{
	return sum_cpus(meta, meta->dropped_records);
}

/* Copy src into dst[size]; -ENAMETOOLONG if it had to be cut. */
static int copy_name(char *dst, size_t size, const char *src)
{
	return (size_t)snprintf(dst, size, "%s", src) >= size ?
	       -ENAMETOOLONG : 0;
}

int report_meta_add_governor(struct report_meta *meta, const char *name)
{
	if (meta->nr_governors == REPORT_MAX_GOVERNORS)
		return -ENOSPC;
	return copy_name(meta->governors[meta->nr_governors++],
			 REPORT_NAME_LEN, name);
}

int report_meta_add_workload(struct report_meta *meta, const char *name)
{
	if (meta->nr_workloads == REPORT_MAX_WORKLOADS)
		return -ENOSPC;
	return copy_name(meta->workloads[meta->nr_workloads++],
			 AGG_WORKLOAD_NAME_LEN, name);
}

int report_meta_add_skipped(struct report_meta *meta, const char *prog,
			    const char *reason)
{
	struct report_skipped_prog *skipped;
	int err;

	if (meta->nr_skipped == REPORT_MAX_SKIPPED)
		return -ENOSPC;
	skipped = &meta->skipped[meta->nr_skipped++];
	err = copy_name(skipped->name, sizeof(skipped->name), prog);
	if (copy_name(skipped->reason, sizeof(skipped->reason), reason))
		err = -ENAMETOOLONG;
	return err;
}
