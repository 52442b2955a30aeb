/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dir.h - write the report set of -o DIR (report.txt, report.json,
 * summary.md, linuxpm.txt, report.html, plots/) as one: DIR holds the
 * old set or the new one, never a mix, whatever step the write stops at.
 *
 * Every document is written into a temporary directory DIR/.idlescope-
 * tmp.<pid> first.  Only when all of them are there does the commit swap
 * the sets, name by name: with every catchable signal held off (a Ctrl-C
 * takes effect once the new set is in place), it makes tmp/old (from then
 * on the temporary directory says a commit began), moves the old set's
 * names into it, moves the new ones into DIR, and removes the temporary
 * directory.  An error at any step moves back what it moved, in reverse:
 * the old set again.  A commit that could not finish (SIGKILL, a crash)
 * is finished backwards by the next write into DIR, which first rolls
 * back, or removes, the temporaries of idlescopes that are gone.
 *
 * A name of the set held by something else (a directory report.txt, a
 * file plots, a plot directory with anything in it but the plots a report
 * set wrote) is "in the way": the write is refused before anything is
 * written, rather than deleting it with the old set.
 */
#ifndef __IDLESCOPE_OUTPUT_DIR_H
#define __IDLESCOPE_OUTPUT_DIR_H

#include <limits.h>
#include <stddef.h>

/*
 * The set's names: the documents, then the plot directory last, which
 * summary.md's links name (REPORTDIR_PLOT_DIR/<workload>.svg).  The
 * writer of the set (report/set.c) fills them in this order.
 */
#define REPORTDIR_NR_NAMES	6
#define REPORTDIR_PLOT_DIR	"plots"
/*
 * A plot's second line (after the XML declaration): what tells the plots
 * a report set wrote, which a new set replaces, from anything else.
 */
#define REPORTDIR_PLOT_MARK	"<!-- idlescope plot -->"
extern const char *const reportdir_names[REPORTDIR_NR_NAMES];

struct reportdir {
	const char *dir;
	char tmp[PATH_MAX];
	char why[PATH_MAX + 64];	/* what is in the way, for the error line */
};

/*
 * Refuse an empty name, a name of the set in the way, and find out,
 * before a run, whether reports can be created in @dir.  Prints one error
 * line; 0 or -errno.
 */
int reportdir_check(const char *dir);

/*
 * Finish or remove the temporaries of idlescopes that are gone, check
 * that nothing is in the way (rd->why says what is) and create the
 * temporary directory; 0 or -errno.
 */
int reportdir_begin(struct reportdir *rd, const char *dir);

/* rd->tmp/@name into buf; -ENAMETOOLONG if it does not fit. */
int reportdir_path(const struct reportdir *rd, const char *name, char *buf, size_t size);

/*
 * Swap the set written under rd->tmp (every name of reportdir_names)
 * into the directory, then remove the temporary directory; 0 or -errno,
 * the old set in place again.
 */
int reportdir_commit(struct reportdir *rd);

/* Remove the temporary directory and everything in it. */
void reportdir_abort(struct reportdir *rd);

#endif /* __IDLESCOPE_OUTPUT_DIR_H */
