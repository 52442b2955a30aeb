// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - write summary.md (see summary.h).
 *
 * Only layout lives here: every number comes from report/text.c's table
 * builders, so summary.md and report.txt always agree.
 */
#include <errno.h>
#include "report/headline.h"
#include "report/plot.h"
#include "output/file.h"
#include "report/summary.h"
#include "report/causes.h"
#include "output/dir.h"
#include "governors.h"

static void print_intro(FILE *f, const struct run_meta *meta)
{
	__u64 dropped = run_meta_dropped(meta);
	int i;

	fputs("# idlescope summary\n\nKernel ", f);
	table_print_markdown_text(f, meta->kernel_release);
	fputs(", governors", f);
	for (i = 0; i < meta->nr_governors; i++) {
		fputs(i ? ", " : " ", f);
		table_print_markdown_text(f, meta->governors[i]);
	}
	fprintf(f, "; %llu idle periods recorded, ",
		(unsigned long long)run_meta_produced(meta));
	if (run_meta_trailer_known(meta))
		fprintf(f, "%llu dropped.\n", (unsigned long long)dropped);
	else
		fputs("drops unknown (a record file without its trailer).\n", f);
	if (dropped || meta->seq_lost)
		fputs("\n**Warning:** periods were dropped (ring buffer full): "
		      "the numbers below miss them.\n", f);
	fputs("\nHow to read the tables: *1.5x* .. *100x* is the % of "
	      "predictions p within that factor F of the actual idle "
	      "duration a, max(p, a) <= F * min(p, a); \"-\" means the "
	      "column made no predictions (teo and ladder do not predict a "
	      "duration). ± is a 95% interval (batch means over consecutive "
	      "periods). *Ideal* compares the entered state with the deepest "
	      "enabled state the period paid for; *kernel* rows are the "
	      "cpu\\_idle\\_miss verdicts, % of idle periods. The shadow "
	      "replay scores each model on one governor's periods, only "
	      "where its inputs were recorded; the 2010 columns are the "
	      "seed's published run (69854 samples) for reference.\n", f);
}

/* A list item of plain text. */
static void print_item(FILE *f, const char *text)
{
	fputs("- ", f);
	table_print_markdown_text(f, text);
	fputc('\n', f);
}

/*
 * The shadow replay on each governor's own periods (never pooled: a model
 * is scored only where its inputs were recorded), the seed's numbers beside.
 */
static void print_shadows(FILE *f, const struct agg *agg,
			  const struct report_workload_view *view)
{
	const struct agg_stats *st;
	char line[256];
	struct table t;
	int g, s;
	bool scored;

	for (g = 0; g < view->nr_governors; g++) {
		st = &view->per_governor[g];
		scored = false;
		for (s = 0; s < agg_nr_shadows(agg); s++)
			scored |= st->shadow[s].samples > 0 || st->shadow[s].ideal_samples > 0;
		if (!scored)
			continue;
		fprintf(f, "\n### Shadow replay on governor %s's periods, and the seed's 2010 numbers\n\n",
			governor_name(view->governors[g]));
		report_shadow_table(agg, st, true, &t);
		table_print_markdown(f, &t);
		if (report_shadow_states_table(agg, st, &t)) {
			fputs("\nState choices (% of the periods each model chose a state on, "
			      "against the ideal state; live = the state entered):\n\n", f);
			table_print_markdown(f, &t);
		}
		fputc('\n', f);
		for (s = 0; s < agg_nr_shadows(agg); s++) {
			if (headline_format_agreement(line, sizeof(line), agg, st, s))
				print_item(f, line);
			if (headline_format_state_agreement(line, sizeof(line), agg, st, s))
				print_item(f, line);
		}
	}
}

static void print_workload(FILE *f, const struct agg *agg, int workload)
{
	struct report_workload_view view;
	const char *name = agg_workload_name(agg, workload);
	char file[256];
	struct table t;

	if (!report_workload_view(agg, workload, &view))
		return;
	fputs("\n## Workload ", f);
	table_print_markdown_text(f, name[0] ? name : "(none)");
	fputs("\n\n### Live governors, all CPUs\n\n", f);
	report_live_table(&view, &t);
	table_print_markdown(f, &t);

	if (agg_nr_shadows(agg))
		print_shadows(f, agg, &view);

	fputs("\n### Share of idle time per state (%)\n\n", f);
	report_states_table(agg, &view, &t);
	table_print_markdown(f, &t);

	fputs("\n### Why it missed and what it cost, all CPUs\n\n", f);
	report_why_table(agg, &view, &t);
	table_print_markdown(f, &t);

	/* The name is already safe in a path and a URL: no escaping. */
	if (!plot_file_name(agg, workload, file, sizeof(file))) {
		fputs("\n![prediction / actual, ", f);
		table_print_markdown_text(f, name[0] ? name : "(none)");
		fprintf(f, "](%s/%s)\n", REPORTDIR_PLOT_DIR, file);
	}
}

int report_fprint_summary(FILE *f, const struct agg *agg,
			  const struct run_meta *meta)
{
	int w;

	errno = 0;
	print_intro(f, meta);
	for (w = 0; w < agg_nr_workloads(agg); w++)
		print_workload(f, agg, w);
	return output_stream_status(f);
}

int report_write_summary(const struct agg *agg, const struct run_meta *meta,
			 const char *path)
{
	return report_write_doc(path, report_fprint_summary, agg, meta);
}
