// SPDX-License-Identifier: GPL-2.0
/*
 * dir.c - the report set written into its directory as one (see
 * report/dir.h).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "report/dir.h"

#define TMP_DIR_PREFIX	".idlescope-tmp."
/* What report_write_file() leaves when killed: "<document>.tmp.<pid>". */
#define TMP_FILE_INFIX	".tmp."

int reportdir_check(const char *dir)
{
	char probe[PATH_MAX];
	int fd, n;

	if (!*dir) {
		fprintf(stderr, "idlescope: error: -o needs a directory name, not ''\n");
		return -EINVAL;
	}
	n = snprintf(probe, sizeof(probe), "%s/.idlescope-probe.XXXXXX", dir);
	if (n < 0 || n >= (int)sizeof(probe)) {
		fprintf(stderr, "idlescope: error: -o %s: %s\n", dir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	fd = mkstemp(probe);
	if (fd < 0) {
		n = -errno;
		fprintf(stderr, "idlescope: error: cannot write reports into %s: %s\n",
			dir, strerror(-n));
		return n;
	}
	close(fd);
	unlink(probe);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

static int remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT ? -errno : 0;
}

/* The pid a temporary's name ends in, if that process is gone. */
static bool owner_gone(const char *pid_text)
{
	char *end;
	long pid = strtol(pid_text, &end, 10);

	return end != pid_text && !*end && pid > 0 && pid != getpid() &&
	       kill(pid, 0) && errno == ESRCH;
}

static void remove_stale(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	const char *infix;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, TMP_DIR_PREFIX, strlen(TMP_DIR_PREFIX)))
			infix = de->d_name + strlen(TMP_DIR_PREFIX);
		else if ((!strncmp(de->d_name, "report.", 7) ||
			  !strncmp(de->d_name, "summary.", 8)) &&
			 (infix = strstr(de->d_name, TMP_FILE_INFIX)))
			infix += strlen(TMP_FILE_INFIX);
		else
			continue;
		if (!owner_gone(infix) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		remove_tree(path);
	}
	closedir(d);
}

int reportdir_begin(struct reportdir *rd, const char *dir)
{
	int n;

	rd->dir = dir;
	remove_stale(dir);
	n = snprintf(rd->tmp, sizeof(rd->tmp), "%s/" TMP_DIR_PREFIX "%d", dir, (int)getpid());
	if (n < 0 || n >= (int)sizeof(rd->tmp)) {
		rd->tmp[0] = '\0';	/* a cut name could be another directory */
		return -ENAMETOOLONG;
	}
	remove_tree(rd->tmp);
	return mkdir(rd->tmp, 0755) ? -errno : 0;
}

int reportdir_path(const struct reportdir *rd, const char *name, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/%s", rd->tmp, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* A directory cannot be renamed over a non-empty one: move the old one out first. */
static int move_into_place(const struct reportdir *rd, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX], old[PATH_MAX];
	struct stat st;
	int n;

	n = snprintf(to, sizeof(to), "%s/%s", rd->dir, name);
	if (reportdir_path(rd, name, from, sizeof(from)) ||
	    reportdir_path(rd, ".old", old, sizeof(old)) || n < 0 || n >= (int)sizeof(to))
		return -ENAMETOOLONG;
	if (!stat(from, &st) && S_ISDIR(st.st_mode) && rename(to, old) && errno != ENOENT)
		return -errno;
	return rename(from, to) ? -errno : 0;
}

int reportdir_commit(struct reportdir *rd, const char *const *names, int nr_names)
{
	int i, err = 0;

	for (i = 0; i < nr_names && !err; i++)
		err = move_into_place(rd, names[i]);
	reportdir_abort(rd);
	return err;
}

void reportdir_abort(struct reportdir *rd)
{
	if (rd->tmp[0])
		remove_tree(rd->tmp);
}
