// SPDX-License-Identifier: GPL-2.0
/*
 * recset.c - the record files of one report or one side of a compare
 * (see cmd/recset.h).
 */
#define _GNU_SOURCE
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/recset.h"
#include "governors.h"
#include "format/escape.h"
#include "report/figures.h"
#include "runinfo/runinfo.h"

/* A path for a message: a file name found in a directory may hold any byte. */
#define SHOWN_PATH_SIZE	512

static const char *shown(const char *path, char *buf)
{
	return escape_name(buf, SHOWN_PATH_SIZE, path, SIZE_MAX);
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n >= k && !strcmp(name + n - k, suffix);
}

static int add_path(struct recset *rs, char *path)
{
	struct recset_file *files;

	if (!path)
		return -ENOMEM;
	if (rs->nr_files == rs->nr_alloc) {
		rs->nr_alloc = rs->nr_alloc ? 2 * rs->nr_alloc : 16;
		files = realloc(rs->files, rs->nr_alloc * sizeof(*files));
		if (!files) {
			free(path);
			return -ENOMEM;
		}
		rs->files = files;
	}
	rs->files[rs->nr_files++] = (struct recset_file){
		.path = path, .boot = -1, .seed = run_meta_seed_of_path(path),
	};
	return 0;
}

/* DIR/NAME.rec and, @depth levels down, DIR/SUB/NAME.rec, in name order. */
static int collect_dir(struct recset *rs, const char *dir, int depth)
{
	struct dirent **ents;
	struct stat st;
	char *path;
	int n, i, err = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (!err && name[0] != '.') {
			if (asprintf(&path, "%s/%s", dir, name) < 0) {
				err = -ENOMEM;
			} else if (stat(path, &st)) {
				free(path);
			} else if (S_ISDIR(st.st_mode) && depth > 0) {
				err = collect_dir(rs, path, depth - 1);
				free(path);
			} else if (S_ISREG(st.st_mode) && has_suffix(name, ".rec")) {
				err = add_path(rs, path);
			} else {
				free(path);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return err;
}

int recset_add(struct recset *rs, const char *arg)
{
	int nr_before = rs->nr_files, err;
	char buf[SHOWN_PATH_SIZE];
	struct stat st;

	/* A path that is not a directory is a record file: recfile_open() says what is wrong. */
	if (stat(arg, &st) || !S_ISDIR(st.st_mode)) {
		err = add_path(rs, strdup(arg));
	} else {
		err = collect_dir(rs, arg, 3);
		if (!err && rs->nr_files == nr_before)
			err = -ENOENT;
	}
	if (err)
		fprintf(stderr, "idlescope: error: %s: %s\n", shown(arg, buf),
			err == -ENOENT ? "no record files (*.rec)" : strerror(-err));
	return err;
}

/*
 * A copy of another file: the same boot and the same first period (the
 * kernel's clock and the CPU's period number in it) are the same records.
 */
static bool copy_of(const struct recset_file *file, const struct recset_file *other)
{
	return file->has_first && other->has_first && !strcmp(file->boot_id, other->boot_id) &&
	       !memcmp(&file->first, &other->first, sizeof(file->first));
}

/*
 * File @i again (@copies false: the same inode, so a link too), or a
 * copy of an earlier one (@copies true): one error line.
 */
static int check_twice(const struct recset *rs, int i, bool copies)
{
	const struct recset_file *file = &rs->files[i], *other;
	char buf[SHOWN_PATH_SIZE], shown_other[SHOWN_PATH_SIZE];
	int j;

	for (j = 0; j < i; j++) {
		other = &rs->files[j];
		if (!copies && other->dev == file->dev && other->ino == file->ino) {
			fprintf(stderr, "idlescope: error: %s: given twice%s%s: "
				"its periods would count twice\n", shown(file->path, buf),
				strcmp(file->path, other->path) ? ", as " : "",
				strcmp(file->path, other->path) ?
				shown(other->path, shown_other) : "");
			return -EINVAL;
		}
		if (copies && copy_of(file, other)) {
			fprintf(stderr, "idlescope: error: %s: a copy of %s (the same boot, the "
				"same first period): its periods would count twice\n",
				shown(file->path, buf), shown(other->path, shown_other));
			return -EINVAL;
		}
	}
	return 0;
}

/* Open file @i and check it against the files before it. */
static int open_file(struct recset *rs, int i, struct recfile *rf)
{
	struct recset_file *file = &rs->files[i];
	struct recfile first = { .hdr = rs->first, .path = rs->files[0].path };
	char err_msg[1024];

	if (recfile_open(rf, file->path)) {
		fprintf(stderr, "idlescope: error: %s\n", rf->error);
		return -EINVAL;
	}
	file->dev = rf->dev;
	file->ino = rf->ino;
	file->has_first = !recfile_first_record(rf, &file->first);
	memcpy(file->boot_id, rf->hdr.boot_id, sizeof(file->boot_id));
	if (check_twice(rs, i, false))
		return -EINVAL;
	if (i && runinfo_check_same_setup(&first, rf, err_msg, sizeof(err_msg))) {
		fprintf(stderr, "idlescope: error: %s\n", err_msg);
		return -EINVAL;
	}
	return check_twice(rs, i, true);
}

void recset_warn_end(const struct recfile *rf, bool cut_short)
{
	char buf[SHOWN_PATH_SIZE];
	const char *path = shown(rf->path, buf);

	if (cut_short)
		fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n", path);
	if (!rf->complete)
		fprintf(stderr, "idlescope: warning: %s: the loader did not finish it: "
			"duration and drop counts unknown\n", path);
	if (rf->zero_record)
		fprintf(stderr, "idlescope: warning: %s: record %llu is all zeros: "
			"the records end there\n", path, (unsigned long long)rf->zero_record);
}

/* What a file without its trailer, or with a bad end, means for the report. */
static int check_end(const struct recset *rs, const struct recfile *rf, bool cut_short,
		     struct run_meta *meta)
{
	char buf[SHOWN_PATH_SIZE];

	if (!rf->complete && rs->refuse_untrailed) {
		fprintf(stderr, "idlescope: error: %s: the loader did not finish it (no trailer: "
			"drops unknown%s); --allow-missing takes it\n", shown(rf->path, buf),
			cut_short ? ", its last record cut short" : "");
		return -EINVAL;
	}
	meta->records_cut_short += cut_short;
	recset_warn_end(rf, cut_short);
	return 0;
}

/* Replay one open file into the pipeline and its facts into @meta. */
/* File @f's run into @meta's list (run_meta.runs), what it says of itself. */
static void add_run(struct run_meta *meta, const struct recset_file *f,
		    const struct recfile *rf, const struct pipeline *pl)
{
	struct run_file r = {
		.boot = f->boot,
		.seed = f->seed,
		.governor = pipeline_run_governor(pl),
		.position = rf->hdr.run_position,
		.insn_ps_start = rf->hdr.guest_insn_ps,
		.insn_ps_end = rf->complete ? rf->trailer.guest_insn_ps_end : 0,
	};

	run_meta_add_run(meta, &r);
}

static int replay_file(struct recset *rs, int i, struct recfile *rf, struct pipeline *pl,
		       struct run_meta *meta)
{
	__u64 records_read[IDLESCOPE_MAX_CPUS];
	bool cut_short;
	int err;

	err = pipeline_add_file(pl, rf, i == 0, records_read, &cut_short);
	if (err) {
		fprintf(stderr, "idlescope: error: %s\n", rf->error);
		return err;
	}
	rs->files[i].boot = pl->last_boot;
	add_run(meta, &rs->files[i], rf, pl);
	err = check_end(rs, rf, cut_short, meta);
	if (err)
		return err;
	runinfo_add_recfile(meta, rf, records_read, i == 0);
	meta->shadow_replay_resets += pl->replay->replay_resets;
	meta->reconstruct = pl->reconstruct;	/* the pipeline's sums so far */
	if (i == 0)
		rs->first = rf->hdr;
	return 0;
}

int recset_replay(struct recset *rs, struct pipeline *pl, struct run_meta *meta)
{
	struct recfile rf;
	int i, err = 0;

	for (i = 0; i < rs->nr_files && !err; i++) {
		err = open_file(rs, i, &rf);
		if (!err)
			err = replay_file(rs, i, &rf, pl, meta);
		recfile_close(&rf);
	}
	/* A run whose guest time jumped is no data point (stats/exclude.c). */
	if (!err && agg_exclude_late_runs(pl->agg))
		fprintf(stderr, "idlescope: warning: more than %d runs to leave out: "
			"the rest count\n", AGG_MAX_EXCLUSIONS);
	return err;
}

/*
 * The runs of file @i whose device's train stalled, by the values
 * its figures file added to @fig (the cells that grew past @before), left
 * out of @agg.
 */
static void exclude_missed(const struct recset *rs, int i, const struct figures *fig,
			   const int *before, struct agg *agg)
{
	char reason[AGG_EXCLUSION_REASON_LEN];
	const struct figure_cell *c;
	double v;
	int k;

	for (k = 0; k < fig->nr_cells; k++) {
		c = &fig->cells[k];
		if (c->nr_values <= before[k] || strcmp(c->figure, FIGURES_DELIVERED))
			continue;
		v = c->values[c->nr_values - 1];
		if (v >= FIGURES_DELIVERED_MIN_PCT)
			continue;
		snprintf(reason, sizeof(reason), "got %.1f%% of its device's rate (below %.0f%%)",
			 v, FIGURES_DELIVERED_MIN_PCT);
		if (agg_exclude_run(agg, rs->files[i].boot, c->workload, governor_id(c->governor),
				    reason) == -ENOSPC)
			fprintf(stderr, "idlescope: warning: more than %d runs to leave out: "
				"the rest count\n", AGG_MAX_EXCLUSIONS);
	}
}

int recset_read_figures(const struct recset *rs, struct figures *fig, struct agg *agg)
{
	int before[FIGURES_MAX_CELLS];
	int i, k, err = 0;

	for (i = 0; i < rs->nr_files && !err; i++) {
		for (k = 0; k < FIGURES_MAX_CELLS; k++)
			before[k] = k < fig->nr_cells ? fig->cells[k].nr_values : 0;
		err = figures_read_beside(fig, rs->files[i].path);
		if (!err)
			exclude_missed(rs, i, fig, before, agg);
	}
	return err;
}

int *recset_boot_seeds(const struct recset *rs, int nr_boots)
{
	int *seeds = malloc((nr_boots ? nr_boots : 1) * sizeof(*seeds));
	const struct recset_file *f;
	int i;

	if (!seeds)
		return NULL;
	for (i = 0; i < nr_boots; i++)
		seeds[i] = -1;
	for (i = 0; i < rs->nr_files; i++) {
		f = &rs->files[i];
		if (f->boot < 0 || f->boot >= nr_boots || f->seed < 0 ||
		    (seeds[f->boot] >= 0 && seeds[f->boot] != f->seed)) {
			free(seeds);
			return NULL;
		}
		seeds[f->boot] = f->seed;
	}
	return seeds;
}

char **recset_boot_keys(const struct recset *rs, const struct agg *agg)
{
	int nr = agg_nr_boots(agg), i;
	char **keys = calloc(nr ? nr : 1, sizeof(*keys));
	const struct recset_file *f;

	for (i = 0; keys && i < nr; i++)
		keys[i] = strdup(agg_boot_id(agg, i));
	for (i = 0; keys && i < rs->nr_files; i++) {
		f = &rs->files[i];
		if (f->boot < 0 || f->boot >= nr || !keys[f->boot] || keys[f->boot][0])
			continue;
		free(keys[f->boot]);
		if (asprintf(&keys[f->boot], "file:%llu:%llu", (unsigned long long)f->dev,
			     (unsigned long long)f->ino) < 0)
			keys[f->boot] = NULL;
	}
	for (i = 0; keys && i < nr; i++)
		if (!keys[i])
			keys[i] = strdup("");
	return keys;
}

void recset_free_boot_keys(char **keys, int nr_boots)
{
	int i;

	for (i = 0; keys && i < nr_boots; i++)
		free(keys[i]);
	free(keys);
}

void recset_free(struct recset *rs)
{
	int i;

	for (i = 0; i < rs->nr_files; i++)
		free(rs->files[i].path);
	free(rs->files);
	rs->files = NULL;
	rs->nr_files = rs->nr_alloc = 0;
}
