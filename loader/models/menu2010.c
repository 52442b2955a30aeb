// SPDX-License-Identifier: GPL-2.0
/*
 * menu2010.c - the three 2010 menu governors' predictors and state
 * choices, replayed in user space: menu2010 (2.6.33 up to 2.6.34-rc, before
 * "cpuidle: Fix incorrect optimziation"), menu2010fix (with it: vanilla
 * 2.6.34) and menu2010rpd (with the repeating pattern detector of 2.6.35
 * too).  Every m2010_foo() below is a transcription of foo() in
 * kernel/patches' menu2010.c.  The kernel types are kept (unsigned int where
 * the kernel has unsigned int, u64 where it has u64), because the defects
 * being measured live in them: menu2010's RESOLUTION * measured_us is a
 * 32-bit product that wraps, and the 2010 pattern detector's deviations are
 * u32 - u64.  Where the C below must differ from the kernel's text to stay
 * defined behaviour (signed overflow, which the kernel builds with
 * -fno-strict-overflow), it computes the same bits unsigned and says so.
 *
 * A 2010 model must also replay its governor's state selection: its next
 * update subtracts the exit latency of the state it chose and treats a stay
 * in the polling state as lasting the whole expected time.
 */
#include <string.h>
#include "models/menu2010.h"

#define NSEC_PER_USEC	1000L	/* include/vdso/time64.h: a long, as there */

_Static_assert(sizeof(struct model_menu2010) <= MODEL_DATA_BYTES,
	       "struct model_menu2010 must fit struct model_state's data");

/*
 * The three 2010 governors share one implementation that takes a
 * description of the 2010 patches it includes; so do the models.
 */
struct m2010_variant {
	bool		fixed;		/* "cpuidle: Fix incorrect optimziation" */
	bool		detect_patterns;	/* the repeating pattern detector */
	unsigned int	decay;
};

static const struct m2010_variant m2010_plain = {
	.fixed = false, .detect_patterns = false, .decay = M2010_DECAY,
};
static const struct m2010_variant m2010_fix = {
	.fixed = true, .detect_patterns = false, .decay = M2010_DECAY,
};
static const struct m2010_variant m2010_rpd = {
	.fixed = true, .detect_patterns = true, .decay = M2010_DECAY_RPD,
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
 * (the registry's step functions at the end), so the variant's flags and
 * decay are constants there:
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
 * The registry's functions, one pair per variant: the variant is a
 * constant in each, so each gets its own inlined m2010_step().
 */
static inline __attribute__((always_inline))
__u64 m2010_variant_step(struct model_state *ms, const struct m2010_variant *variant,
			 const struct model_input *in,
			 const struct model_states_table *table)
{
	struct model_menu2010 *data = model_menu2010_data(ms);
	__u64 predicted_ns = m2010_step(data, variant, in, table);

	ms->chosen_state = data->last_state_idx;
	return predicted_ns;
}

__u64 m2010_plain_step(struct model_state *ms, const struct model_input *in,
		       const struct model_states_table *table)
{
	return m2010_variant_step(ms, &m2010_plain, in, table);
}

__u64 m2010_fix_step(struct model_state *ms, const struct model_input *in,
		     const struct model_states_table *table)
{
	return m2010_variant_step(ms, &m2010_fix, in, table);
}

__u64 m2010_rpd_step(struct model_state *ms, const struct model_input *in,
		     const struct model_states_table *table)
{
	return m2010_variant_step(ms, &m2010_rpd, in, table);
}

void m2010_plain_reset(void *data)
{
	m2010_reset(data, &m2010_plain);
}

void m2010_fix_reset(void *data)
{
	m2010_reset(data, &m2010_fix);
}

void m2010_rpd_reset(void *data)
{
	m2010_reset(data, &m2010_rpd);
}
