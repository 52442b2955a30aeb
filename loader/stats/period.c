// SPDX-License-Identifier: GPL-2.0
/*
 * period.c - a record's period as the scores judge it (see period.h).
 */
#include <string.h>
#include "stats/period.h"
#include "stats/sat.h"

void period_exits_of(struct period_exits *px, const struct idlescope_state *states,
		     int nr_states, bool exit_cost_on)
{
	int i;

	memset(px, 0, sizeof(*px));
	for (i = 0; exit_cost_on && i < nr_states && i < IDLESCOPE_MAX_STATES; i++)
		if (!states[i].polling)
			px->untimed_ns[i] = states[i].exit_latency_ns;
}

__u64 period_woke_ns(const struct idlescope_record *rec, const struct period_exits *px)
{
	__u64 exit_ns = 0;

	if (rec->flags & IDLESCOPE_F_EXIT_TIMED)
		return rec->exit_ns <= rec->residency_ns ? rec->residency_ns - rec->exit_ns :
		       rec->residency_ns;
	if (px && rec->state >= 0 && rec->state < IDLESCOPE_MAX_STATES)
		exit_ns = px->untimed_ns[rec->state];
	/* A residency no longer than the exit never halted: it spent none. */
	return exit_ns < rec->residency_ns ? rec->residency_ns - exit_ns : rec->residency_ns;
}

void period_of_record(struct period *p, const struct idlescope_record *rec,
		      unsigned int inputs, const struct period_exits *px)
{
	memset(p, 0, sizeof(*p));
	p->rec = rec;
	p->woke_ns = period_woke_ns(rec, px);
	p->exit_ns = rec->residency_ns - p->woke_ns;
	p->inputs = inputs;
	p->nr_raw = 1;
	if (rec->state >= 0 && rec->state < IDLESCOPE_MAX_STATES)
		p->state_ns[rec->state] = p->woke_ns;
}

bool period_shares(const __u64 *state_ns, int nr_states, int ideal, int fallback,
		   struct period_shares *out)
{
	__u64 total_ns = 0, hit_ns = 0, deeper_ns = 0, shallow_ns = 0;
	int s;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < nr_states && s < IDLESCOPE_MAX_STATES; s++) {
		sat_inc(&total_ns, state_ns[s]);
		if (s == ideal)
			sat_inc(&hit_ns, state_ns[s]);
		else if (s > ideal)
			sat_inc(&deeper_ns, state_ns[s]);
		else
			sat_inc(&shallow_ns, state_ns[s]);
	}
	if (!total_ns) {
		if (fallback < 0 || fallback >= nr_states)
			return false;
		out->hit = fallback == ideal;
		out->deeper = fallback > ideal;
		out->shallower = fallback < ideal;
		return true;
	}
	out->hit = (double)hit_ns / total_ns;
	out->deeper = (double)deeper_ns / total_ns;
	out->shallower = (double)shallow_ns / total_ns;
	out->shallow_ns = shallow_ns;
	return true;
}
