/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recset.h - the record files of one report (`idlescope report`), or of
 * one side of `idlescope compare`, read as one run: each argument a record
 * file or a run directory (its *.rec files and those of its
 * subdirectories, up to three levels down, in name order: `make run`
 * leaves seed-S/GOVERNOR/GOVERNOR/run.rec),
 * as many as there are.  They are replayed one after the other into one
 * pipeline, each from a fresh start, and each is checked against those
 * before it: not the same file again (the same device and inode, so a
 * link to it counts too), nor a copy of one (the same boot id and the
 * same first record), recorded under the same clock mode and QEMU clock
 * arguments, HZ and cpuidle driver, with the same state table.  Every
 * problem is one line on stderr.
 */
#ifndef __IDLESCOPE_CMD_RECSET_H
#define __IDLESCOPE_CMD_RECSET_H

#include <stdbool.h>
#include <sys/types.h>
#include "pipeline.h"
#include "recfile.h"
#include "runinfo/meta.h"

struct recset_file {
	char *path;
	dev_t dev;			/* set once opened */
	ino_t ino;
	/* Its boot and first record, once opened: a copy has both of another's. */
	bool has_first;
	char boot_id[RECFILE_BOOT_ID_LEN];
	struct idlescope_record first;
	int boot;			/* its agg_boot() index, once replayed */
	long seed;			/* a seed-N component of its path, -1: none */
};

struct recset {
	int nr_files, nr_alloc;
	struct recset_file *files;
	/*
	 * A file the loader did not finish (no trailer: drops unknown,
	 * maybe a record cut short) is an error, not a warning: a gate must
	 * not pass on what it did not see.
	 */
	bool refuse_untrailed;
	struct recfile_header first;	/* the first file's header, once replayed */
};

/**
 * recset_add() - add one command-line argument's record files
 * @rs: the set, zeroed before the first call
 * @arg: a record file, or a run directory: its *.rec files and those of
 *	its subdirectories, up to three levels down, in name order
 *
 * A path that is not a directory is taken as a record file without
 * looking at it: recfile_open() says what is wrong with it when the set
 * is replayed.
 *
 * Return: 0, or -errno after one error line (-ENOENT: a directory without
 * record files).
 */
int recset_add(struct recset *rs, const char *arg);

/**
 * recset_replay() - replay every file of the set as one run
 * @rs: the set, its files added
 * @pl: the pipeline, initialized from the first file's header
 * @meta: the run's facts, run_meta_init()ed; each file's are added
 *
 * Each file is opened, checked against those before it (the same file
 * again, a copy of one, another clock, HZ, driver or state table is an
 * error, and so is a file without its trailer under rs->refuse_untrailed)
 * and replayed from a fresh start into its boot's aggregate.  Then
 * the runs whose guest time jumped are left out (agg_exclude_late_runs();
 * past AGG_MAX_EXCLUSIONS a warning, the rest count).
 *
 * Return: 0, or -errno after one error line; the first bad file stops it.
 */
int recset_replay(struct recset *rs, struct pipeline *pl, struct run_meta *meta);

/**
 * recset_warn_end() - warn about how a file's records ended
 * @rf: the file, read to its end
 * @cut_short: its last record was cut short (RECFILE_CUT_SHORT)
 *
 * One warning line on stderr for each of: the last record cut short, no
 * trailer (a killed loader: duration and drops unknown), an all-zero
 * record that ended the records.  The report is made all the same;
 * `dump` and `extract` say it in the same words.
 */
void recset_warn_end(const struct recfile *rf, bool cut_short);

struct figures;

/**
 * recset_read_figures() - read the figures beside the set's files
 * @rs: the set, replayed (each file knows its boot)
 * @fig: the figures, each file's added (report/figures.h)
 * @agg: the replayed pipeline's aggregate
 *
 * Every run whose workload got less than FIGURES_DELIVERED_MIN_PCT of its
 * device's rate is left out of @agg (agg_exclude_run()): it did not
 * deliver the pattern it stands for.
 *
 * Return: 0, or -errno after one error line.
 */
int recset_read_figures(const struct recset *rs, struct figures *fig, struct agg *agg);

/**
 * recset_boot_seeds() - the seed of each boot of the set
 * @rs: the set, replayed (each file knows its boot)
 * @nr_boots: the boots of its aggregate (agg_nr_boots())
 *
 * A boot's seed is the seed-N of its files' paths: what pairs the boots
 * of two runs of the same seeds (stats/comparison.h).
 *
 * Return: @nr_boots seeds by agg_boot() index, to free(); NULL when a
 * file has no seed or no boot, or a boot has two seeds (the set's boots
 * cannot be paired by seed), or without memory.
 */
int *recset_boot_seeds(const struct recset *rs, int nr_boots);

/**
 * recset_boot_keys() - what identifies each boot of the set
 * @rs: the set, replayed (each file knows its boot)
 * @agg: its aggregate
 *
 * A boot's key is its boot id or, for a file without one (a boot of its
 * own), the file, "file:DEV:INO": the same file in two sets is the same
 * boot, which pairs two governors of one run (stats/comparison.h).
 *
 * Return: agg_nr_boots(@agg) keys by agg_boot() index, "" where none is
 * known, to recset_free_boot_keys(); NULL without memory.
 */
char **recset_boot_keys(const struct recset *rs, const struct agg *agg);

/**
 * recset_free_boot_keys() - free recset_boot_keys()' keys
 * @keys: the keys, or NULL
 * @nr_boots: how many there are
 */
void recset_free_boot_keys(char **keys, int nr_boots);

/**
 * recset_free() - free the set's file list
 * @rs: the set; empty afterwards, ready for recset_add() again
 */
void recset_free(struct recset *rs);

#endif /* __IDLESCOPE_CMD_RECSET_H */
