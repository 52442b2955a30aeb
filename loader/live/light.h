/* SPDX-License-Identifier: GPL-2.0 */
/*
 * light.h - the guest's side of a light or lean live run (-m light,
 * -m lean; docs/bpf.md): what it shows and writes without a record passing
 * through it.  The dashboard and the summary files come from the BPF
 * side's summaries; a light run's record file gets the names of its
 * wake-up numbers after the run, from the file itself, so that nothing per
 * record runs in the guest while it is measured.
 */
#ifndef __IDLESCOPE_LIVE_LIGHT_H
#define __IDLESCOPE_LIVE_LIGHT_H

#include <stdio.h>
#include "live/probes.h"
#include "runinfo/meta.h"
#include "stats/summaries.h"
#include "stats/wakeup.h"

/* The file of the summaries in a light or lean run's -o DIR (summaries_print()). */
#define SUMMARY_FILE		"summaries.txt"
/* Its report there: what the summaries say, and what they cannot. */
#define SUMMARY_REPORT_FILE	"report.txt"

/* What the dashboard shows beside the summaries. */
struct summary_view {
	double elapsed_s;
	double periods_per_s;		/* since the last view, all CPUs */
	__u64 records;			/* sent so far (0 in a lean run) */
	__u64 dropped;
	const char *governor;		/* the run's, or NULL */
	const char *workload;		/* the tag now, escaped */
};

/**
 * summary_dashboard_draw() - one screen of a light or lean run's live view
 * @f: where to
 * @set: the summaries as just read
 * @view: the rest
 *
 * The current workload over all CPUs: its actual durations as a log2
 * histogram, the share within F of the governor's prediction, the states
 * entered and the kernel's verdicts; it fits the full dashboard's 80x24.
 */
void summary_dashboard_draw(FILE *f, const struct summaries *set,
			    const struct summary_view *view);

/**
 * summary_write_dir() - a light or lean run's -o DIR
 * @dir: the directory, existing
 * @set: the summaries at the end
 * @meta: the run
 * @mode: LIVE_LIGHT or LIVE_LEAN
 *
 * SUMMARY_FILE and SUMMARY_REPORT_FILE, each written whole or not at all
 * (output/file.h).
 *
 * Return: 0, or -errno with the error printed (one line).
 */
int summary_write_dir(const char *dir, struct summaries *set, const struct run_meta *meta,
		      enum live_mode mode);

/**
 * summary_print_report() - the report of a light or lean run's summaries
 * @f: where to
 * @set: the summaries at the end (sorted, summaries_sort())
 * @meta: the run
 * @mode: LIVE_LIGHT or LIVE_LEAN
 *
 * Per workload over the CPUs: its periods, the share within F of the
 * governor's prediction, its states, the kernel's verdicts and the log2
 * histogram of its actual durations; first what the run cannot say.
 *
 * Return: 0 or output_stream_status()'s error.
 */
int summary_print_report(FILE *f, struct summaries *set, const struct run_meta *meta,
			 enum live_mode mode);

/**
 * summary_wake_names() - the names of a record file's wake-up numbers
 * @path: the file, its records written (no trailer yet)
 * @names: filled with a name for every hrtimer function and IRQ its
 *	records name, "" where /proc has none
 *
 * What a full run's aggregate resolves as the records come (stats/why.h).
 *
 * Return: 0, or -errno with the error printed (one line).
 */
int summary_wake_names(const char *path, struct wake_names *names);

#endif /* __IDLESCOPE_LIVE_LIGHT_H */
