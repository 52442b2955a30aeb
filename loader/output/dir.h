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

/**
 * reportdir_check() - whether a report set can be written into a directory
 * @dir: the -o directory
 *
 * Called before a run, so that a live run of minutes does not end on a
 * directory it cannot write: refuses an empty name, a directory where a
 * file cannot be created (probed with a temporary file, removed), and a
 * name of the set held by something else.
 *
 * Return: 0, or -errno after one error line.
 */
int reportdir_check(const char *dir);

/**
 * reportdir_begin() - start writing a report set
 * @rd: filled: the directory, its temporary directory, why it failed
 * @dir: the -o directory; kept, not copied
 *
 * Finishes backwards (or removes) the temporaries of idlescopes that are
 * gone, checks that nothing is in the way, and creates the temporary
 * directory DIR/.idlescope-tmp.<pid> the documents are written into
 * (reportdir_path()).  Ends with reportdir_commit() or reportdir_abort().
 *
 * Return: 0, or -errno with no line printed (rd->why says what is in
 * the way, for the caller's error line).
 */
int reportdir_begin(struct reportdir *rd, const char *dir);

/**
 * reportdir_path() - where a document of the set is written
 * @rd: from reportdir_begin()
 * @name: one of reportdir_names
 * @buf: set to rd->tmp/@name
 * @size: @buf's size
 *
 * Return: 0, or -ENAMETOOLONG when the path does not fit.
 */
int reportdir_path(const struct reportdir *rd, const char *name, char *buf, size_t size);

/**
 * reportdir_commit() - put the new set in place of the old one
 * @rd: from reportdir_begin(), every name of reportdir_names written
 *
 * Swaps the sets name by name with every catchable signal held off, so
 * that DIR holds one set or the other; on an error what was moved is
 * moved back.  The temporary directory is removed either way.
 *
 * Return: 0, or -errno with the old set in place again.
 */
int reportdir_commit(struct reportdir *rd);

/**
 * reportdir_abort() - give up a set being written
 * @rd: from reportdir_begin(), whether it succeeded or not
 *
 * Removes the temporary directory and everything in it; DIR keeps the
 * old set untouched.
 */
void reportdir_abort(struct reportdir *rd);

#endif /* __IDLESCOPE_OUTPUT_DIR_H */
