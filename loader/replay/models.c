// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - the menu family's idle-duration predictors, replayed in user
 * space (see replay/models.h for what a model is and why it exists).
 *
 * Every m2010_foo() below is a transcription of foo() in menu2010.c, every
 * menu_foo() one of the function of that name in menu.c.  The kernel types
 * are kept (unsigned int where the kernel has unsigned int, u64 where it
 * has u64), because the defects being measured live in them: menu2010's
 * RESOLUTION * measured_us is a 32-bit product that wraps, and the 2010
 * pattern detector's deviations are u32 - u64.  Where the C below must differ from
 * the kernel's text to stay defined behaviour (signed overflow, which the
 * kernel builds with -fno-strict-overflow), it computes the same bits
 * unsigned and says so.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "replay/models.h"

#define NSEC_PER_USEC	1000L	/* include/vdso/time64.h: a long, as there */

/* TICK_NSEC of the recorded kernel: its HZ, MODEL_HZ's if not known. */
static __u64 model_tick_ns(const struct model_states_table *table)
{
	unsigned int hz = table->hz ? table->hz : MODEL_HZ;

	return (1000000000ULL + hz / 2) / hz;
}

/* The cpuidle core: us = ns / 1000 (drivers/cpuidle/driver.c). */
void model_table_derive(struct model_states_table *table)
{
	int i;

	for (i = 0; i < IDLESCOPE_MAX_STATES; i++) {
		struct model_idle_state *s = &table->states[i];

		s->exit_latency_us = (__u64)s->exit_latency_ns / NSEC_PER_USEC;
		s->target_residency_us = (__u64)s->target_residency_ns / NSEC_PER_USEC;
	}
}

/*
 * menu2010.c
 * ==========
 *
 * The three 2010 governors share one implementation that takes a
 * description of the 2010 patches it includes; so do the models.
 */
struct m2010_variant {
	bool		fixed;		/* "cpuidle: Fix incorrect optimziation" */
	bool		detect_patterns;	/* the repeating pattern detector */
	unsigned int	decay;
};

static const struct m2010_variant m2010_variants[] = {
	[MODEL_MENU2010]	= { .fixed = false, .detect_patterns = false,
				    .decay = M2010_DECAY },
	[MODEL_MENU2010FIX]	= { .fixed = true, .detect_patterns = false,
				    .decay = M2010_DECAY },
	[MODEL_MENU2010RPD]	= { .fixed = true, .detect_patterns = true,
				    .decay = M2010_DECAY_RPD },
};

static int m2010_which_bucket(unsigned int duration, unsigned int nr_iowaiters)
{
	int bucket = 0;

	if (nr_iowaiters)
		bucket = M2010_BUCKETS / 2;

	if (duration < 10)
		return bucket;
	if (duration < 100)
		return bucket + 1;
	if (duration < 1000)
		return bucket + 2;
	if (duration < 10000)
		return bucket + 3;
	if (duration < 100000)
		return bucket + 4;
	return bucket + 5;
}

static int m2010_performance_multiplier(int load, unsigned int nr_iowaiters)
{
	/* int arithmetic that wraps in the kernel: the same bits, unsigned. */
	return (int)(1U + 2U * (unsigned int)load + 10U * nr_iowaiters);
}

static __u64 m2010_div_round64(__u64 dividend, __u32 divisor)
{
	return (dividend + (divisor / 2)) / divisor;
}

static int m2010_first_real_state(const struct model_states_table *table)
{
	return table->states[0].polling ? 1 : 0;
}

static void m2010_detect_repeating_patterns(struct model_menu2010 *data)
{
	int i;
	__u64 avg = 0;
	__u64 stddev = 0;

	for (i = 0; i < M2010_INTERVALS; i++)
		avg += data->intervals[i];

	/* The sum, not the average, against expected_us: as posted in 2010. */
	if (avg > data->expected_us)
		return;

	avg = avg / M2010_INTERVALS;
	/* u32 - u64: wraps below the average, squares right modulo 2^64. */
	for (i = 0; i < M2010_INTERVALS; i++)
		stddev += (data->intervals[i] - avg) *
			  (data->intervals[i] - avg);

	stddev = stddev / M2010_INTERVALS;

	if (avg && stddev < M2010_STDDEV_THRESH) {
		data->predicted_us = avg;
		data->typical_interval_us = avg;
	}
}

/*
 * m2010_update() and m2010_step() are inlined into one copy per variant
 * (model_step()), so the variant's flags and decay are constants there:
 * the divisions by decay become multiplications, the branches go away.
 * They were the largest part of a replay.
 */
static inline __attribute__((always_inline))
void m2010_update(struct model_menu2010 *data,
			 const struct m2010_variant *variant,
			 __u64 last_residency_ns,
			 const struct model_states_table *table)
{
	int last_idx = data->last_state_idx;
	/* ktime_to_us() of an s64, truncated into unsigned int */
	unsigned int last_idle_us = (__s64)last_residency_ns / NSEC_PER_USEC;
	const struct model_idle_state *target = &table->states[last_idx];
	unsigned int measured_us;
	unsigned int tested_us;
	__u64 new_factor;

	/* The polling state is not time-valid: assume the whole expected time. */
	if (target->polling)
		last_idle_us = data->expected_us;

	measured_us = last_idle_us;

	if (measured_us > data->exit_us)
		measured_us -= data->exit_us;

	new_factor = data->correction_factor[data->bucket] *
		     (variant->decay - 1) / variant->decay;

	if (variant->fixed)
		tested_us = measured_us;
	else
		tested_us = data->measured_us;

	/* 32-bit product, as in 2.6.34: wraps from 4194304 us (4.19 s) on. */
	if (data->expected_us > 0 && tested_us < M2010_MAX_INTERESTING)
		new_factor += M2010_RESOLUTION * measured_us / data->expected_us;
	else
		new_factor += M2010_RESOLUTION;

	if (new_factor == 0)
		new_factor = 1;

	data->correction_factor[data->bucket] = new_factor;

	if (variant->detect_patterns) {
		data->intervals[data->interval_ptr++] = last_idle_us;
		if (data->interval_ptr >= M2010_INTERVALS)
			data->interval_ptr = 0;
	}
}

/* menu2010_choose_state() and what patch 0004 stores of it. */
static inline __attribute__((always_inline))
__u64 m2010_step(struct model_menu2010 *data,
			const struct m2010_variant *variant,
			const struct model_input *in,
			const struct model_states_table *table)
{
	int latency_req = in->latency_req_ns / NSEC_PER_USEC;	/* div_s64() */
	int first, i, multiplier, load;

	/*
	 * menu2010_reflect() of the period before.  When another governor
	 * chose that period's state, the model's own choice stands in for
	 * the state entered: that is the state this governor would have
	 * been in, and it already is in last_state_idx.
	 */
	if (in->has_prev) {
		if (in->prev_chosen_by_model && in->prev_state >= 0 &&
		    in->prev_state < table->nr_states)
			data->last_state_idx = in->prev_state;
		data->needs_update = 1;
	}

	if (!variant->fixed) {
		data->last_state_idx = 0;
		data->exit_us = 0;
	}

	if (data->needs_update) {
		m2010_update(data, variant, in->prev_residency_ns, table);
		data->needs_update = 0;
	}

	if (variant->fixed) {
		data->last_state_idx = 0;
		data->exit_us = 0;
	}

	data->typical_interval_us = 0;

	if (latency_req == 0)
		return 0;

	/*
	 * DIV_ROUND_UP((u32)ns, 1000) as 2.6.34: truncated to 32 bits and
	 * rounded up in unsigned int, wrapping with it.
	 */
	data->expected_us = ((__u32)in->next_timer_ns + 1000U - 1) / 1000U;

	data->bucket = m2010_which_bucket(data->expected_us, in->nr_iowaiters);

	load = in->load;
	multiplier = m2010_performance_multiplier(load, in->nr_iowaiters);

	data->predicted_us = m2010_div_round64((__u64)data->expected_us *
					       data->correction_factor[data->bucket],
					       M2010_RESOLUTION * variant->decay);

	if (variant->detect_patterns)
		m2010_detect_repeating_patterns(data);

	first = m2010_first_real_state(table);
	if (data->expected_us > 5 && first < table->nr_states &&
	    !table->states[first].disabled)
		data->last_state_idx = first;

	for (i = first; i < table->nr_states; i++) {
		const struct model_idle_state *s = &table->states[i];
		unsigned int exit_latency = s->exit_latency_us;

		if (s->disabled)
			continue;
		if (s->target_residency_us > data->predicted_us)
			break;
		/* unsigned int against int, as in the kernel */
		if (exit_latency > (unsigned int)latency_req)
			break;
		/* unsigned int product */
		if (exit_latency * (unsigned int)multiplier > data->predicted_us)
			break;
		data->exit_us = exit_latency;
		data->last_state_idx = i;
	}

	return data->predicted_us * NSEC_PER_USEC;
}

static void m2010_reset(struct model_menu2010 *data,
			const struct m2010_variant *variant)
{
	int i;

	memset(data, 0, sizeof(*data));
	for (i = 0; i < M2010_BUCKETS; i++)
		data->correction_factor[i] = M2010_RESOLUTION * variant->decay;
}

/*
 * menu.c
 * ======
 */
static int menu_which_bucket(__u64 duration_ns, unsigned int nr_iowaiters)
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

static unsigned int menu_get_typical_interval(const unsigned int *intervals,
					      unsigned int predicted_us)
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

	if (min >= predicted_us)
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
	*typical_interval_us = menu_get_typical_interval(intervals_us, predicted_us);
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

/* menu_select() up to the prediction patch 0004 stores. */
static __u64 menu_step(struct model_menu *data, const struct model_input *in,
		       const struct model_states_table *table)
{
	__s64 latency_req = in->latency_req_ns;
	unsigned int predicted_us;
	unsigned int i;

	/* menu_reflect(), and what the core left in struct cpuidle_device */
	if (in->has_prev && in->prev_state >= 0 &&
	    in->prev_state < table->nr_states) {
		data->last_state_idx = in->prev_state;
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

	data->next_timer_ns = in->next_timer_ns;
	data->bucket = menu_which_bucket(data->next_timer_ns, in->nr_iowaiters);
	data->typical_interval_us = UINT_MAX;

	if (model_menu_returns_early(data->next_timer_ns, latency_req, table))
		return 0;

	predicted_us = menu_timer_prediction_us(data->next_timer_ns,
						data->correction_factor[data->bucket]);
	/* Only the value depends on the pattern search, not the history. */
	if (in->prediction_unused)
		return (__u64)predicted_us * NSEC_PER_USEC;
	return menu_prediction_ns(predicted_us, data->intervals, &data->typical_interval_us);
}

static void menu_reset(struct model_menu *data)
{
	int i;

	memset(data, 0, sizeof(*data));
	for (i = 0; i < MENU_BUCKETS; i++)
		data->correction_factor[i] = MENU_RESOLUTION * MENU_DECAY;
}

/*
 * The model interface
 * ===================
 */
void model_reset(struct model_state *ms, enum model_id id)
{
	memset(ms, 0, sizeof(*ms));
	ms->id = id;
	if (id == MODEL_MENU)
		menu_reset(&ms->menu);
	else if (id < MODEL_NR)
		m2010_reset(&ms->m2010, &m2010_variants[id]);
}

__u64 model_step(struct model_state *ms, const struct model_input *in,
		 const struct model_states_table *table)
{
	if (table->nr_states < 1 || table->nr_states > IDLESCOPE_MAX_STATES)
		return 0;
	switch (ms->id) {
	case MODEL_MENU:
		return menu_step(&ms->menu, in, table);
	/* One case per variant: a constant variant for the inlined step. */
	case MODEL_MENU2010:
		return m2010_step(&ms->m2010, &m2010_variants[MODEL_MENU2010], in, table);
	case MODEL_MENU2010FIX:
		return m2010_step(&ms->m2010, &m2010_variants[MODEL_MENU2010FIX], in, table);
	case MODEL_MENU2010RPD:
		return m2010_step(&ms->m2010, &m2010_variants[MODEL_MENU2010RPD], in, table);
	default:
		return 0;
	}
}
