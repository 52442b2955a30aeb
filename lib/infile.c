// SPDX-License-Identifier: GPL-2.0
/* Open a file to read without blocking on it; see infile.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "infile.h"

FILE *infile_open(const char *path, struct stat *st, const char **why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), err;
	struct stat own;
	FILE *f;

	if (!st)
		st = &own;
	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (fstat(fd, st)) {
		err = errno;
		*why = strerror(err);
	} else if (S_ISDIR(st->st_mode)) {
		err = EISDIR;
		*why = "a directory, not a regular file";
	} else if (!S_ISREG(st->st_mode)) {
		err = EINVAL;
		*why = "not a regular file (a FIFO, socket or device)";
	} else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) ||
		   !(f = fdopen(fd, "r"))) {
		err = errno;
		*why = strerror(err);
	} else {
		return f;
	}
	close(fd);
	errno = err;
	return NULL;
}
