// SPDX-License-Identifier: GPL-2.0
/*
 * reconstruct.c - stock menu's prediction rebuilt from menu's own data.
 *
 * Patch 0004 makes menu_select() store its prediction for tracing; a
 * distribution kernel has no such field.  There the BPF side reads, at the
 * idle entry that follows select, what select computed its prediction
 * from: the next timer, the bucket, that bucket's correction factor and
 * the eight recent intervals (IDLESCOPE_F_MENU_DATA).  Nothing changes them
 * between select and the entry (menu_update() runs at the start of the
 * next select), so they are select's own inputs, after its update.  From
 * them menu_select()'s arithmetic, the very code the menu model runs
 * (model_menu_predict_ns() of models/menu.c), gives the number patch 0004
 * would have stored: the timer scaled by the factor and rounded to
 * microseconds, or the typical interval when that is shorter.  The order
 * of the intervals (menu's interval_ptr) does not matter: the pattern
 * detector uses their sum, extremes and variance only.
 *
 * What the BPF side cannot see on such a kernel, and how it is handled:
 *  - Whether select returned state 0 before predicting (patch 0004 stores
 *    U64_MAX then, and no prediction is recorded).  That depends on the next
 *    timer and state 1's parameters, which are known, and on the PM QoS
 *    limit, which only the select probes see.  Without the limit: an
 *    early return always enters state 0, so a period in a deeper state
 *    had its prediction; a period in state 0 that the next timer alone
 *    would not have sent back early may have been sent back by a limit,
 *    and is left without a prediction (counted as unresolved), so no
 *    score includes a guess.
 *  - The number of I/O waiters.  Stock menu's prediction uses it only to
 *    pick the bucket's half (none or some), and the bucket is read: the
 *    rebuilt record's nr_iowaiters is 1 in an I/O bucket, 0 elsewhere,
 *    which is all the menu model takes from it.
 *  - tick_nohz_tick_stopped(): it changes the state menu picks, not the
 *    prediction patch 0004 stores.
 *  - The state table as select saw it: the recorded one (its disable
 *    flags read when the run began) stands for it.
 * A prediction of 0 (a typical interval of 0 us, right after ->enable()
 * zeroed the intervals) is left out as the BPF side leaves out the 0 the
 * patched kernel stores: there it means that select returned early.
 *
 * 6.12's menu predicts before it decides to return early, so nothing there
 * is unresolved: the typical interval, or the scaled timer where select
 * asked for one (its next_timer_ns is KTIME_MAX where it did not), with
 * model_menu612_predict_ns() of models/menu612.c.  It has no I/O waiters.
 *
 * On our patched kernel the records carry both the kernel's prediction and
 * menu's data: each is rebuilt all the same and compared (checked/agreed),
 * which is the proof that the rebuilding is right.
 */
#include <limits.h>
#include "replay/reconstruct.h"

_Static_assert(IDLESCOPE_MENU_INTERVALS == MENU_INTERVALS,
	       "a record holds menu's intervals as the menu model does");
_Static_assert(IDLESCOPE_MENU_FACTOR_UNITY == MENU_RESOLUTION * MENU_DECAY,
	       "the BPF side's menu factor of 1 is menu.c's");

/*
 * The prediction menu_select() made for @rec's period, or
 * IDLESCOPE_UNKNOWN_NS when it made none or (*unresolved) when that cannot
 * be told.
 */
static __u64 rebuild_prediction(const struct idlescope_record *rec,
				const struct model_states_table *table,
				unsigned int *typical_interval_us, bool *unresolved)
{
	bool limit_seen = rec->latency_req_ns != IDLESCOPE_LATENCY_REQ_UNKNOWN;
	__s64 latency_req_ns = limit_seen ? rec->latency_req_ns :
				MODEL_LATENCY_REQ_DEFAULT_NS;
	__u64 predicted_ns;

	*unresolved = false;
	*typical_interval_us = UINT_MAX;
	/* Early without a limit is early under any limit. */
	if (model_menu_returns_early(rec->next_timer_ns, latency_req_ns, table))
		return IDLESCOPE_UNKNOWN_NS;
	if (!limit_seen && rec->state == 0) {
		*unresolved = true;
		return IDLESCOPE_UNKNOWN_NS;
	}
	predicted_ns = model_menu_predict_ns(rec->next_timer_ns, rec->correction_factor,
					     rec->intervals_us, typical_interval_us);
	return predicted_ns;
}

/* The prediction 6.12's menu_select() made, IDLESCOPE_UNKNOWN_NS for 0. */
static __u64 rebuild_prediction_612(const struct idlescope_record *rec,
				    unsigned int *typical_interval_us)
{
	__u64 predicted_ns;

	*typical_interval_us = model_menu_typical_interval(rec->intervals_us, 0,
							   MENU_TYPICAL_NO_INTERVAL);
	predicted_ns = model_menu612_predict_ns(rec->next_timer_ns, rec->correction_factor,
						*typical_interval_us);
	return predicted_ns ? predicted_ns : IDLESCOPE_UNKNOWN_NS;
}

void reconstruct_record(struct idlescope_record *rec,
			const struct model_states_table *table, int menu_model,
			struct reconstruct_stats *stats)
{
	unsigned int typical_interval_us;
	__u64 predicted_ns;
	bool unresolved = false;

	if (rec->governor != IDLESCOPE_GOV_MENU ||
	    (rec->flags & (IDLESCOPE_F_SELECTED | IDLESCOPE_F_MENU_DATA |
			   IDLESCOPE_F_RECONSTRUCTED)) !=
	    (IDLESCOPE_F_SELECTED | IDLESCOPE_F_MENU_DATA))
		return;
	if (menu_model == MODEL_MENU612)
		predicted_ns = rebuild_prediction_612(rec, &typical_interval_us);
	else
		predicted_ns = rebuild_prediction(rec, table, &typical_interval_us,
						  &unresolved);
	if (rec->flags & IDLESCOPE_F_PREDICTED) {
		if (!unresolved) {
			stats->checked++;
			stats->agreed += predicted_ns == rec->predicted_ns;
		}
		return;
	}
	stats->unresolved += unresolved;
	if (predicted_ns == IDLESCOPE_UNKNOWN_NS)
		return;
	rec->predicted_ns = predicted_ns;
	rec->typical_interval_us = typical_interval_us;
	if (menu_model != MODEL_MENU612)
		rec->nr_iowaiters = rec->bucket >= MENU_BUCKETS / 2;
	rec->flags |= IDLESCOPE_F_PREDICTED | IDLESCOPE_F_RECONSTRUCTED;
	stats->reconstructed++;
}
