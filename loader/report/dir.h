/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dir.h - write the report set of -o DIR (report.txt, report.json,
 * summary.md, plots/) as one: every document is written into a temporary
 * directory DIR/.idlescope-tmp.<pid> first, and only when all of them are
 * complete are they renamed into DIR, plots/ as a whole (so SVGs of
 * workloads the new report no longer has go with the old directory).  A
 * failure while writing leaves DIR as it was.  Temporary files and
 * directories that a killed idlescope left in DIR are removed first.
 */
#ifndef __IDLESCOPE_REPORT_DIR_H
#define __IDLESCOPE_REPORT_DIR_H

#include <limits.h>
#include <stddef.h>

struct reportdir {
	const char *dir;
	char tmp[PATH_MAX];
};

/*
 * Refuse an empty name and find out, before a run, whether reports can be
 * created in @dir.  Prints one error line; 0 or -errno.
 */
int reportdir_check(const char *dir);

/* Remove stale temporaries and create the temporary directory; 0 or -errno. */
int reportdir_begin(struct reportdir *rd, const char *dir);

/* rd->tmp/@name into buf; -ENAMETOOLONG if it does not fit. */
int reportdir_path(const struct reportdir *rd, const char *name, char *buf, size_t size);

/*
 * Rename @names (files or directories written under rd->tmp) into the
 * directory, then remove the temporary directory; 0 or -errno.
 */
int reportdir_commit(struct reportdir *rd, const char *const *names, int nr_names);

/* Remove the temporary directory and everything in it. */
void reportdir_abort(struct reportdir *rd);

#endif /* __IDLESCOPE_REPORT_DIR_H */
