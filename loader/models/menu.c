// SPDX-License-Identifier: GPL-2.0
/*
 * menu.c - the stock menu governor's predictor of Linux 6.1, replayed in
 * user space.  Every menu_foo() below is a transcription of the function of
 * that name in drivers/cpuidle/governors/menu.c, with the kernel's types.
 * Stock menu's update uses the state that was entered
 * (dev->last_state_idx), and its prediction does not depend on its own
 * choice, so this model only predicts.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "models/menu.h"

#define NSEC_PER_USEC	1000L	/* include/vdso/time64.h: a long, as there */

_Static_assert(sizeof(struct model_menu) <= MODEL_DATA_BYTES,
	       "struct model_menu must fit struct model_state's data");

int model_menu_which_bucket(__u64 duration_ns, unsigned int nr_iowaiters)
{
	int bucket = 0;

	if (nr_iowaiters)
		bucket = MENU_BUCKETS / 2;

	if (duration_ns < 10ULL * NSEC_PER_USEC)
		return bucket;
	if (duration_ns < 100ULL * NSEC_PER_USEC)
		return bucket + 1;
	if (duration_ns < 1000ULL * NSEC_PER_USEC)
		return bucket + 2;
	if (duration_ns < 10000ULL * NSEC_PER_USEC)
		return bucket + 3;
	if (duration_ns < 100000ULL * NSEC_PER_USEC)
		return bucket + 4;
	return bucket + 5;
}

static void menu_update_intervals(struct model_menu *data,
				  unsigned int interval_us)
{
	data->intervals[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= (int)MENU_INTERVALS)
		data->interval_ptr = 0;
}

unsigned int model_menu_typical_interval(const unsigned int *intervals,
					 unsigned int predicted_us,
					 enum model_menu_typical_cut cut)
{
	int i, divisor;
	unsigned int min, max, thresh, avg;
	__u64 sum, variance;

	thresh = INT_MAX;

again:
	min = UINT_MAX;
	max = 0;
	sum = 0;
	divisor = 0;
	for (i = 0; i < (int)MENU_INTERVALS; i++) {
		unsigned int value = intervals[i];

		if (value <= thresh) {
			sum += value;
			divisor++;
			if (value > max)
				max = value;
			if (value < min)
				min = value;
		}
	}

	/* 6.1 skips a result its caller would discard; 6.12 only "none". */
	if (cut == MENU_TYPICAL_BELOW_PREDICTION ? min >= predicted_us : !max)
		return UINT_MAX;

	if (divisor == (int)MENU_INTERVALS)
		avg = sum >> MENU_INTERVAL_SHIFT;
	else
		avg = sum / (__u32)divisor;

	variance = 0;
	for (i = 0; i < (int)MENU_INTERVALS; i++) {
		unsigned int value = intervals[i];

		if (value <= thresh) {
			int64_t diff = (int64_t)value - avg;

			/* the kernel's s64 product, wrapping as with -fwrapv */
			variance += (__u64)diff * (__u64)diff;
		}
	}
	if (divisor == (int)MENU_INTERVALS)
		variance >>= MENU_INTERVAL_SHIFT;
	else
		variance /= (__u32)divisor;

	if (variance <= UINT64_MAX / 36) {
		if ((((__u64)avg * avg > variance * 36) &&
		     (divisor * 4 >= (int)MENU_INTERVALS * 3)) ||
		    variance <= 400)
			return avg;
	}

	if (divisor * 4 <= (int)MENU_INTERVALS * 3)
		return UINT_MAX;

	thresh = max - 1;
	goto again;
}

bool model_menu_returns_early(__u64 next_timer_ns, __s64 latency_req_ns,
			      const struct model_states_table *table)
{
	return table->nr_states <= 1 || latency_req_ns == 0 ||
	       ((next_timer_ns < (__u64)table->states[1].target_residency_ns ||
		 latency_req_ns < table->states[1].exit_latency_ns) &&
		!table->states[0].disabled);
}

/* The next timer scaled by the correction factor, to the nearest us. */
static unsigned int menu_timer_prediction_us(__u64 next_timer_ns,
					     unsigned int correction_factor)
{
	/* u64 quotient into unsigned int, as in the kernel */
	return (next_timer_ns * correction_factor +
		(MENU_RESOLUTION * MENU_DECAY * NSEC_PER_USEC) / 2) /
	       (__u32)(MENU_RESOLUTION * MENU_DECAY * NSEC_PER_USEC);
}

/* The lower of it and the typical interval, in ns. */
static __u64 menu_prediction_ns(unsigned int predicted_us,
				const unsigned int *intervals_us,
				unsigned int *typical_interval_us)
{
	*typical_interval_us = model_menu_typical_interval(intervals_us, predicted_us,
							   MENU_TYPICAL_BELOW_PREDICTION);
	return (__u64)(predicted_us < *typical_interval_us ?
		       predicted_us : *typical_interval_us) * NSEC_PER_USEC;
}

__u64 model_menu_predict_ns(__u64 next_timer_ns, unsigned int correction_factor,
			    const unsigned int intervals_us[MENU_INTERVALS],
			    unsigned int *typical_interval_us)
{
	return menu_prediction_ns(menu_timer_prediction_us(next_timer_ns, correction_factor),
				  intervals_us, typical_interval_us);
}

static void menu_update(struct model_menu *data,
			const struct model_states_table *table)
{
	int last_idx = data->last_state_idx;
	const struct model_idle_state *target = &table->states[last_idx];
	__u64 measured_ns;
	unsigned int new_factor;

	if (data->tick_wakeup && data->next_timer_ns > model_tick_ns(table)) {
		measured_ns = 9 * MENU_MAX_INTERESTING / 10;
	} else if (table->states[last_idx].polling && data->poll_time_limit) {
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = data->last_residency_ns;

		/* s64 doubling that wraps in the kernel: the same bits, unsigned. */
		if (measured_ns > 2 * (__u64)target->exit_latency_ns)
			measured_ns -= target->exit_latency_ns;
		else
			measured_ns /= 2;
	}

	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / MENU_DECAY;

	if (data->next_timer_ns > 0 && measured_ns < MENU_MAX_INTERESTING)
		new_factor += MENU_RESOLUTION * measured_ns / data->next_timer_ns;
	else
		new_factor += MENU_RESOLUTION;

	data->correction_factor[data->bucket] = new_factor;

	/* ktime_to_us() of an s64, truncated into unsigned int */
	menu_update_intervals(data, (__s64)measured_ns / NSEC_PER_USEC);
}

void model_menu_learn(struct model_menu *data, const struct model_input *in,
		      int last_state, const struct model_states_table *table)
{
	unsigned int i;

	/* menu_reflect(), and what the core left in struct cpuidle_device */
	if (in->has_prev && last_state >= 0 && last_state < table->nr_states) {
		data->last_state_idx = last_state;
		data->last_residency_ns = in->prev_residency_ns;
		data->last_residency_known = true;
		data->poll_time_limit = in->prev_poll_time_limit;
		data->tick_wakeup = in->prev_tick_wakeup;
		data->needs_update = 1;
	}

	/*
	 * A select that entered no state did the update and left
	 * last_residency_ns at 0, so it and every later one until this one
	 * found nothing to update and a residency of 0.
	 */
	if (in->lost_selects) {
		unsigned int nr_updates = in->lost_selects - 1;

		if (data->needs_update)
			menu_update(data, table);
		data->needs_update = 0;
		data->last_residency_ns = 0;
		data->last_residency_known = true;
		/*
		 * Past a full turn of the ring every slot holds UINT_MAX and
		 * only where the pointer stops matters: the same state in at
		 * most two turns, not one step per lost select (up to 65535).
		 */
		if (nr_updates >= MENU_INTERVALS)
			nr_updates = MENU_INTERVALS + nr_updates % MENU_INTERVALS;
		for (i = 0; i < nr_updates; i++)
			menu_update_intervals(data, UINT_MAX);
	}

	if (data->needs_update) {
		menu_update(data, table);
		data->needs_update = 0;
	} else if (data->last_residency_known && !data->last_residency_ns) {
		/*
		 * The kernel's way of noticing a state that was not entered.
		 * dev->last_residency_ns is the core's and survives
		 * ->enable(), so until a reflected period tells the model
		 * its value, it is taken to be a real, non-zero residency.
		 */
		menu_update_intervals(data, UINT_MAX);
	}
}

/* menu_select() up to the prediction patch 0004 stores. */
static __u64 menu_select_prediction(struct model_menu *data, const struct model_input *in,
				    const struct model_states_table *table)
{
	__s64 latency_req = in->latency_req_ns;
	unsigned int predicted_us;

	model_menu_learn(data, in, in->prev_state, table);

	data->next_timer_ns = in->next_timer_ns;
	data->bucket = model_menu_which_bucket(data->next_timer_ns, in->nr_iowaiters);
	data->typical_interval_us = UINT_MAX;

	if (model_menu_returns_early(data->next_timer_ns, latency_req, table))
		return IDLESCOPE_UNKNOWN_NS;

	predicted_us = menu_timer_prediction_us(data->next_timer_ns,
						data->correction_factor[data->bucket]);
	/* Only the value depends on the pattern search, not the history. */
	if (in->prediction_unused)
		return (__u64)predicted_us * NSEC_PER_USEC;
	return menu_prediction_ns(predicted_us, data->intervals, &data->typical_interval_us);
}

__u64 menu_step(struct model_state *ms, const struct model_input *in,
		const struct model_states_table *table)
{
	ms->chosen_state = -1;
	return menu_select_prediction(model_menu_data(ms), in, table);
}

void menu_reset(void *data)
{
	struct model_menu *menu = data;
	int i;

	memset(menu, 0, sizeof(*menu));
	for (i = 0; i < MENU_BUCKETS; i++)
		menu->correction_factor[i] = MENU_RESOLUTION * MENU_DECAY;
}
