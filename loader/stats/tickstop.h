/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tickstop.h - the governor's tick decision, judged with hindsight.
 *
 * Select says whether to stop the scheduler tick for the coming idle
 * period (stop_tick, IDLESCOPE_F_STOP_TICK, known where the select probes
 * ran).  Stopping costs (reprogramming the timer, and the restart at the
 * exit) and pays off only when the CPU stays idle past the next tick;
 * keeping it costs a wake-up whenever the tick comes first and finds
 * nothing to do.  So, per period:
 *
 *   stopped, woken before the next tick	stopping cost for nothing
 *   stopped, ran past it			paid off
 *   kept, the tick ended it and woke nothing	a needless wake-up: the
 *						CPU would have stayed idle
 *   kept, anything else			fine
 *
 * The next tick: the tick runs on whole periods of CLOCK_MONOTONIC
 * (tick_init_jiffy_update() aligns it, no skew_tick), the clock of
 * enter_ns, so it is the first multiple of 10^9 / HZ ns after the entry
 * (docs/wakeup.md has the guest trace that shows it); a period ran past it
 * when its wake-up came after it (stats/period.h).  "Woke nothing": the
 * wake-up source was the tick and need_resched was clear at the exit
 * (IDLESCOPE_F_WAKE_RESCHED): the idle loop went straight back to idle.
 *
 * Pure C: no libbpf.
 */
#ifndef __IDLESCOPE_STATS_TICKSTOP_H
#define __IDLESCOPE_STATS_TICKSTOP_H

#include <linux/types.h>
#include "idlescope.h"
#include "stats/ci.h"

enum tick_verdict {
	TICK_UNDECIDED,			/* no select probe: stop_tick unknown */
	TICK_STOPPED_SHORT,		/* stopped, woken before the next tick */
	TICK_STOPPED_PAID,		/* stopped, ran past the next tick */
	TICK_KEPT_NEEDLESS,		/* kept, the tick woke it for nothing */
	TICK_KEPT_OK,			/* kept, and no needless tick */
	TICK_KEPT_UNKNOWN,		/* kept, wake-up source not recorded */
};

/* One key's tick decisions. */
struct tick_stats {
	__u64 stopped;
	__u64 stopped_short;
	__u64 kept;			/* with the wake-up source known */
	__u64 kept_needless;
	__u64 kept_unknown;		/* kept, source not recorded: not judged */
	struct ci_acc stopped_short_ci;	/* of stopped periods */
	struct ci_acc kept_needless_ci;	/* of kept periods, source known */
};

/**
 * tick_next_ns() - the first tick after a time
 * @t_ns: a CLOCK_MONOTONIC time
 * @tick_ns: the tick period, 10^9 / HZ
 *
 * Return: the smallest multiple of @tick_ns above @t_ns.
 */
static inline __u64 tick_next_ns(__u64 t_ns, __u64 tick_ns)
{
	return (t_ns / tick_ns + 1) * tick_ns;
}

/**
 * tick_verdict_of() - a period's tick decision, judged
 * @rec: the record
 * @woke_ns: how long it lasted until its wake-up (stats/period.h)
 * @tick_ns: the tick period (0: unknown HZ, then stopped periods are
 *	not judged)
 *
 * Return: the verdict (see the top of this file).
 */
enum tick_verdict tick_verdict_of(const struct idlescope_record *rec, __u64 woke_ns,
				  __u64 tick_ns);

/**
 * tick_stats_add() - count one verdict
 * @ts: the key's stats
 * @verdict: tick_verdict_of()'s
 */
void tick_stats_add(struct tick_stats *ts, enum tick_verdict verdict);

/**
 * tick_stats_merge() - add one key's tick stats to another's
 * @dst: the sum
 * @src: what to add
 */
void tick_stats_merge(struct tick_stats *dst, const struct tick_stats *src);

#endif /* __IDLESCOPE_STATS_TICKSTOP_H */
