// SPDX-License-Identifier: GPL-2.0
/*
 * set.c - the reports of one run on stdout and in -o DIR (see set.h), and
 * each document made from an aggregate and its meta written on its own.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "report/set.h"
#include "report/html.h"
#include "report/plot.h"
#include "report/summary.h"
#include "report/linuxpm.h"
#include "format/escape.h"
#include "output/dir.h"
#include "output/fault.h"
#include "output/file.h"
#include "governors.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

void reportset_meta_from_agg(struct run_meta *meta, const struct agg *agg)
{
	struct agg_key key = { .workload = -1 };
	int w;

	for (w = 0; w < agg_nr_workloads(agg); w++)
		run_meta_add_workload(meta, agg_workload_name(agg, w));
	while (agg_next(agg, &key)) {
		const struct agg_stats *st = agg_get(agg, key.workload, key.governor, key.cpu);
		bool listed = false;
		int g;

		for (g = 0; g < meta->nr_governors; g++)
			listed |= !strcmp(meta->governors[g], governor_name(key.governor));
		if (!listed)
			run_meta_add_governor(meta, governor_name(key.governor));
		if (st && st->predicted_samples)
			meta->predictions_available = true;
	}
}

struct report_doc {
	report_doc_fprint_fn fprint;
	const struct agg *agg;
	const struct run_meta *meta;
};

static int fprint_doc(FILE *f, const void *ctx)
{
	const struct report_doc *doc = ctx;

	return doc->fprint(f, doc->agg, doc->meta);
}

int report_write_doc(const char *path, report_doc_fprint_fn fprint,
		     const struct agg *agg, const struct run_meta *meta)
{
	struct report_doc doc = { .fprint = fprint, .agg = agg, .meta = meta };

	return output_write_file(path, fprint_doc, &doc);
}

/* DIR/plots/<workload>.svg for every workload, as summary.md links them. */
static int write_plots(const struct agg *agg, const struct reportdir *rd)
{
	char path[PATH_MAX], name[256];
	int w, n, err;

	err = reportdir_path(rd, REPORTDIR_PLOT_DIR, path, sizeof(path));
	if (!err)
		err = fault_point("creating the plot directory");
	if (err)
		return err;
	if (mkdir(path, 0755))
		return -errno;
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		err = plot_file_name(agg, w, name, sizeof(name));
		if (!err) {
			n = snprintf(path, sizeof(path), "%s/%s/%s", rd->tmp,
				     REPORTDIR_PLOT_DIR, name);
			err = n < 0 || n >= (int)sizeof(path) ? -ENAMETOOLONG :
			      plot_write_ratio_svg(agg, w, path);
		}
		if (err)
			return err;
	}
	return 0;
}

int reportset_write_dir(const struct agg *agg, const struct run_meta *meta,
			const char *outdir)
{
	/* reportdir_names' documents, in its order; the plots come last. */
	static const report_doc_fprint_fn writers[REPORTDIR_NR_NAMES - 1] = {
		report_fprint_text, report_fprint_json, report_fprint_summary, linuxpm_fprint,
		report_fprint_html,
	};
	struct reportdir rd;
	char path[PATH_MAX], shown[ESCAPE_SIZE(64)];
	unsigned int i;
	int err;

	err = reportdir_begin(&rd, outdir);
	for (i = 0; i < ARRAY_SIZE(writers) && !err; i++) {
		err = reportdir_path(&rd, reportdir_names[i], path, sizeof(path));
		if (!err)
			err = report_write_doc(path, writers[i], agg, meta);
	}
	if (!err)
		err = write_plots(agg, &rd);
	if (!err)
		err = reportdir_commit(&rd);
	else
		reportdir_abort(&rd);
	if (err)
		fprintf(stderr, "idlescope: error: writing the reports into %s: %s\n",
			escape_name(shown, sizeof(shown), outdir, SIZE_MAX),
			rd.why[0] ? rd.why : strerror(-err));
	return err;
}

int reportset_write(const struct agg *agg, const struct run_meta *meta, bool json,
		    const char *outdir)
{
	if (json)
		report_fprint_json(stdout, agg, meta);
	else
		report_fprint_text(stdout, agg, meta);
	return outdir ? reportset_write_dir(agg, meta, outdir) : 0;
}
