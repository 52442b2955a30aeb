// SPDX-License-Identifier: GPL-2.0
/*
 * menu612.c - the stock menu governor of Linux 6.12, its prediction and its
 * state choice, replayed in user space.  menu612_select() is a
 * transcription of menu_select() in 6.12's drivers/cpuidle/governors/menu.c,
 * with the kernel's types; what did not change since 6.1 (the reflect and
 * the update, the pattern search but for its first test, which_bucket()
 * without I/O waiters) is menu.c's.
 *
 * What 6.12 changed: the typical interval of the recent idle periods comes
 * first, and the sleep length is asked for only when that interval is
 * longer than RESIDENCY_THRESHOLD_NS or the tick is already stopped;
 * otherwise the next timer is taken to be far away (KTIME_MAX) and the
 * tick half a period away.  There is no I/O-wait half of the buckets and
 * no performance multiplier.  Patch 0004 stores the prediction before the
 * adjustment for a stopped tick; this model returns the same value.
 *
 * The model chooses states, so on another kernel's periods it learns as if
 * the state it chose had been entered (model_input.prev_chosen_by_model).
 * Where the kernel compares an s64 with a u64, C converts the s64 to u64:
 * the (__u64) casts below only say so.
 */
#include <limits.h>
#include "models/menu.h"

#define NSEC_PER_USEC	1000L	/* include/vdso/time64.h: a long, as there */

/* The buckets of 6.12's menu: model_menu's first MENU612_BUCKETS. */
_Static_assert(MENU612_BUCKETS <= MENU_BUCKETS, "6.12's buckets fit model_menu");

__u64 model_menu612_predict_ns(__u64 next_timer_ns, unsigned int correction_factor,
				unsigned int typical_interval_us)
{
	__u64 predicted_ns = typical_interval_us * NSEC_PER_USEC;
	unsigned int timer_us;

	if (next_timer_ns == (__u64)MODEL_KTIME_MAX)
		return predicted_ns;
	/* Round up the result for half microseconds. */
	timer_us = ((MENU_RESOLUTION * MENU_DECAY * NSEC_PER_USEC) / 2 +
		    next_timer_ns * correction_factor) /
		   (__u32)(MENU_RESOLUTION * MENU_DECAY * NSEC_PER_USEC);
	/* Use the lowest expected idle interval to pick the idle state. */
	if ((__u64)timer_us * NSEC_PER_USEC < predicted_ns)
		predicted_ns = (__u64)timer_us * NSEC_PER_USEC;
	return predicted_ns;
}

unsigned int model_menu612_typical_interval(const unsigned int *intervals_us)
{
	return model_menu_typical_interval(intervals_us, 0, MENU_TYPICAL_NO_INTERVAL);
}

/* menu_select() from the top to the prediction; *delta_tick_ns for the rest. */
static __u64 menu612_predict(struct model_state *ms, struct model_menu *data,
			     const struct model_input *in,
			     const struct model_states_table *table,
			     model_menu_typical_fn *typical, __s64 *delta_tick_ns)
{
	__s64 tick_nsec = model_tick_ns(table);
	unsigned int typical_interval_us;
	__u64 predicted_ns;
	__s64 delta;

	/* Find the shortest expected idle interval. */
	typical_interval_us = typical(data->intervals);
	data->typical_interval_us = typical_interval_us;
	predicted_ns = typical_interval_us * NSEC_PER_USEC;
	if (predicted_ns > MODEL_RESIDENCY_THRESHOLD_NS || in->tick_stopped) {
		/* Determine the time till the closest timer. */
		delta = model_sleep_length_ns(ms, in, delta_tick_ns);
		if (delta < 0) {
			delta = 0;
			*delta_tick_ns = 0;
		}

		data->next_timer_ns = delta;
		data->bucket = model_menu_which_bucket(data->next_timer_ns, 0);
		predicted_ns = model_menu612_predict_ns(data->next_timer_ns,
							data->correction_factor[data->bucket],
							typical_interval_us);
		data->predicted_ns = predicted_ns;
		/* A stopped tick: use the known time till the closest timer. */
		if (in->tick_stopped && predicted_ns < (__u64)tick_nsec)
			predicted_ns = data->next_timer_ns;
	} else {
		/* No timer asked for: far away, and the tick half a period away. */
		data->next_timer_ns = MODEL_KTIME_MAX;
		*delta_tick_ns = tick_nsec / 2;
		data->bucket = model_menu_which_bucket(MODEL_KTIME_MAX, 0);
		data->predicted_ns = predicted_ns;
	}
	return predicted_ns;
}

/* The tick stays: no state whose target residency ends after its next event. */
static int menu612_fit_tick(int idx, __s64 delta_tick,
			    const struct model_states_table *table)
{
	const struct model_idle_state *states = table->states;
	int i;

	if (idx > 0 && states[idx].target_residency_ns > delta_tick) {
		for (i = idx - 1; i >= 0; i--) {
			if (states[i].disabled)
				continue;

			idx = i;
			if (states[i].target_residency_ns <= delta_tick)
				break;
		}
	}
	return idx;
}

/* menu_select() of 6.12: the state it returns. */
static int menu612_select(struct model_state *ms, struct model_menu *data,
			  const struct model_input *in,
			  const struct model_states_table *table,
			  model_menu_typical_fn *typical)
{
	const struct model_idle_state *states = table->states;
	__s64 tick_nsec = model_tick_ns(table);
	__s64 latency_req = in->latency_req_ns;
	__s64 delta_tick = 0;
	__u64 predicted_ns;
	int i, idx;

	predicted_ns = menu612_predict(ms, data, in, table, typical, &delta_tick);

	/* state[0] will be used no matter what. */
	if (model_menu_returns_early(data->next_timer_ns, latency_req, table))
		return 0;

	/* The idle state with the lowest power while satisfying our constraints. */
	idx = -1;
	for (i = 0; i < table->nr_states; i++) {
		const struct model_idle_state *s = &states[i];

		if (s->disabled)
			continue;

		if (idx == -1)
			idx = i; /* first enabled state */

		if (s->exit_latency_ns > latency_req)
			break;

		if ((__u64)s->target_residency_ns <= predicted_ns) {
			idx = i;
			continue;
		}

		/* A physical state rather than polling, if it is shallow enough. */
		if (states[idx].polling &&
		    s->target_residency_ns < MODEL_RESIDENCY_THRESHOLD_NS &&
		    (__u64)s->target_residency_ns <= data->next_timer_ns &&
		    (__u64)s->exit_latency_ns <= predicted_ns) {
			predicted_ns = s->target_residency_ns;
			idx = i;
			break;
		}

		if (predicted_ns < (__u64)tick_nsec)
			break;

		if (!in->tick_stopped) {
			/* Shallow so far: keep the tick, the governor runs again. */
			predicted_ns = states[idx].target_residency_ns;
			break;
		}

		/* Not stuck in a shallow state while the tick is stopped. */
		if (states[idx].target_residency_ns < tick_nsec &&
		    s->target_residency_ns <= delta_tick)
			idx = i;

		return idx;
	}

	if (idx == -1)
		idx = 0; /* No states enabled. Must use 0. */

	/* Polling or a short stay keeps the tick: fit the state to it. */
	if ((states[idx].polling || predicted_ns < (__u64)tick_nsec) && !in->tick_stopped)
		idx = menu612_fit_tick(idx, delta_tick, table);

	return idx;
}

__u64 model_menu612_step(struct model_state *ms, const struct model_input *in,
			 const struct model_states_table *table,
			 model_menu_typical_fn *typical)
{
	struct model_menu *data = model_menu_data(ms);
	int last_state = in->prev_chosen_by_model || ms->chosen_state < 0 ?
			 in->prev_state : ms->chosen_state;

	model_menu_learn(data, in, last_state, table);
	ms->chosen_state = menu612_select(ms, data, in, table, typical);
	return data->predicted_ns;
}

__u64 menu612_step(struct model_state *ms, const struct model_input *in,
		   const struct model_states_table *table)
{
	return model_menu612_step(ms, in, table, model_menu612_typical_interval);
}
