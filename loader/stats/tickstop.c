// SPDX-License-Identifier: GPL-2.0
/*
 * tickstop.c - the tick decision judged (see stats/tickstop.h).
 */
#include "stats/tickstop.h"

enum tick_verdict tick_verdict_of(const struct idlescope_record *rec, __u64 woke_ns,
				  __u64 tick_ns)
{
	if (!(rec->flags & IDLESCOPE_F_SELECT_PROBED))
		return TICK_UNDECIDED;
	if (rec->flags & IDLESCOPE_F_STOP_TICK) {
		if (!tick_ns)
			return TICK_UNDECIDED;
		return rec->enter_ns + woke_ns < tick_next_ns(rec->enter_ns, tick_ns) ?
		       TICK_STOPPED_SHORT : TICK_STOPPED_PAID;
	}
	if (!(rec->flags & IDLESCOPE_F_HAS_WAKE))
		return TICK_KEPT_UNKNOWN;
	if (rec->wake_source == IDLESCOPE_WAKE_TICK && !(rec->flags & IDLESCOPE_F_WAKE_RESCHED))
		return TICK_KEPT_NEEDLESS;
	return TICK_KEPT_OK;
}

void tick_stats_add(struct tick_stats *ts, enum tick_verdict verdict)
{
	switch (verdict) {
	case TICK_UNDECIDED:
		return;
	case TICK_STOPPED_SHORT:
	case TICK_STOPPED_PAID:
		ts->stopped++;
		ts->stopped_short += verdict == TICK_STOPPED_SHORT;
		ci_add_hit(&ts->stopped_short_ci, verdict == TICK_STOPPED_SHORT);
		return;
	case TICK_KEPT_NEEDLESS:
	case TICK_KEPT_OK:
		ts->kept++;
		ts->kept_needless += verdict == TICK_KEPT_NEEDLESS;
		ci_add_hit(&ts->kept_needless_ci, verdict == TICK_KEPT_NEEDLESS);
		return;
	case TICK_KEPT_UNKNOWN:
		ts->kept_unknown++;
		return;
	}
}

void tick_stats_merge(struct tick_stats *dst, const struct tick_stats *src)
{
	dst->stopped += src->stopped;
	dst->stopped_short += src->stopped_short;
	dst->kept += src->kept;
	dst->kept_needless += src->kept_needless;
	dst->kept_unknown += src->kept_unknown;
	ci_merge(&dst->stopped_short_ci, &src->stopped_short_ci);
	ci_merge(&dst->kept_needless_ci, &src->kept_needless_ci);
}
