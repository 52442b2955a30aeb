// SPDX-License-Identifier: GPL-2.0
/*
 * logical.c - raw idle periods merged into logical ones (see logical.h).
 */
#include <string.h>
#include "stats/logical.h"
#include "stats/sat.h"

void logical_init(struct logical *lg, int nr_shadows)
{
	memset(lg, 0, sizeof(*lg));
	lg->nr_shadows = nr_shadows < PERIOD_MAX_SHADOWS ? nr_shadows : PERIOD_MAX_SHADOWS;
}

bool logical_tick_only(const struct idlescope_record *rec)
{
	return (rec->flags & (IDLESCOPE_F_TICK_ENDED | IDLESCOPE_F_SLEEP_WOKE |
			      IDLESCOPE_F_TIMER_LIST)) == IDLESCOPE_F_TICK_ENDED;
}

bool logical_close(struct logical *lg, int cpu, struct period *closed, int *workload)
{
	struct logical_cpu *c = &lg->cpus[cpu];

	if (!c->open)
		return false;
	c->open = false;
	*closed = (struct period) {
		.rec = &c->rec,
		.woke_ns = c->woke_ns,
		.exit_ns = c->exit_ns,
		.inputs = c->inputs,
		.nr_raw = c->nr_periods,
	};
	memcpy(closed->state_ns, c->state_ns, sizeof(closed->state_ns));
	if (lg->nr_shadows) {
		closed->shadows = c->shadows;
		/* Of one raw period, each model's chosen state held all of it. */
		if (c->nr_periods > 1)
			closed->shadow_state_ns =
				(const __u64 (*)[IDLESCOPE_MAX_STATES])c->shadow_state_ns;
	}
	*workload = c->workload;
	lg->logical_periods++;
	return true;
}

/* @rec goes on from the open period of @c: its next, and straight back to idle. */
static bool continues(const struct logical_cpu *c, const struct idlescope_record *rec)
{
	return c->open && c->tick_only && rec->seq == (__u32)(c->last_seq + 1) &&
	       (rec->flags & IDLESCOPE_F_IDLE_CONTINUED) && rec->governor == c->rec.governor;
}

/* A new logical period on @c, from raw period @p. */
static void open_period(struct logical *lg, struct logical_cpu *c, const struct period *p,
			int workload)
{
	int s;

	c->open = true;
	c->workload = workload;
	c->nr_periods = 0;
	c->rec = *p->rec;
	c->rec.residency_ns = 0;
	c->rec.kernel_residency_ns = 0;
	c->inputs = p->inputs;
	memset(c->state_ns, 0, sizeof(c->state_ns));
	memset(c->shadow_state_ns, 0, sizeof(c->shadow_state_ns));
	for (s = 0; s < lg->nr_shadows; s++) {
		c->shadows[s] = p->shadows ? p->shadows[s] : (struct agg_shadow_period) {
			.predicted_ns = IDLESCOPE_UNKNOWN_NS, .chosen_state = -1,
		};
		/* The running governor's model was checked on the raw periods. */
		c->shadows[s].agreement = -1;
		c->shadows[s].state_agreement = -1;
	}
}

/*
 * Raw period @p into the open logical one: its wake-up is the logical
 * period's so far, its states' times and its models' add up.
 */
static void extend_period(struct logical *lg, struct logical_cpu *c, const struct period *p)
{
	const struct idlescope_record *rec = p->rec;
	int s, chosen;

	/* The periods before it lasted to their exits, before this wake-up. */
	c->woke_ns = sat_add(c->rec.residency_ns, p->woke_ns);
	c->exit_ns = p->exit_ns;
	sat_inc(&c->rec.residency_ns, rec->residency_ns);
	sat_inc(&c->rec.kernel_residency_ns, rec->kernel_residency_ns);
	for (s = 0; s < IDLESCOPE_MAX_STATES; s++)
		sat_inc(&c->state_ns[s], p->state_ns[s]);
	for (s = 0; p->shadows && s < lg->nr_shadows; s++) {
		chosen = p->shadows[s].chosen_state;
		if (chosen >= 0 && chosen < IDLESCOPE_MAX_STATES)
			sat_inc(&c->shadow_state_ns[s][chosen], p->woke_ns);
	}
}

bool logical_ends(const struct logical *lg, const struct period *p)
{
	const struct logical_cpu *c = &lg->cpus[p->rec->cpu];

	return c->open && !continues(c, p->rec);
}

void logical_take(struct logical *lg, const struct period *p, int workload)
{
	const struct idlescope_record *rec = p->rec;
	struct logical_cpu *c = &lg->cpus[rec->cpu];

	lg->raw_periods++;
	if (!continues(c, rec))
		open_period(lg, c, p, workload);
	extend_period(lg, c, p);
	c->nr_periods++;
	c->tick_only = logical_tick_only(rec);
	c->last_seq = rec->seq;
}
