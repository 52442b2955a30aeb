// SPDX-License-Identifier: GPL-2.0
/*
 * light.c - a light or lean run's dashboard, files and wake-up names
 * (see light.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "live/light.h"
#include "live/symbols.h"
#include "output/file.h"
#include "recfile.h"
#include "report/report.h"

#define HIST_ROWS	14	/* the dashboard's histogram, at most */
#define BAR_WIDTH	40

static const char *const mode_names[] = {
#define LIVE_MODE_NAME(id, name)	[LIVE_##id] = #name,
	LIVE_MODES(LIVE_MODE_NAME)
#undef LIVE_MODE_NAME
};

const char *live_mode_name(enum live_mode mode)
{
	return mode < LIVE_NR_MODES ? mode_names[mode] : "?";
}

int live_mode_of(const char *name)
{
	int m;

	for (m = 0; m < LIVE_NR_MODES; m++)
		if (!strcmp(name, mode_names[m]))
			return m;
	return -1;
}

static const char *const factor_labels[IDLESCOPE_NR_FACTORS] = {
#define FACTOR_LABEL(num, den, label)	label,
	IDLESCOPE_FACTORS(FACTOR_LABEL)
#undef FACTOR_LABEL
};

static double pct(__u64 part, __u64 whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/* The used rows of the duration histogram, at most HIST_ROWS, the last open. */
static void draw_hist(FILE *f, const struct idlescope_summary *s)
{
	int lo = -1, hi = -1, k, row;
	__u64 count, max = 0;
	int stars;

	for (k = 0; k < IDLESCOPE_SUMMARY_LOG2_SLOTS; k++) {
		if (!s->woke_us_log2[k])
			continue;
		if (lo < 0)
			lo = k;
		hi = k;
	}
	if (lo < 0)
		return;
	if (hi - lo >= HIST_ROWS)
		hi = lo + HIST_ROWS - 1;
	for (k = lo; k <= hi; k++)
		max = s->woke_us_log2[k] > max ? s->woke_us_log2[k] : max;
	fprintf(f, "%-19s : %-9s distribution (actual idle)\n", "        us", "count");
	for (k = lo; k <= hi; k++) {
		count = s->woke_us_log2[k];
		/* The last row holds every longer bucket. */
		for (row = k + 1; k == hi && row < IDLESCOPE_SUMMARY_LOG2_SLOTS; row++)
			count += s->woke_us_log2[row];
		stars = max ? (int)(count * BAR_WIDTH / max) : 0;
		stars = stars > BAR_WIDTH ? BAR_WIDTH : stars;
		if (k == hi && hi < IDLESCOPE_SUMMARY_LOG2_SLOTS - 1 && count != s->woke_us_log2[k])
			fprintf(f, "%8llu -> %-8s : %-9llu |%.*s%*s|\n", k ? 1ULL << k : 0ULL, "",
				(unsigned long long)count, stars,
				"****************************************", BAR_WIDTH - stars, "");
		else
			fprintf(f, "%8llu -> %-8llu : %-9llu |%.*s%*s|\n", k ? 1ULL << k : 0ULL,
				(1ULL << (k + 1)) - 1, (unsigned long long)count, stars,
				"****************************************", BAR_WIDTH - stars, "");
	}
}

static void print_within(FILE *f, const char *label, const struct idlescope_summary *s)
{
	int i;

	fprintf(f, "%-12.12s", label);
	for (i = 0; i < IDLESCOPE_NR_FACTORS; i++)
		fprintf(f, " %6.1f%%", pct(s->within[i], s->predicted));
	fprintf(f, " %10llu\n", (unsigned long long)s->predicted);
}

static void print_within_header(FILE *f)
{
	int i;

	fprintf(f, "%-12s", "% within");
	for (i = 0; i < IDLESCOPE_NR_FACTORS; i++)
		fprintf(f, " %7s", factor_labels[i]);
	fprintf(f, " %10s\n", "predicted");
}

/* "0: 1.2% 1: 50.3% ...": each state's share of the periods, one line. */
static void print_state_shares(FILE *f, const struct idlescope_summary *s, bool by_time)
{
	int st;

	fprintf(f, "states (%% of %s)", by_time ? "idle time" : "periods");
	for (st = 0; st < IDLESCOPE_MAX_STATES; st++) {
		if (!s->state_periods[st])
			continue;
		fprintf(f, " %d: %.1f%%", st, by_time ? pct(s->state_woke_ns[st], s->woke_ns) :
			pct(s->state_periods[st], s->periods));
	}
	fputc('\n', f);
}

static void print_misses(FILE *f, const struct idlescope_summary *s)
{
	fprintf(f, "kernel above %.2f%% below %.2f%% (%% of periods, cpu_idle_miss)\n",
		pct(s->miss_above, s->periods), pct(s->miss_below, s->periods));
}

void summary_dashboard_draw(FILE *f, const struct summaries *set,
			    const struct summary_view *view)
{
	struct idlescope_summary s;

	fprintf(f, "=== idlescope %.0f s: %.0f periods/s, %llu records, %llu dropped ===\n",
		view->elapsed_s, view->periods_per_s, (unsigned long long)view->records,
		(unsigned long long)view->dropped);
	if (!summaries_total(set, view->workload, &s) || !s.periods) {
		fprintf(f, "workload %.16s: no idle periods yet\n",
			view->workload[0] ? view->workload : "(untagged)");
		return;
	}
	fprintf(f, "workload %.16s, governor %s: %llu periods, %llu predicted\n",
		view->workload[0] ? view->workload : "(untagged)",
		view->governor ? view->governor : "?", (unsigned long long)s.periods,
		(unsigned long long)s.predicted);
	draw_hist(f, &s);
	if (s.predicted) {
		print_within_header(f);
		print_within(f, view->governor ? view->governor : "live", &s);
	}
	print_state_shares(f, &s, false);
	print_misses(f, &s);
}

/* The report of the summaries: per workload over the CPUs. */
struct summary_doc {
	const struct summaries *set;
	const struct run_meta *meta;
	enum live_mode mode;
};

static void print_header(FILE *f, const struct summary_doc *doc)
{
	const struct run_meta *m = doc->meta;
	__u64 records = 0, dropped = 0;
	int cpu, g;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		records += m->records_produced[cpu];
		dropped += m->dropped_records[cpu];
	}
	fprintf(f, "idlescope %s run: the BPF side's summaries, no record read in the guest\n",
		live_mode_name(doc->mode));
	fprintf(f, "kernel %s, HZ %u, driver %s, clock %s, %.1f s, %d CPUs\n",
		m->kernel_release, m->hz, m->cpuidle_driver[0] ? m->cpuidle_driver : "none",
		m->clock_mode[0] ? m->clock_mode : "unknown", m->duration_s, m->nr_cpus);
	fputs("governor", f);
	for (g = 0; g < m->nr_governors; g++)
		fprintf(f, " %s", m->governors[g]);
	fputc('\n', f);
	if (doc->mode == LIVE_LIGHT) {
		fprintf(f, "records: %llu sent, %llu dropped; the full report is the record "
			"file's: idlescope report FILE\n", (unsigned long long)records,
			(unsigned long long)dropped);
		fputs("not in this summary (in the record file's report): the models' replay "
		      "and scores, logical periods, wake-up sources, ideal states, energy, "
		      "intervals\n", f);
	} else {
		fputs("not in a lean run (no records): the models' replay and scores, their "
		      "agreement with the kernel, logical periods, wake-up sources, tick "
		      "decisions, ideal states, energy, timer lateness, intervals\n", f);
	}
}

static void print_workload(FILE *f, const struct summaries *set, const char *workload)
{
	unsigned int vals[IDLESCOPE_SUMMARY_LOG2_SLOTS];
	struct idlescope_summary s;
	char name[ESCAPE_SIZE(IDLESCOPE_WORKLOAD_LEN)];
	int k;

	summaries_total(set, workload, &s);
	escape_name(name, sizeof(name), workload, IDLESCOPE_WORKLOAD_LEN);
	fprintf(f, "\n== %s ==\n", workload[0] ? name : "(untagged)");
	fprintf(f, "periods %llu, actual idle mean %.1f us, %llu predicted\n",
		(unsigned long long)s.periods, s.periods ? s.woke_ns / 1e3 / s.periods : 0,
		(unsigned long long)s.predicted);
	if (s.predicted) {
		print_within_header(f);
		print_within(f, "governor", &s);
	}
	print_state_shares(f, &s, false);
	print_state_shares(f, &s, true);
	print_misses(f, &s);
	for (k = 0; k < IDLESCOPE_SUMMARY_LOG2_SLOTS; k++)
		vals[k] = s.woke_us_log2[k] > UINT_MAX ? UINT_MAX : s.woke_us_log2[k];
	print_log2_hist(f, vals, IDLESCOPE_SUMMARY_LOG2_SLOTS, "actual idle us");
}

static int fprint_report(FILE *f, const void *ctx)
{
	const struct summary_doc *doc = ctx;
	const struct summaries *set = doc->set;
	int i;

	print_header(f, doc);
	/* The entries are sorted by workload (summaries_sort()): each once. */
	for (i = 0; i < set->nr; i++)
		if (!i || strcmp(set->entries[i].workload, set->entries[i - 1].workload))
			print_workload(f, set, set->entries[i].workload);
	return output_stream_status(f);
}

int summary_print_report(FILE *f, struct summaries *set, const struct run_meta *meta,
			 enum live_mode mode)
{
	struct summary_doc doc = { .set = set, .meta = meta, .mode = mode };

	summaries_sort(set);

	return fprint_report(f, &doc);
}

static int fprint_summaries(FILE *f, const void *ctx)
{
	summaries_print(f, (struct summaries *)ctx);
	return output_stream_status(f);
}

int summary_write_dir(const char *dir, struct summaries *set, const struct run_meta *meta,
		      enum live_mode mode)
{
	struct summary_doc doc = { .set = set, .meta = meta, .mode = mode };
	char path[PATH_MAX];
	int err;

	summaries_sort(set);
	snprintf(path, sizeof(path), "%s/%s", dir, SUMMARY_FILE);
	err = output_write_file(path, fprint_summaries, set);
	if (!err) {
		snprintf(path, sizeof(path), "%s/%s", dir, SUMMARY_REPORT_FILE);
		err = output_write_file(path, fprint_report, &doc);
	}
	if (err)
		fprintf(stderr, "idlescope: error: writing %s: %s\n", path, strerror(-err));
	return err;
}

/* Ask /proc once for a number a record names, as stats/why.c does. */
static void name_number(struct wake_names *names, __u32 kind, __u64 value)
{
	char name[WAKE_NAME_LEN];

	if (wake_names_find(names, kind, value))
		return;
	if (symbols_resolve(NULL, kind, value, name, sizeof(name)))
		name[0] = '\0';
	wake_names_add(names, kind, value, name);
}

int summary_wake_names(const char *path, struct wake_names *names)
{
	const struct idlescope_record *rec;
	enum recfile_status status;
	struct recfile rf;

	memset(names, 0, sizeof(*names));
	if (recfile_open(&rf, path)) {
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
		return -EIO;
	}
	while ((rec = recfile_next(&rf, &status))) {
		if (!(rec->flags & IDLESCOPE_F_HAS_WAKE))
			continue;
		if (rec->wake_source == IDLESCOPE_WAKE_HRTIMER)
			name_number(names, WAKE_NAME_FUNCTION, rec->wake_fn);
		else if (rec->wake_source == IDLESCOPE_WAKE_IRQ)
			name_number(names, WAKE_NAME_IRQ, rec->wake_irq);
	}
	if (status == RECFILE_BAD)
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
	recfile_close(&rf);
	return status == RECFILE_BAD ? -EIO : 0;
}
