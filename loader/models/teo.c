// SPDX-License-Identifier: GPL-2.0
/*
 * teo.c - the timer events oriented (teo) governor of Linux 6.1, replayed
 * in user space, and what its 6.12 model (teo612.c) shares with it.
 *
 * teo predicts no idle duration: it picks a state.  It bins idle durations
 * by the target residencies of the states; after each period it counts a
 * "hit" in the bin of the sleep length when the CPU woke in that bin, and
 * an "intercept" in the bin it did wake in when that was shallower, both
 * decaying by 1/8 each period, and it keeps the last NR_RECENT intercepts.
 * Select takes the deepest state that fits the sleep length, unless the
 * intercepts below it outweigh the rest (or most recent wakeups were
 * early): then the deepest shallower state that most of those intercepts
 * would still have paid for.  The tick, the PM QoS limit and the polling
 * state bound the choice.
 *
 * teo_update() and teo_select() below transcribe the functions of that
 * name in 6.1's drivers/cpuidle/governors/teo.c statement by statement,
 * with the kernel's types.  Where the kernel compares an s64 with a u64,
 * C converts the s64 to u64: the (__u64) casts below only say so.
 *
 * The model chooses states, so on another governor's periods it learns as
 * if the state it chose had been entered.
 */
#include <string.h>
#include "models/teo.h"

#define U64_MAX		UINT64_MAX	/* include/linux/limits.h */

_Static_assert(sizeof(struct model_teo) <= MODEL_DATA_BYTES,
	       "struct model_teo must fit struct model_state's data");
_Static_assert(sizeof(struct model_teo612) <= MODEL_DATA_BYTES,
	       "struct model_teo612 must fit struct model_state's data");

void model_teo_reflected_reset(struct model_teo_reflected *r)
{
	memset(r, 0, sizeof(*r));
	r->span_full = true;	/* time_span_ns 0 >= sleep_length_ns 0 */
}

void model_teo_reflect(struct model_teo_reflected *r, int own_choice,
		       const struct model_input *in,
		       const struct model_states_table *table)
{
	int state = in->prev_chosen_by_model || own_choice < 0 ? in->prev_state :
		    own_choice;

	if (!in->has_prev || state < 0 || state >= table->nr_states)
		return;
	r->last_state_idx = state;
	r->last_residency_ns = in->prev_residency_ns;
	r->span_full = r->sleep_length_ns == r->recorded_sleep_length_ns ?
		       in->prev_span_full : in->prev_safety_net;
}

__u64 model_teo_measured_ns(const struct model_teo_reflected *r,
			    const struct model_states_table *table)
{
	__u64 measured_ns, lat_ns;

	if (r->span_full)
		return U64_MAX;	/* a safety net, or woken by the timer */

	lat_ns = table->states[r->last_state_idx].exit_latency_ns;
	/* last_residency_ns, not the span: the span includes cpuidle's overhead */
	measured_ns = r->last_residency_ns;
	/* half the exit latency: the wakeup is rarely the worst case */
	if (measured_ns >= lat_ns)
		measured_ns -= lat_ns / 2;
	else
		measured_ns /= 2;
	return measured_ns;
}

__s64 model_teo_sleep_length(struct model_state *ms, struct model_teo_reflected *r,
			     const struct model_input *in, __s64 *delta_tick_ns)
{
	r->sleep_length_ns = model_sleep_length_ns(ms, in, delta_tick_ns);
	return r->sleep_length_ns;
}

/* teo_update(): decay every bin, then count a hit or an intercept. */
static void teo_update(struct model_teo *cpu_data,
		       const struct model_states_table *table)
{
	int i, idx_timer = 0, idx_duration = 0;
	__u64 measured_ns = model_teo_measured_ns(&cpu_data->r, table);

	cpu_data->total = 0;

	/* Decay the metrics; find the bins of the sleep length and of the sleep. */
	for (i = 0; i < table->nr_states; i++) {
		__s64 target_residency_ns = table->states[i].target_residency_ns;
		struct model_teo_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> TEO_DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> TEO_DECAY_SHIFT;

		cpu_data->total += bin->hits + bin->intercepts;

		if (target_residency_ns <= cpu_data->r.sleep_length_ns) {
			idx_timer = i;
			if ((__u64)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	i = cpu_data->next_recent_idx++;
	if (cpu_data->next_recent_idx >= TEO_NR_RECENT)
		cpu_data->next_recent_idx = 0;

	if (cpu_data->recent_idx[i] >= 0)
		cpu_data->state_bins[cpu_data->recent_idx[i]].recent--;

	/* The same bin as the sleep length: a hit; a shallower one: an intercept. */
	if (idx_timer == idx_duration) {
		cpu_data->state_bins[idx_timer].hits += TEO_PULSE;
		cpu_data->recent_idx[i] = -1;
	} else {
		cpu_data->state_bins[idx_duration].intercepts += TEO_PULSE;
		cpu_data->state_bins[idx_duration].recent++;
		cpu_data->recent_idx[i] = idx_duration;
	}

	cpu_data->total += TEO_PULSE;
}

/* teo_time_ok(): a stopped tick wants no span below the tick period. */
static bool teo_time_ok(__u64 interval_ns, bool tick_stopped, __s64 tick_nsec)
{
	return !tick_stopped || interval_ns >= (__u64)tick_nsec;
}

static __s64 teo_middle_of_bin(int idx, const struct model_states_table *table)
{
	return (table->states[idx].target_residency_ns +
		table->states[idx + 1].target_residency_ns) / 2;
}

int model_teo_find_shallower_state(const struct model_states_table *table,
				   int state_idx, __s64 duration_ns)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (table->states[i].disabled)
			continue;

		state_idx = i;
		if (table->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

/* The sums of teo_select() over the bins below the candidate state. */
struct teo_sums {
	unsigned int idx_intercept_sum;
	unsigned int idx_recent_sum;
	unsigned int idx_hit_sum;
	int constraint_idx;
	int idx0;
};

/*
 * teo_select()'s first loop, from candidate @idx (0: state 0 is enabled,
 * else -1): the deepest enabled state that fits the sleep length
 * (returned; -1 with none enabled), the deepest within the PM QoS limit,
 * and the sums of the bins below it.
 */
static int teo_candidate(const struct model_teo *cpu_data, int idx, __s64 duration_ns,
			 __s64 latency_req, const struct model_states_table *table,
			 struct teo_sums *sums)
{
	unsigned int intercept_sum = 0, recent_sum = 0, hit_sum = 0;
	int i;

	for (i = 1; i < table->nr_states; i++) {
		const struct model_teo_bin *prev_bin = &cpu_data->state_bins[i - 1];
		const struct model_idle_state *s = &table->states[i];

		intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;
		recent_sum += prev_bin->recent;

		if (s->disabled)
			continue;

		if (idx < 0) {
			idx = i; /* first enabled state */
			sums->idx0 = i;
		}

		if (s->target_residency_ns > duration_ns)
			break;

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			sums->constraint_idx = i;

		sums->idx_intercept_sum = intercept_sum;
		sums->idx_hit_sum = hit_sum;
		sums->idx_recent_sum = recent_sum;
	}
	return idx;
}

/*
 * teo_select()'s search for a shallower state when the CPU is likely to
 * wake up early; *duration_ns becomes the middle of the bin chosen.
 */
static int teo_alternative(const struct model_teo *cpu_data, int idx,
			   const struct teo_sums *sums, bool alt_recent,
			   bool alt_intercepts, bool tick_stopped,
			   const struct model_states_table *table, __s64 *duration_ns)
{
	__s64 tick_nsec = model_tick_ns(table);
	__s64 first_suitable_span_ns = *duration_ns;
	int first_suitable_idx = idx;
	unsigned int intercept_sum = 0;
	unsigned int recent_sum = 0;
	int i;

	for (i = idx - 1; i >= 0; i--) {
		const struct model_teo_bin *bin = &cpu_data->state_bins[i];
		__s64 span_ns;

		intercept_sum += bin->intercepts;
		recent_sum += bin->recent;

		span_ns = teo_middle_of_bin(i, table);

		if ((!alt_recent || 2 * recent_sum > sums->idx_recent_sum) &&
		    (!alt_intercepts ||
		     2 * intercept_sum > sums->idx_intercept_sum)) {
			if (teo_time_ok(span_ns, tick_stopped, tick_nsec) &&
			    !table->states[i].disabled) {
				idx = i;
				*duration_ns = span_ns;
			} else {
				/* too shallow or disabled: the deeper suitable one */
				idx = first_suitable_idx;
				*duration_ns = first_suitable_span_ns;
			}
			break;
		}

		if (table->states[i].disabled)
			continue;

		if (!teo_time_ok(span_ns, tick_stopped, tick_nsec)) {
			/* too shallow, but a candidate found may still win */
			if (first_suitable_idx != idx)
				continue;

			break;
		}

		first_suitable_span_ns = span_ns;
		first_suitable_idx = i;
	}
	return idx;
}

/* teo_select() of 6.1: the state it returns. */
static int teo_select(struct model_state *ms, struct model_teo *cpu_data,
		      const struct model_input *in,
		      const struct model_states_table *table)
{
	__s64 tick_nsec = model_tick_ns(table);
	__s64 latency_req = in->latency_req_ns;
	struct teo_sums sums = { 0 };
	int idx = -1;
	bool alt_intercepts, alt_recent;
	__s64 delta_tick;
	__s64 duration_ns;

	if (cpu_data->r.last_state_idx >= 0) {
		teo_update(cpu_data, table);
		cpu_data->r.last_state_idx = -1;
	}

	duration_ns = model_teo_sleep_length(ms, &cpu_data->r, in, &delta_tick);

	/* Check if there is any choice in the first place. */
	if (table->nr_states < 2) {
		idx = 0;
		goto end;
	}
	if (!table->states[0].disabled) {
		idx = 0;
		if (table->states[1].target_residency_ns > duration_ns)
			goto end;
	}

	idx = teo_candidate(cpu_data, idx, duration_ns, latency_req, table, &sums);

	/* Avoid unnecessary overhead. */
	if (idx < 0) {
		idx = 0; /* No states enabled, must use 0. */
		goto end;
	} else if (idx == sums.idx0) {
		goto end;
	}

	/* Early wakeups likely: the intercepts below outweigh the rest. */
	alt_intercepts = 2 * sums.idx_intercept_sum > cpu_data->total - sums.idx_hit_sum;
	alt_recent = sums.idx_recent_sum > TEO_NR_RECENT / 2;
	if (alt_recent || alt_intercepts)
		idx = teo_alternative(cpu_data, idx, &sums, alt_recent, alt_intercepts,
				      in->tick_stopped, table, &duration_ns);

	/* The latency constraint may call for a shallower state. */
	if (idx > sums.constraint_idx)
		idx = sums.constraint_idx;

end:
	/* The tick stays for polling or a short stay: fit the state to it. */
	if ((table->states[idx].polling || duration_ns < tick_nsec) &&
	    !in->tick_stopped) {
		if (idx > sums.idx0 &&
		    table->states[idx].target_residency_ns > delta_tick)
			idx = model_teo_find_shallower_state(table, idx, delta_tick);
	}

	return idx;
}

__u64 teo_step(struct model_state *ms, const struct model_input *in,
	       const struct model_states_table *table)
{
	struct model_teo *cpu_data = model_teo_data(ms);

	model_teo_reflect(&cpu_data->r, ms->chosen_state, in, table);
	cpu_data->r.recorded_sleep_length_ns = (__s64)in->next_timer_ns;
	ms->chosen_state = teo_select(ms, cpu_data, in, table);
	return IDLESCOPE_UNKNOWN_NS;	/* teo predicts no idle duration */
}

void teo_reset(void *data)
{
	struct model_teo *cpu_data = data;
	int i;

	memset(cpu_data, 0, sizeof(*cpu_data));
	model_teo_reflected_reset(&cpu_data->r);
	for (i = 0; i < TEO_NR_RECENT; i++)
		cpu_data->recent_idx[i] = -1;
}
