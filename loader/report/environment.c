// SPDX-License-Identifier: GPL-2.0
/*
 * environment.c - where the workloads' events come from, the guest's speed
 * and its late sleeps, in the report (see environment.h).
 */
#include <string.h>
#include "report/environment.h"
#include "format/numbers.h"
#include "governors.h"

/* CLOCK=virtual and CLOCK=fixed: icount without sleeping (docs/clock.md). */
static bool clock_is_virtual(const struct run_meta *meta)
{
	return !strcmp(meta->clock_mode, "virtual") || !strcmp(meta->clock_mode, "fixed");
}

bool report_host_timed(const struct run_meta *meta, const char *workload)
{
	return clock_is_virtual(meta) &&
	       event_source_of(&meta->events, workload) == EVENTS_HOST;
}

const char *report_workload_row_label(char *buf, size_t size, const struct run_meta *meta,
				      const char *workload)
{
	snprintf(buf, size, "%s%s", fmt_workload_label(workload),
		 report_host_timed(meta, workload) ? REPORT_HOST_TIMED_MARK : "");
	return buf;
}

int report_print_event_sources(FILE *f, const struct run_meta *meta)
{
	bool any_marked = false, first = true;
	int s, w, n;

	if (!meta->events.nr)
		return 0;
	fprintf(f, "events:");
	for (s = EVENTS_UNKNOWN; s < EVENTS_NR; s++) {
		n = 0;
		for (w = 0; w < meta->nr_workloads; w++) {
			if (!meta->workloads[w][0] ||
			    event_source_of(&meta->events, meta->workloads[w]) != (unsigned int)s)
				continue;
			fprintf(f, "%s%s%s", n ? ", " : first ? " " : "; ",
				n ? "" : event_source_word(s), n ? "" : ": ");
			fprintf(f, "%s", meta->workloads[w]);
			any_marked |= report_host_timed(meta, meta->workloads[w]);
			n++;
			first = false;
		}
	}
	fputc('\n', f);
	if (!any_marked)
		return 1;
	fprintf(f, "%s host-timed: under the %s clock such an event cannot end an idle period early\n",
		REPORT_HOST_TIMED_MARK, meta->clock_mode);
	return 2;
}

void report_print_guest_speed(FILE *f, const struct run_meta *meta)
{
	if (!meta->insn_ps_lo) {
		fprintf(f, "unknown");
		return;
	}
	fprintf(f, "%.2f", meta->insn_ps_lo / 1e3);
	if (meta->insn_ps_hi != meta->insn_ps_lo)
		fprintf(f, "-%.2f", meta->insn_ps_hi / 1e3);
	fprintf(f, " ns/instruction");
}

/* "boot 2 (1a2b3c4d)": an index of report.json's boots and its id's start. */
static void print_boot(FILE *f, const struct agg *agg, int boot)
{
	const char *id = agg_boot_id(agg, boot);

	fprintf(f, "boot %d", boot);
	if (id && id[0])
		fprintf(f, " (%.8s)", id);
}

int report_print_late_sleeps(FILE *f, const struct agg *agg, int max_lines)
{
	const struct agg_exclusion *x;
	struct agg_stats all;
	int i, n = agg_nr_exclusions(agg), lines = 0;

	for (i = 0; i < n && lines < max_lines; i++) {
		x = agg_exclusion(agg, i);
		if (i + 1 < n && lines + 1 == max_lines) {
			fprintf(f, "WARNING: %d more runs left out of the headline and the gate "
				"(report.json's excluded_runs)\n", n - i);
			return ++lines;
		}
		fprintf(f, "WARNING: left out of the headline and the gate: ");
		print_boot(f, agg, x->boot);
		fprintf(f, " %s %s: %s (cells marked %s)\n", governor_name(x->governor),
			fmt_workload_label(x->workload), x->reason, HEADLINE_EXCLUDED_MARK);
		lines++;
	}
	if (n || lines >= max_lines ||
	    !agg_sum(agg, AGG_ANY, AGG_ANY, AGG_ANY, &all) || !all.late_sleep_samples)
		return lines;
	fprintf(f, "WARNING: %llu of %llu idle periods ended by a sleep's timer woke more than "
		"%.0f ms late (max %.1f ms): cells marked %s\n",
		(unsigned long long)all.late_sleep_samples,
		(unsigned long long)all.sleep_woke_samples, AGG_LATE_SLEEP_NS / 1e6,
		all.late_sleep_max_ns / 1e6, HEADLINE_EXCLUDED_MARK);
	return ++lines;
}

void report_print_exit_spent(FILE *f, const struct agg *agg)
{
	const struct exit_spent *es;
	int i, n = 0;

	for (i = 0; i < agg_nr_states(agg); i++) {
		es = agg_exit_spent(agg, i);
		if (!es->count)
			continue;
		if (!n++)
			fprintf(f, "  %-14s after the wake-up, us: state (declared) p50 p99 max, "
				"periods; no score counts it\n", "exit spent");
		fprintf(f, "  %-14s %d (%.1f) %.1f %.1f %.1f, %llu\n", "", i,
			agg_state(agg, i)->exit_latency_ns / 1e3,
			exit_spent_percentile_ns(es, 50) / 1e3,
			exit_spent_percentile_ns(es, 99) / 1e3, es->max_ns / 1e3,
			(unsigned long long)es->count);
	}
}
