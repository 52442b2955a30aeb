// SPDX-License-Identifier: GPL-2.0
/*
 * file.c - a file either complete or absent (see output/file.h): it is
 * written to a temporary file next to its final path and renamed over it
 * only after fsync succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "output/fault.h"
#include "output/file.h"

int output_stream_status(FILE *f)
{
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

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

int output_write_file(const char *path, output_fprint_fn fprint, const void *ctx)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s" OUTPUT_FILE_TMP_INFIX "%d", path, (int)getpid()) >=
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
