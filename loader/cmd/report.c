// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - `idlescope report FILE... [-j] [-o DIR] [--format FORMAT]
 * [--power FILE]`.  One file gives the live report again; several (say,
 * one per governor) give one report over all of them, each file replayed
 * from a fresh start.  --format linux-pm prints the linux-pm table
 * instead of the text report; --power prices the periods with a measured
 * power table (docs/power-table.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cmd/report.h"
#include "pipeline.h"
#include "recfile.h"
#include "report/dir.h"
#include "report/set.h"
#include "report/linuxpm.h"
#include "stats/energy.h"
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
	static const char usage[] = "idlescope: error: usage: idlescope report FILE... [-j] [-o DIR] "
		"[--format text|json|linux-pm] [--power FILE]\n";
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "power", required_argument, NULL, 'p' },
		{},
	};
	struct recfile first = {}, rf = {};
	struct run_meta meta;
	struct pipeline pl = {};
	struct power_table power;
	struct stat *seen = NULL;
	const char *outdir = NULL;
	bool json = false, linux_pm = false;
	char err_msg[256];
	int opt, i, err = 0;

	optind = 2;
	while ((opt = getopt_long(argc, argv, "jo:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'f':
			json = !strcmp(optarg, "json");
			linux_pm = !strcmp(optarg, "linux-pm");
			if (!json && !linux_pm && strcmp(optarg, "text")) {
				fprintf(stderr, "idlescope: error: --format %s: not text, json or "
					"linux-pm\n", optarg);
				return 1;
			}
			break;
		case 'p':
			if (power_table_load(optarg, &power, err_msg, sizeof(err_msg))) {
				fprintf(stderr, "idlescope: error: --power %s\n", err_msg);
				return 1;
			}
			pl.power = &power;
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
	if (!seen)
		return 1;

	run_meta_init(&meta);
	for (i = optind; i < argc && !err; i++) {
		err = report_open_file(&rf, argv[i], i == optind ? NULL : &first,
				       seen, i - optind);
		if (!err)
			err = report_add_file(&pl, &meta, &rf, i == optind);
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
		if (!linux_pm)
			err = reportset_write(pl.agg, &meta, json, outdir);
		else if (!(err = linuxpm_fprint(stdout, pl.agg, &meta)) && outdir)
			err = reportset_write_dir(pl.agg, &meta, outdir);
	}
	recfile_close(&rf);
	pipeline_free(&pl);
	free(seen);
	return err ? 1 : 0;
}
