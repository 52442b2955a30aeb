// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - `idlescope report FILE... [-j] [-o DIR]`.  One file gives
 * the live report again; several (say, one per governor) give one report
 * over all of them, each file replayed from a fresh start.  A record
 * file's figures file (FILE.figures, report/figures.h) adds the workloads'
 * own figures.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cmd/report.h"
#include "pipeline.h"
#include "recfile.h"
#include "report/dir.h"
#include "report/figures.h"
#include "report/set.h"
#include "runinfo/runinfo.h"

/*
 * Replay one record file into the pipeline and its metadata.  0, or
 * -EINVAL after one error line (a record that contradicts the header).
 */
static int report_add_file(struct pipeline *pl, struct run_meta *meta, struct recfile *rf,
			   bool first)
{
	__u64 records_read[IDLESCOPE_MAX_CPUS];
	bool cut_short;
	int err;

	err = pipeline_add_file(pl, rf, first, records_read, &cut_short);
	if (err) {
		fprintf(stderr, "idlescope: error: %s\n", rf->error);
		return err;
	}
	if (cut_short) {
		fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n",
			rf->path);
		meta->records_cut_short++;
	}
	if (!rf->complete)
		fprintf(stderr, "idlescope: warning: %s: the loader did not finish it: "
			"duration and drop counts unknown\n", rf->path);
	runinfo_add_recfile(meta, rf, records_read, first);
	meta->shadow_replay_resets += pl->replay->replay_resets;
	meta->reconstruct = pl->reconstruct;	/* the pipeline's sums so far */
	return 0;
}

/*
 * Open the next record file of a report and check that it fits the
 * others: not one of them again, the same setup as @first (NULL for the
 * first file), the same state table.
 */
static int report_open_file(struct recfile *rf, const char *path, const struct recfile *first,
			    const struct stat *seen, int nr_seen)
{
	char err_msg[512];
	int i;

	if (recfile_open(rf, path)) {
		fprintf(stderr, "idlescope: error: %s\n", rf->error);
		return -EINVAL;
	}
	for (i = 0; i < nr_seen; i++) {
		if (seen[i].st_dev == rf->dev && seen[i].st_ino == rf->ino) {
			fprintf(stderr, "idlescope: error: %s: given twice: "
				"its periods would count twice\n", path);
			return -EINVAL;
		}
	}
	if (first && runinfo_check_same_setup(first, rf, err_msg, sizeof(err_msg))) {
		fprintf(stderr, "idlescope: error: %s\n", err_msg);
		return -EINVAL;
	}
	return 0;
}

int report_command(int argc, char **argv)
{
	static const char usage[] = "idlescope: error: usage: idlescope report FILE... [-j] [-o DIR]\n";
	struct recfile first = {}, rf = {};
	struct run_meta meta;
	struct figures *figures = NULL;
	struct pipeline pl = {};
	struct stat *seen = NULL;
	const char *outdir = NULL;
	bool json = false;
	int opt, i, err = 0;

	optind = 2;
	while ((opt = getopt(argc, argv, "jo:")) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'o':
			outdir = optarg;
			break;
		default:
			fprintf(stderr, usage);
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, usage);
		return 1;
	}
	if (outdir && reportdir_check(outdir))
		return 1;
	seen = calloc(argc, sizeof(*seen));
	figures = calloc(1, sizeof(*figures));
	if (!seen || !figures) {
		free(seen);
		free(figures);
		return 1;
	}

	run_meta_init(&meta);
	meta.figures = figures;
	for (i = optind; i < argc && !err; i++) {
		err = report_open_file(&rf, argv[i], i == optind ? NULL : &first,
				       seen, i - optind);
		if (!err)
			err = report_add_file(&pl, &meta, &rf, i == optind);
		if (!err)
			err = figures_read_beside(figures, argv[i]);
		seen[i - optind].st_dev = rf.dev;
		seen[i - optind].st_ino = rf.ino;
		if (i == optind) {
			first = rf;
			first.f = NULL;		/* closed below: only its header is used */
			first.window = NULL;
		}
		recfile_close(&rf);
	}
	if (!err) {
		reportset_meta_from_agg(&meta, pl.agg);
		err = reportset_write(pl.agg, &meta, json, outdir);
	}
	recfile_close(&rf);
	pipeline_free(&pl);
	free(figures);
	free(seen);
	return err ? 1 : 0;
}
