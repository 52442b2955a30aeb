// SPDX-License-Identifier: GPL-2.0
/*
 * dir.c - the report set written into its directory as one (see
 * output/dir.h).
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "format/escape.h"
#include "output/dir.h"
#include "output/fault.h"
#include "output/file.h"

#define TMP_DIR_PREFIX	".idlescope-tmp."
/* Under the temporary directory: the old set's names during a commit. */
#define OLD_SET		"old"

const char *const reportdir_names[REPORTDIR_NR_NAMES] = {
	"report.txt", "report.json", "summary.md", "linuxpm.txt", "report.html",
	REPORTDIR_PLOT_DIR,
};

/* The plot directory is the one name of the set that is a directory. */
static bool is_dir_name(int i)
{
	return i == REPORTDIR_NR_NAMES - 1;
}

static int join(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", dir, name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* A plot of a report set: a regular file NAME.svg whose second line is the mark. */
static bool is_plot(int dir_fd, const char *name)
{
	static const char suffix[] = ".svg";
	char head[256];
	size_t len = strlen(name);
	const char *line2;
	ssize_t n;
	int fd;

	if (len <= strlen(suffix) || strcmp(name + len - strlen(suffix), suffix))
		return false;
	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	head[n > 0 ? n : 0] = '\0';
	line2 = strchr(head, '\n');
	return line2 && !strncmp(line2 + 1, REPORTDIR_PLOT_MARK "\n", strlen(REPORTDIR_PLOT_MARK) + 1);
}

/*
 * The plot directory goes with the old set, whole: it may hold only plots
 * a report set wrote.  0, or -ENOTEMPTY with what else it holds in @why.
 */
static int check_plots(const char *path, const char *shown_path, char *why, size_t size)
{
	char shown[ESCAPE_SIZE(32)];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(path);
	int err = 0;

	if (!d)
		return 0;	/* the commit's rename says what is wrong */
	while (!err && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode) && is_plot(dirfd(d), de->d_name))
			continue;
		escape_name(shown, sizeof(shown), de->d_name, SIZE_MAX);
		snprintf(why, size, "%s is in the way: it holds %s, not a plot of idlescope's",
			 shown_path, shown);
		err = -ENOTEMPTY;
	}
	closedir(d);
	return err;
}

/*
 * A name of the set held by something the commit must not move away with
 * the old set: a directory where a document goes, a non-directory where
 * the plots go (a symbolic link is replaced, not followed), a plot
 * directory that holds anything else than plots.
 */
static int check_in_way(const char *dir, char *why, size_t size)
{
	char path[PATH_MAX], shown[ESCAPE_SIZE(64)];
	struct stat st;
	int i;

	for (i = 0; i < REPORTDIR_NR_NAMES; i++) {
		if (join(path, sizeof(path), dir, reportdir_names[i]) || lstat(path, &st) ||
		    S_ISLNK(st.st_mode))
			continue;
		escape_name(shown, sizeof(shown), path, SIZE_MAX);
		if (is_dir_name(i) == !!S_ISDIR(st.st_mode)) {
			if (is_dir_name(i) && check_plots(path, shown, why, size))
				return -ENOTEMPTY;
			continue;
		}
		snprintf(why, size, "%s is in the way: %s, not %s", shown,
			 S_ISDIR(st.st_mode) ? "a directory" : "not a directory",
			 is_dir_name(i) ? "the plot directory" : "a report");
		return S_ISDIR(st.st_mode) ? -EISDIR : -ENOTDIR;
	}
	return 0;
}

int reportdir_check(const char *dir)
{
	char probe[PATH_MAX], why[PATH_MAX + 64], shown[ESCAPE_SIZE(64)];
	int fd, n;

	if (!*dir) {
		fprintf(stderr, "idlescope: error: -o needs a directory name, not ''\n");
		return -EINVAL;
	}
	escape_name(shown, sizeof(shown), dir, SIZE_MAX);
	n = snprintf(probe, sizeof(probe), "%s/.idlescope-probe.XXXXXX", dir);
	if (n < 0 || n >= (int)sizeof(probe)) {
		fprintf(stderr, "idlescope: error: -o %s: %s\n", shown, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	fd = mkstemp(probe);
	if (fd < 0) {
		n = -errno;
		fprintf(stderr, "idlescope: error: cannot write reports into %s: %s\n",
			shown, strerror(-n));
		return n;
	}
	close(fd);
	unlink(probe);
	n = check_in_way(dir, why, sizeof(why));
	if (n)
		fprintf(stderr, "idlescope: error: cannot write reports into %s: %s\n", shown, why);
	return n;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) ? -1 : 0;
}

static int remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT ? -errno : 0;
}

/*
 * Undo a commit that stopped after moving @nr_moved_out old names out
 * and @nr_moved_in new names in (in reportdir_names' order): the new
 * names go back under @tmp, the old ones back into @dir, last first.
 */
static int roll_back(const char *dir, const char *tmp, int nr_moved_out, int nr_moved_in)
{
	char path[PATH_MAX], new[PATH_MAX], old[PATH_MAX], old_dir[PATH_MAX];
	int i, err = 0;

	if (join(old_dir, sizeof(old_dir), tmp, OLD_SET))
		return -ENAMETOOLONG;
	for (i = REPORTDIR_NR_NAMES - 1; i >= 0; i--) {
		if (join(path, sizeof(path), dir, reportdir_names[i]) ||
		    join(new, sizeof(new), tmp, reportdir_names[i]) ||
		    join(old, sizeof(old), old_dir, reportdir_names[i]))
			return -ENAMETOOLONG;
		if (i < nr_moved_in && rename(path, new) && !err)
			err = -errno;
		if (i < nr_moved_out && exists(old) && rename(old, path) && !err)
			err = -errno;
	}
	return err;
}

/*
 * The temporary directory @tmp of an idlescope that is gone: a commit it
 * began (tmp/old exists) and finished moving in (no new name left under
 * tmp) stands; one it did not finish is rolled back.  Then @tmp goes.
 */
static void finish_stale(const char *dir, const char *tmp)
{
	char path[PATH_MAX];
	int i, nr_left = 0;

	if (!join(path, sizeof(path), tmp, OLD_SET) && exists(path)) {
		for (i = 0; i < REPORTDIR_NR_NAMES; i++)
			if (!join(path, sizeof(path), tmp, reportdir_names[i]) && exists(path))
				nr_left++;
		/* Names were moved in first to last: those still here never were. */
		if (nr_left && roll_back(dir, tmp, REPORTDIR_NR_NAMES, REPORTDIR_NR_NAMES - nr_left))
			return;		/* keep what could not be put back */
	}
	remove_tree(tmp);
}

/* The pid a temporary's name ends in, if that process is gone. */
static bool owner_gone(const char *pid_text)
{
	char *end;
	long pid = strtol(pid_text, &end, 10);

	return end != pid_text && !*end && pid > 0 && pid != getpid() &&
	       kill(pid, 0) && errno == ESRCH;
}

/* After "<document>.tmp." in @name, for a document of the set; else NULL. */
static const char *doc_tmp_owner(const char *name)
{
	size_t len;
	int i;

	for (i = 0; i < REPORTDIR_NR_NAMES; i++) {
		if (is_dir_name(i))
			continue;
		len = strlen(reportdir_names[i]);
		if (!strncmp(name, reportdir_names[i], len) &&
		    !strncmp(name + len, OUTPUT_FILE_TMP_INFIX, strlen(OUTPUT_FILE_TMP_INFIX)))
			return name + len + strlen(OUTPUT_FILE_TMP_INFIX);
	}
	return NULL;
}

/*
 * The temporaries in @dir of idlescopes that are gone: their set
 * directories, and the "<document>.tmp.<pid>" files output_write_file()
 * leaves when killed.
 */
static void remove_stale(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	const char *infix;
	bool is_set_dir;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		is_set_dir = !strncmp(de->d_name, TMP_DIR_PREFIX, strlen(TMP_DIR_PREFIX));
		infix = is_set_dir ? de->d_name + strlen(TMP_DIR_PREFIX) :
				     doc_tmp_owner(de->d_name);
		if (!infix)
			continue;
		if (!owner_gone(infix) || join(path, sizeof(path), dir, de->d_name))
			continue;
		if (is_set_dir)
			finish_stale(dir, path);
		else
			remove_tree(path);
	}
	closedir(d);
}

int reportdir_begin(struct reportdir *rd, const char *dir)
{
	int n, err;

	rd->dir = dir;
	rd->tmp[0] = '\0';
	rd->why[0] = '\0';
	remove_stale(dir);
	err = check_in_way(dir, rd->why, sizeof(rd->why));
	if (err)
		return err;
	n = snprintf(rd->tmp, sizeof(rd->tmp), "%s/" TMP_DIR_PREFIX "%d", dir, (int)getpid());
	if (n < 0 || n >= (int)sizeof(rd->tmp)) {
		rd->tmp[0] = '\0';	/* a cut name could be another directory */
		return -ENAMETOOLONG;
	}
	remove_tree(rd->tmp);
	err = fault_point("creating the temporary directory");
	return err ? err : mkdir(rd->tmp, 0755) ? -errno : 0;
}

int reportdir_path(const struct reportdir *rd, const char *name, char *buf, size_t size)
{
	return join(buf, size, rd->tmp, name);
}

/* rename(), or the fault point's error before it. */
static int move(const char *from, const char *to, const char *what)
{
	int err = fault_point(what);

	return err ? err : rename(from, to) ? -errno : 0;
}

/* Make the renames durable; best effort (9p and tmpfs may refuse). */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Old names out of the way into tmp/old, then the new ones in; both counted. */
static int swap_sets(struct reportdir *rd, int *nr_moved_out, int *nr_moved_in)
{
	char path[PATH_MAX], new[PATH_MAX], old[PATH_MAX], old_dir[PATH_MAX];
	int i, err;

	if (join(old_dir, sizeof(old_dir), rd->tmp, OLD_SET))
		return -ENAMETOOLONG;
	err = fault_point("starting the commit");
	if (err || mkdir(old_dir, 0755))
		return err ? err : -errno;
	for (i = 0; i < REPORTDIR_NR_NAMES; i++, (*nr_moved_out)++) {
		if (join(path, sizeof(path), rd->dir, reportdir_names[i]) ||
		    join(old, sizeof(old), old_dir, reportdir_names[i]))
			return -ENAMETOOLONG;
		err = exists(path) ? move(path, old, "moving an old report out") : 0;
		if (err)
			return err;
	}
	for (i = 0; i < REPORTDIR_NR_NAMES; i++, (*nr_moved_in)++) {
		if (join(path, sizeof(path), rd->dir, reportdir_names[i]) ||
		    join(new, sizeof(new), rd->tmp, reportdir_names[i]))
			return -ENAMETOOLONG;
		err = move(new, path, "moving a new report in");
		if (err)
			return err;
	}
	return 0;
}

int reportdir_commit(struct reportdir *rd)
{
	int nr_moved_out = 0, nr_moved_in = 0, err;
	sigset_t all, saved;

	/* A signal now would leave a mix: it waits until the swap is done or undone. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	err = swap_sets(rd, &nr_moved_out, &nr_moved_in);
	if (err)
		roll_back(rd->dir, rd->tmp, nr_moved_out, nr_moved_in);
	sync_dir(rd->dir);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	/* The new set is in place: what follows only tidies up. */
	if (!err)
		fault_point("removing the old set");
	reportdir_abort(rd);
	return err;
}

void reportdir_abort(struct reportdir *rd)
{
	if (rd->tmp[0])
		remove_tree(rd->tmp);
}
