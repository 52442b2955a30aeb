// SPDX-License-Identifier: GPL-2.0
/*
 * logical.c - raw idle periods merged into logical ones (see logical.h).
 */
#include <string.h>
#include "stats/logical.h"

void logical_init(struct logical *lg, struct agg *agg, int nr_shadows)
{
	memset(lg, 0, sizeof(*lg));
	lg->agg = agg;
	lg->nr_shadows = nr_shadows < AGG_MAX_SHADOWS ? nr_shadows : AGG_MAX_SHADOWS;
}

bool logical_tick_only(const struct idlescope_record *rec)
{
	return (rec->flags & (IDLESCOPE_F_TICK_ENDED | IDLESCOPE_F_SLEEP_WOKE)) ==
	       IDLESCOPE_F_TICK_ENDED;
}

/* The open period of @c, scored as one: its models' first predictions and states. */
static void score(struct logical *lg, struct logical_cpu *c)
{
	if (!c->open)
		return;
	c->open = false;
	if (agg_add(lg->agg, &c->rec))
		return;
	lg->logical_periods++;
	if (lg->nr_shadows)
		agg_add_shadows(lg->agg, &c->rec, 0, lg->nr_shadows, c->shadows);
}

/* @rec goes on from the open period of @c: its next, and straight back to idle. */
static bool continues(const struct logical_cpu *c, const struct idlescope_record *rec)
{
	return c->open && c->tick_only && rec->seq == (__u32)(c->last_seq + 1) &&
	       (rec->flags & IDLESCOPE_F_IDLE_CONTINUED) && rec->governor == c->rec.governor;
}

void logical_add(struct logical *lg, const struct idlescope_record *rec,
		 const struct agg_shadow_period *shadows)
{
	struct logical_cpu *c;
	int s;

	if (rec->cpu >= IDLESCOPE_MAX_CPUS)
		return;
	c = &lg->cpus[rec->cpu];
	lg->raw_periods++;
	if (continues(c, rec)) {
		c->rec.residency_ns += rec->residency_ns;
		c->rec.kernel_residency_ns += rec->kernel_residency_ns;
	} else {
		score(lg, c);
		c->open = true;
		c->nr_periods = 0;
		c->rec = *rec;
		for (s = 0; s < lg->nr_shadows; s++) {
			c->shadows[s] = shadows ? shadows[s] : (struct agg_shadow_period) {
				.predicted_ns = IDLESCOPE_UNKNOWN_NS, .chosen_state = -1,
			};
			/* The running governor's model was checked on the raw periods. */
			c->shadows[s].agreement = -1;
			c->shadows[s].state_agreement = -1;
		}
	}
	c->nr_periods++;
	c->tick_only = logical_tick_only(rec);
	c->last_seq = rec->seq;
}

void logical_flush(struct logical *lg)
{
	int cpu;

	for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++)
		score(lg, &lg->cpus[cpu]);
}
