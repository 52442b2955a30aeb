// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - turn a struct agg into report.txt, what people read.  report.txt starts with the one-screen headline and
 * the seed's experiment (report/headline.c) and a note on method; then one
 * section per workload across the governors that ran it: each governor's
 * within-F shares, ideal-state and kernel verdicts (all with intervals)
 * and idle time per state side by side.  Those tables are built once as
 * cells (report/tables.c), so summary.md prints the very same numbers.
 *
 * Then it walks every workload x governor that has records: sample
 * counts, the seed's factor table, the shadow replay on that governor's
 * own periods (next to the seed's published numbers), state choices,
 * too-deep / too-shallow counts, then the all-CPUs and per-CPU histograms.  report.json carries the
 * same numbers unrounded (report/json.c); the shared tables are built in
 * report/tables.c.
 *
 * Every document is written atomically (output/file.h); the metadata they
 * print is built, and the set of -o DIR written, by report/set.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "report/environment.h"
#include "report/headline.h"
#include "report/logicalview.h"
#include "report/causes.h"
#include "report/figures.h"
#include "format/escape.h"
#include "stats/sat.h"
#include "replay/inputs.h"
#include "stats/lateness.h"
#include "report/report.h"
#include "format/table.h"
#include "governors.h"
#include "format/numbers.h"
#include "output/file.h"

/* ---- text report ----------------------------------------------------- */

void report_print_factor_table(FILE *f, const struct agg_stats *st)
{
	int i;

	if (!st->predicted_samples) {
		fprintf(f, "    (no predictions recorded)\n");
		return;
	}
	fprintf(f, "    %-8s %12s %8s\n", "within", "samples", "%");
	for (i = 0; i < AGG_NR_FACTORS; i++)
		fprintf(f, "    %-8s %12llu %7.1f%%\n", agg_factors[i].label,
			(unsigned long long)st->within_factor[i],
			fmt_percent(st->within_factor[i], st->predicted_samples));
}

/*
 * Text tables: row labels at least 8 wide, the other columns wide enough
 * for their header and for "100.0" or a count.
 */
#define TEXT_INDENT		"    "
#define TEXT_LABEL_WIDTH	8
#define TEXT_MIN_WIDTH		7

static void print_table(FILE *f, const struct table *t)
{
	table_print_text(f, t, TEXT_INDENT, TEXT_LABEL_WIDTH, TEXT_MIN_WIDTH);
}

/* The test of the models: the running governor's must reproduce it. */
static void print_agreements(FILE *f, const struct agg *agg,
			     const struct agg_stats *st)
{
	char line[256];
	int s;

	for (s = 0; s < agg_nr_shadows(agg); s++) {
		if (headline_format_agreement(line, sizeof(line), agg, st, s))
			fprintf(f, "%s%s\n", TEXT_INDENT, line);
		if (headline_format_state_agreement(line, sizeof(line), agg, st, s))
			fprintf(f, "%s%s\n", TEXT_INDENT, line);
	}
}

void report_print_shadow_table(FILE *f, const struct agg *agg,
			       const struct agg_stats *st)
{
	struct table t;

	if (!agg_nr_shadows(agg))
		return;
	report_shadow_table(agg, st, true, &t);
	print_table(f, &t);
	if (report_shadow_states_table(agg, st, &t)) {
		fprintf(f, "\n  shadow state choices, all CPUs (%% of the periods each model chose a state\n"
			"  on: its state against the ideal one; live = the state entered):\n");
		print_table(f, &t);
	}
	print_agreements(f, agg, st);
}

static void print_states(FILE *f, const struct agg *agg,
			 const struct agg_stats *st)
{
	int nr = report_nr_states_shown(agg, st), i;

	fprintf(f, "    %-5s %12s %7s %12s %12s %12s\n", "state", "entered",
		"%", "chosen", "target_us", "exit_us");
	for (i = 0; i < nr; i++) {
		const struct agg_state_info *info = agg_state(agg, i);

		fprintf(f, "    %-5d %12llu %6.1f%% %12llu", i,
			(unsigned long long)st->state_entered[i],
			fmt_percent(st->state_entered[i], st->samples),
			(unsigned long long)st->state_chosen[i]);
		if (info)
			fprintf(f, " %12.3f %12.3f%s\n",
				fmt_ns_to_us(info->target_residency_ns),
				fmt_ns_to_us(info->exit_latency_ns),
				info->disabled ? " (disabled)" : "");
		else
			fprintf(f, " %12s %12s\n", "-", "-");
	}
	if (st->invalid_state_samples)
		fprintf(f, "    %llu samples with a state index out of range\n",
			(unsigned long long)st->invalid_state_samples);
}

static void print_misses(FILE *f, const struct agg *agg,
			 const struct agg_stats *st)
{
	fprintf(f, "    %-12s %12s %7s %12s %7s\n", "", "kernel", "%",
		"cross-check", "%");
	fprintf(f, "    %-12s %12llu %6.1f%% ", "above",
		(unsigned long long)st->miss_above_samples,
		fmt_percent(st->miss_above_samples, st->samples));
	if (agg_nr_states(agg))
		fprintf(f, "%12llu %6.1f%%\n",
			(unsigned long long)st->too_deep_samples,
			fmt_percent(st->too_deep_samples, st->crosscheck_samples));
	else
		fprintf(f, "%12s\n", "-");
	fprintf(f, "    %-12s %12llu %6.1f%% ", "below",
		(unsigned long long)st->miss_below_samples,
		fmt_percent(st->miss_below_samples, st->samples));
	if (agg_nr_states(agg))
		fprintf(f, "%12llu %6.1f%%\n",
			(unsigned long long)st->too_shallow_samples,
			fmt_percent(st->too_shallow_samples, st->crosscheck_samples));
	else
		fprintf(f, "%12s\n", "-");
	if (agg_nr_states(agg))
		fprintf(f, "    (kernel %% of %llu samples, cross-check %% of %llu checked against the state table)\n",
			(unsigned long long)st->samples,
			(unsigned long long)st->crosscheck_samples);
}

static void print_workload_view(FILE *f, const struct agg *agg, int workload)
{
	struct report_workload_view view;
	struct table t;

	if (!report_workload_view(agg, workload, &view))
		return;
	fprintf(f, "\n== workload %s, across governors ==\n",
		fmt_workload_label(agg_workload_name(agg, workload)));
	fprintf(f, "  live runs, all CPUs: %% with 95%% interval; within F: of predictions (\"-\": none);\n"
		"  ideal: of periods; shallow time: of idle time; kernel: cpu_idle_miss, of periods\n");
	report_live_table(&view, &t);
	print_table(f, &t);

	fprintf(f, "\n  share of idle time per state (%%), all CPUs:\n");
	report_states_table(agg, &view, &t);
	print_table(f, &t);

	fprintf(f, "\n  why it missed and what it cost, all CPUs: intercepts of periods a known\n"
		"  source ended; tick: of periods it was stopped / kept; vs the oracle: energy,\n"
		"  exit latency per wake-up, idle time in a shallower state (see method):\n");
	report_why_table(agg, &view, &t);
	print_table(f, &t);

	/* Never pooled: a model's score on one governor's run says nothing of another's. */
	if (agg_nr_shadows(agg))
		fprintf(f, "\n  shadow replay: in each governor's section below, on its own periods\n");
}

/* What the numbers mean, once, after the headline. */
static void print_method(FILE *f, const struct agg *agg)
{
	char inputs[96];
	int s;

	fprintf(f, "\n== method ==\n");
	report_print_definitions(f);
	fprintf(f, "  intervals: 95%%, batch means over consecutive periods of a CPU (batches of 32,\n"
		"    256 or 2048, the longest with >= 20 batches); idle periods are autocorrelated,\n"
		"    so a binomial (Wilson) interval would be too narrow.  No \"±\": under 4 batches;\n"
		"    \"±?\": too few independent samples for an interval.\n"
		"  actual: every score judges a period from its entry to its wake-up, where the\n"
		"    idle state's halt returned, not to its exit: the exit latency the state spends\n"
		"    after the wake-up is the cost of the choice (\"exit spent\" above), not part of\n"
		"    the period.  The residencies and the kernel's own rule keep entry to exit.\n"
		"  ideal state: the deepest enabled state whose target residency <= the period and\n"
		"    whose exit latency <= the PM QoS limit (when recorded); hit / deeper / shallower\n"
		"    than ideal compare the entered state with it (a logical period: by the time\n"
		"    each of its states held it).  The kernel's cpu_idle_miss differs:\n"
		"    it subtracts the entered state's exit latency before calling it too shallow,\n"
		"    looks one enabled state deeper only, and ignores the PM QoS limit.\n");
	why_print_method(f, agg);
	if (agg_nr_shadows(agg))
		fprintf(f, "  shadow models are scored per host governor, on periods whose record\n"
			"  holds their inputs (the others are counted as excluded):\n");
	for (s = 0; s < agg_nr_shadows(agg); s++) {
		inputs_format(inputs, sizeof(inputs), agg_shadow_inputs(agg, s));
		fprintf(f, "    %-12s needs %s\n", agg_shadow_name(agg, s), inputs);
	}
}

static void print_pair_summary(FILE *f, const struct agg_stats *st)
{
	fprintf(f, "  samples %llu, predicted %llu (%.1f%%)\n",
		(unsigned long long)st->samples,
		(unsigned long long)st->predicted_samples,
		fmt_percent(st->predicted_samples, st->samples));
	fprintf(f, "  residency mean %.3f us, min %.3f us, max %.3f us\n",
		st->samples ? fmt_ns_to_us(st->residency_sum_ns) / st->samples : 0.0,
		fmt_ns_to_us(st->residency_min_ns), fmt_ns_to_us(st->residency_max_ns));
	if (st->predicted_samples)
		fprintf(f, "  prediction mean %.3f us\n",
			fmt_ns_to_us(st->predicted_sum_ns) / st->predicted_samples);
}

static void print_histograms(FILE *f, const struct agg_stats *st,
			     const char *scope)
{
	fprintf(f, "\n  residency, %s:\n", scope);
	print_log2_hist(f, st->residency_us_hist, AGG_LOG2_SLOTS, "usecs");
	if (!st->predicted_samples)
		return;
	fprintf(f, "\n  prediction, %s:\n", scope);
	print_log2_hist(f, st->predicted_us_hist, AGG_LOG2_SLOTS, "usecs");
	fprintf(f, "\n  prediction/actual ratio, %s:\n", scope);
	print_ratio_hist(f, st->ratio_hist);
}

static void print_pair(FILE *f, const struct agg *agg, int workload,
		       int governor, const struct agg_stats *all)
{
	const struct agg_stats *st;
	char scope[32];
	int cpu;

	fprintf(f, "\n== workload %s, governor %s ==\n",
		fmt_workload_label(agg_workload_name(agg, workload)),
		governor_name(governor));
	print_pair_summary(f, all);

	fprintf(f, "\n  prediction within factor F of actual (%% of %llu predicted samples):\n",
		(unsigned long long)all->predicted_samples);
	report_print_factor_table(f, all);

	if (agg_nr_shadows(agg)) {
		fprintf(f, "\n  shadow replay, all CPUs (%% of each column's predictions within F of actual;\n"
			"  live = the running governor's; 2010 = the seed's published run, for reference):\n");
		report_print_shadow_table(f, agg, all);
	}

	fprintf(f, "\n  states:\n");
	print_states(f, agg, all);
	fprintf(f, "\n  wrong state choices:\n");
	print_misses(f, agg, all);
	report_print_why(f, agg, workload, governor);

	print_histograms(f, all, "all CPUs");
	for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++) {
		st = agg_get(agg, workload, governor, cpu);
		if (!st)
			continue;
		snprintf(scope, sizeof(scope), "CPU %d (%llu samples)", cpu,
			 (unsigned long long)st->samples);
		fprintf(f, "\n  residency, %s:\n", scope);
		print_log2_hist(f, st->residency_us_hist, AGG_LOG2_SLOTS,
				"usecs");
	}
}

/* A name from a record file on one line of a terminal (format/escape.h). */
static void print_one_line(FILE *f, const char *s)
{
	escape_fputs(f, s, SIZE_MAX);
}

/* IDLESCOPE_CAP_* bit by bit, as the report names them. */
static const char *const capability_names[] = {
	"observation", "menu2010 governors", "select probes", "cpu_idle_miss",
	"timer lateness", "wake-up sources",
};

const char *report_capability_name(unsigned int bit)
{
	if (bit >= sizeof(capability_names) / sizeof(capability_names[0]))
		return NULL;
	return capability_names[bit];
}

/*
 * Lost on the way (ring buffer full, missing from the records' sequence
 * numbers, a cut-short record) or not counted.  The trailer's drops
 * include the sequence's gaps, which count on their own only beyond them
 * or without a trailer.
 */
static __u64 records_missing(const struct agg *agg, const struct run_meta *meta)
{
	__u64 dropped = run_meta_dropped(meta);

	return sat_add(sat_add(dropped > meta->seq_lost ? dropped : meta->seq_lost,
			       meta->records_cut_short), agg_rejected_records(agg));
}

static void print_lateness(FILE *f, const struct run_meta *meta)
{
	const struct idlescope_lateness *l = &meta->lateness;

	if (!run_meta_trailer_known(meta)) {
		fprintf(f, "unknown (a record file without its trailer)\n");
		return;
	}
	if (!l->count) {
		fprintf(f, "not measured\n");
		return;
	}
	fprintf(f, "median %.1f us, p99 %.1f us, max %.1f us (%llu wake-ups)\n",
		lateness_percentile_ns(l, 50) / 1e3, lateness_percentile_ns(l, 99) / 1e3,
		l->max_ns / 1e3, (unsigned long long)l->count);
}

/*
 * "RELEASE<sep>HZ N, cpuidle driver NAME": the kernel part of the first
 * summary line (sep ", ") and of the detail header (sep " (", closed there).
 */
static void print_kernel(FILE *f, const struct run_meta *meta, const char *sep)
{
	print_one_line(f, meta->kernel_release);
	if (meta->hz)
		fprintf(f, "%sHZ %u, cpuidle driver ", sep, meta->hz);
	else
		fprintf(f, "%sHZ unknown, cpuidle driver ", sep);
	print_one_line(f, meta->cpuidle_driver[0] ? meta->cpuidle_driver : "none");
}

static void print_clock_mode(FILE *f, const struct run_meta *meta)
{
	print_one_line(f, meta->clock_mode[0] ? meta->clock_mode : "unknown");
}

/*
 * The losses line.  Without a trailer the drops are unknown, and the
 * gaps in the records' sequence numbers are what is known of them; they
 * are named too when they are more than the trailer's drops.
 */
static void print_losses(FILE *f, const struct agg *agg, const struct run_meta *meta)
{
	__u64 dropped = run_meta_dropped(meta);

	if (!run_meta_trailer_known(meta))
		fprintf(f, "WARNING: drops unknown (a record file without its trailer), ");
	else if (!records_missing(agg, meta))
		fprintf(f, "no idle period lost: no drops, nothing cut short or rejected\n");
	else
		fprintf(f, "WARNING: %llu idle periods dropped (ring buffer full), ",
			(unsigned long long)dropped);
	if (!run_meta_trailer_known(meta) || meta->seq_lost > dropped)
		fprintf(f, "%llu missing from the period sequence, ",
			(unsigned long long)meta->seq_lost);
	if (!run_meta_trailer_known(meta) || records_missing(agg, meta))
		fprintf(f, "%llu cut short, %llu rejected: the numbers below miss them\n",
			(unsigned long long)meta->records_cut_short,
			(unsigned long long)agg_rejected_records(agg));
}

/*
 * The report's first lines (at most REPORT_SUMMARY_LINES), within the
 * headline's 60: the kernel, the clock and how late its timers fired, a
 * WARNING line when sleeps woke far too late, and what was lost (a WARNING
 * line when anything was).  The header after the headline has the rest.
 * Returns the lines printed.
 */
/* The first screen's lines for the runs left out; the rest are in report.json. */
#define REPORT_MAX_EXCLUSION_LINES	5

static int print_fidelity_summary(FILE *f, const struct agg *agg,
				  const struct run_meta *meta)
{
	int late;

	fprintf(f, "idlescope report (schema %d): kernel ", REPORT_SCHEMA_VERSION);
	print_kernel(f, meta, ", ");
	fprintf(f, "\nclock ");
	print_clock_mode(f, meta);
	fprintf(f, ", guest speed ");
	report_print_guest_speed(f, meta);
	fprintf(f, ", exit cost %s, timer lateness ", recfile_exit_cost_name(meta->exit_cost));
	print_lateness(f, meta);
	late = report_print_late_sleeps(f, agg, REPORT_MAX_EXCLUSION_LINES);
	print_losses(f, agg, meta);
	return 3 + late;
}

/*
 * What decides whether the numbers below can be trusted: the kernel and
 * its tick, the guest's clock and how late its timers fired, what was
 * lost, what the kernel let idlescope see.  First, so nobody misses it.
 */
static void print_fidelity(FILE *f, const struct agg *agg, const struct run_meta *meta)
{
	unsigned int i, n = 0;

	fprintf(f, "  %-14s ", "kernel");
	print_kernel(f, meta, " (");
	fprintf(f, ")\n  %-14s ", "clock");
	print_clock_mode(f, meta);
	if (meta->clock_args[0]) {
		fprintf(f, " (");
		print_one_line(f, meta->clock_args);
		fputc(')', f);
	}
	fprintf(f, "\n  %-14s ", "guest speed");
	report_print_guest_speed(f, meta);
	fprintf(f, "\n  %-14s %s (the idle states %s their declared exit latency on exit)\n",
		"exit cost", recfile_exit_cost_name(meta->exit_cost),
		meta->exit_cost == RECFILE_EXIT_COST_ON ? "spend" :
		meta->exit_cost == RECFILE_EXIT_COST_SPREAD ? "spend a spread share of" :
		meta->exit_cost == RECFILE_EXIT_COST_OFF ? "do not spend" : "may or may not spend");
	report_print_exit_spent(f, agg);
	fprintf(f, "  %-14s ", "timer lateness");
	print_lateness(f, meta);
	fprintf(f, "  %-14s", "capabilities");
	for (i = 0; report_capability_name(i); i++)
		if (meta->capabilities & (1U << i))
			fprintf(f, "%s%s", n++ ? ", " : " ", report_capability_name(i));
	fprintf(f, "%s\n", n ? "" : " none");
}

/*
 * Whether the periods carry predictions, and which of them were rebuilt
 * from stock menu's data rather than read from the kernel.
 */
static void print_predictions(FILE *f, const struct run_meta *meta)
{
	const struct reconstruct_stats *rs = &meta->reconstruct;

	fprintf(f, "  %-14s %s", "predictions",
		meta->predictions_available ? "available" : "not available");
	if (rs->reconstructed || rs->unresolved)
		fprintf(f, ", reconstructed from menu's data on %llu periods "
			"(%llu left unknown: PM QoS limit not seen)",
			(unsigned long long)rs->reconstructed,
			(unsigned long long)rs->unresolved);
	fputc('\n', f);
	if (rs->checked)
		fprintf(f, "  %-14s matches the kernel's own prediction on %.1f%% (%llu of %llu) of periods\n",
			"reconstruction", fmt_percent(rs->agreed, rs->checked),
			(unsigned long long)rs->agreed, (unsigned long long)rs->checked);
}

/* A count the trailer gave, or "unknown" without it, right-aligned in @width. */
static void print_trailer_count(FILE *f, const struct run_meta *meta, int width, __u64 val)
{
	if (run_meta_trailer_known(meta))
		fprintf(f, "%*llu", width, (unsigned long long)val);
	else
		fprintf(f, "%*s", width, "unknown");
}

/* Per CPU: records read or produced, and dropped. */
static void print_cpu_counts(FILE *f, const struct run_meta *meta)
{
	int i;

	fprintf(f, "\n  %-5s %14s %14s\n", "cpu", "records", "dropped");
	for (i = 0; i < meta->nr_cpus && i < IDLESCOPE_MAX_CPUS; i++) {
		fprintf(f, "  %-5d %14llu ", i, (unsigned long long)meta->records_produced[i]);
		print_trailer_count(f, meta, 14, meta->dropped_records[i]);
		fputc('\n', f);
	}
	fprintf(f, "  %-5s %14llu ", "all", (unsigned long long)run_meta_produced(meta));
	print_trailer_count(f, meta, 14, run_meta_dropped(meta));
	fprintf(f, "\n  %-14s ", "idle entries");
	print_trailer_count(f, meta, 0, meta->sysfs_usage_delta);
	fprintf(f, " (sysfs cpuidle usage over the same window)\n");
}

static void print_skipped(FILE *f, const struct run_meta *meta)
{
	char name[ESCAPE_SIZE(RUN_NAME_LEN)];
	int i;

	if (!meta->nr_skipped)
		return;
	fprintf(f, "\n  skipped BPF programs:\n");
	for (i = 0; i < meta->nr_skipped; i++) {
		fprintf(f, "    %-28s ", escape_name(name, sizeof(name), meta->skipped[i].name,
						    sizeof(meta->skipped[i].name)));
		print_one_line(f, meta->skipped[i].reason);
		fputc('\n', f);
	}
}

static void print_header(FILE *f, const struct agg *agg,
			 const struct run_meta *meta)
{
	char start[32];
	int i;

	fmt_utc(start, sizeof(start), meta->start_time);
	fprintf(f, "== run ==\n");
	print_fidelity(f, agg, meta);
	fprintf(f, "  %-14s %s\n", "start (UTC)", start);
	if (run_meta_trailer_known(meta))
		fprintf(f, "  %-14s %.3f s\n", "duration", meta->duration_s);
	else
		fprintf(f, "  %-14s unknown\n", "duration");
	fprintf(f, "  %-14s", "governors");
	for (i = 0; i < meta->nr_governors; i++)
		fprintf(f, "%s%s", i ? ", " : " ", meta->governors[i]);
	fprintf(f, "\n  %-14s", "workloads");
	/* Workload names are printable already (stats/aggregate.h). */
	for (i = 0; i < meta->nr_workloads; i++)
		fprintf(f, "%s%s", i ? ", " : " ", fmt_workload_label(meta->workloads[i]));
	fputc('\n', f);
	print_predictions(f, meta);
	if (run_meta_trailer_known(meta))
		fprintf(f, "  %-14s %llu bytes\n", "ring buffer",
			(unsigned long long)meta->ringbuf_size_bytes);
	else
		fprintf(f, "  %-14s unknown\n", "ring buffer");
	print_cpu_counts(f, meta);
	if (agg_nr_shadows(agg)) {
		fprintf(f, "  %-14s", "shadow models");
		for (i = 0; i < agg_nr_shadows(agg); i++)
			fprintf(f, "%s%s", i ? ", " : " ",
				agg_shadow_name(agg, i));
		fprintf(f, " (%llu history resets on gaps in a CPU's periods)\n",
			(unsigned long long)meta->shadow_replay_resets);
	}
	if (agg_rejected_records(agg))
		fprintf(f, "  %llu records rejected by the aggregator (bad cpu/governor or too many workloads)\n",
			(unsigned long long)agg_rejected_records(agg));

	print_skipped(f, meta);
}

int report_fprint_text(FILE *f, const struct agg *agg,
		       const struct run_meta *meta)
{
	struct agg_stats all;
	int w, g, budget, why_lines;

	errno = 0;
	/* Whether the numbers can be trusted comes before the numbers. */
	budget = HEADLINE_MAX_LINES - print_fidelity_summary(f, agg, meta);
	why_lines = why_headline_lines(agg, budget);
	headline_print(f, agg, meta, budget - why_lines);
	why_headline_print(f, agg, why_lines);
	headline_print_seed_methods(f, agg);
	headline_print_continued(f, agg, meta);
	figures_fprint_text(f, meta->figures);
	print_method(f, agg);
	report_print_logical(f, agg);
	fputc('\n', f);
	print_header(f, agg, meta);
	for (w = 0; w < agg_nr_workloads(agg); w++)
		print_workload_view(f, agg, w);
	for (w = 0; w < agg_nr_workloads(agg); w++)
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			if (agg_sum(agg, w, g, AGG_ANY, &all))
				print_pair(f, agg, w, g, &all);
	return output_stream_status(f);
}

int report_write_text(const struct agg *agg, const struct run_meta *meta,
		      const char *path)
{
	return report_write_doc(path, report_fprint_text, agg, meta);
}
