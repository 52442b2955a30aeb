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

/* Add a record file, or the *.rec of a run directory; 0 or -errno after one line. */
int recset_add(struct recset *rs, const char *arg);

/*
 * Replay every file into @pl (initialized by the first) and its facts
 * into @meta (run_meta_init()ed), then leave out the runs whose guest time
 * jumped (agg_exclude_late_runs()); 0, or -errno after one line.
 */
int recset_replay(struct recset *rs, struct pipeline *pl, struct run_meta *meta);

/*
 * The warnings of a file read to its end: its last record cut short, no
 * trailer (a killed loader), an all-zero record that ended the records.
 */
void recset_warn_end(const struct recfile *rf, bool cut_short);

struct figures;

/*
 * Add the figures file beside each record file (report/figures.h) to @fig,
 * and leave out of @agg (the replayed pipeline's) every run whose workload
 * got less than FIGURES_DELIVERED_MIN_PCT of its device's rate
 * (agg_exclude_run()); 0, or -errno after one line.
 */
int recset_read_figures(const struct recset *rs, struct figures *fig, struct agg *agg);

void recset_free(struct recset *rs);

#endif /* __IDLESCOPE_CMD_RECSET_H */
