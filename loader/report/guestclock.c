// SPDX-License-Identifier: GPL-2.0
/*
 * guestclock.c - the guest's speed and its late sleeps, for the report's
 * first lines (see guestclock.h).
 */
#include "report/guestclock.h"
#include "report/headline.h"

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

int report_print_late_sleeps(FILE *f, const struct agg *agg)
{
	struct agg_stats all;

	if (!agg_sum(agg, AGG_ANY, AGG_ANY, AGG_ANY, &all) || !all.late_sleep_samples)
		return 0;
	fprintf(f, "WARNING: %llu of %llu idle periods ended by a sleep's timer woke more than "
		"%.0f ms late (max %.1f ms): cells marked %s\n",
		(unsigned long long)all.late_sleep_samples,
		(unsigned long long)all.sleep_woke_samples, AGG_LATE_SLEEP_NS / 1e6,
		all.late_sleep_max_ns / 1e6, HEADLINE_LATE_MARK);
	return 1;
}
