// SPDX-License-Identifier: GPL-2.0
/*
 * teo612.c - the teo governor of Linux 6.12, replayed in user space:
 * teo612_update() and teo612_select() transcribe teo_update() and
 * teo_select() of 6.12's drivers/cpuidle/governors/teo.c with the kernel's
 * types; what did not change since 6.1 (the reflect, the measured
 * duration) is teo.c's.
 *
 * What 6.12 changed (teo.c says what teo does): no recent intercepts; a
 * hits-only bin past the deepest state when its target residency is below
 * the tick; and select now starts from the deepest enabled state, moves to
 * a shallower one on the intercepts alone, and asks for the sleep length
 * only when it still needs it: not for state 0, nor, with a polling state
 * 0, for a candidate whose target residency is below
 * RESIDENCY_THRESHOLD_NS.  Then its sleep length stays KTIME_MAX, which
 * the next update sees.  Intercepts before the tick that outweigh the
 * other wakeups keep the tick running.
 */
#include <string.h>
#include "models/teo.h"


/* teo_update() of 6.12: decay every bin, then count a hit or an intercept. */
static void teo612_update(struct model_teo612 *cpu_data,
			  const struct model_states_table *table)
{
	__s64 tick_nsec = model_tick_ns(table);
	int i, idx_timer = 0, idx_duration = 0;
	__s64 target_residency_ns = 0;
	__u64 measured_ns = model_teo_measured_ns(&cpu_data->r, table);

	cpu_data->total = 0;

	/* Decay the metrics; find the bins of the sleep length and of the sleep. */
	for (i = 0; i < table->nr_states; i++) {
		struct model_teo612_bin *bin = &cpu_data->state_bins[i];

		bin->hits -= bin->hits >> TEO_DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> TEO_DECAY_SHIFT;

		cpu_data->total += bin->hits + bin->intercepts;

		target_residency_ns = table->states[i].target_residency_ns;

		if (target_residency_ns <= cpu_data->r.sleep_length_ns) {
			idx_timer = i;
			if ((__u64)target_residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	/* The deepest state below the tick: a hits-only bin beyond it. */
	if (target_residency_ns < tick_nsec) {
		cpu_data->tick_hits -= cpu_data->tick_hits >> TEO_DECAY_SHIFT;

		cpu_data->total += cpu_data->tick_hits;

		if (tick_nsec <= cpu_data->r.sleep_length_ns) {
			idx_timer = table->nr_states;
			if ((__u64)tick_nsec <= measured_ns) {
				cpu_data->tick_hits += TEO_PULSE;
				goto end;
			}
		}
	}

	/* The same bin as the sleep length: a hit; a shallower one: an intercept. */
	if (idx_timer == idx_duration)
		cpu_data->state_bins[idx_timer].hits += TEO_PULSE;
	else
		cpu_data->state_bins[idx_duration].intercepts += TEO_PULSE;

end:
	cpu_data->total += TEO_PULSE;
}

static bool teo612_state_ok(int i, bool tick_stopped, const struct model_states_table *table)
{
	return !tick_stopped ||
		table->states[i].target_residency_ns >= (__s64)model_tick_ns(table);
}

/* teo_find_shallower_state() of 6.12, with its test of polling states. */
static int teo612_find_shallower_state(const struct model_states_table *table,
				       int state_idx, __s64 duration_ns, bool no_poll)
{
	int i;

	for (i = state_idx - 1; i >= 0; i--) {
		if (table->states[i].disabled ||
		    (no_poll && table->states[i].polling))
			continue;

		state_idx = i;
		if (table->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

/* The sums of teo_select() over the bins below the candidate state. */
struct teo612_sums {
	unsigned int tick_intercept_sum;
	unsigned int idx_intercept_sum;
	unsigned int intercept_sum;	/* of every bin below the deepest */
	unsigned int idx_hit_sum;
	int constraint_idx;
	int idx0;
};

/*
 * teo_select()'s first loop, from candidate @idx (0: state 0 is enabled,
 * else -1): the deepest enabled state (returned), the deepest within the
 * PM QoS limit, and the sums of the bins below them.  The candidate goes
 * no deeper than @bound_ns: KTIME_MAX for 6.12, the sleep length for 6.1's
 * candidate (the ablation model teo-6.12-c61), the first enabled state
 * being a candidate whatever its residency, as in 6.1; the sum of every
 * bin's intercepts, which the tick decision reads, is 6.12's either way.
 */
static int teo612_candidate(const struct model_teo612 *cpu_data, int idx,
			    __s64 latency_req, __s64 bound_ns,
			    const struct model_states_table *table,
			    struct teo612_sums *sums)
{
	unsigned int hit_sum = 0;
	bool past_bound = false;
	int i;

	for (i = 1; i < table->nr_states; i++) {
		const struct model_teo612_bin *prev_bin = &cpu_data->state_bins[i - 1];
		const struct model_idle_state *s = &table->states[i];

		sums->intercept_sum += prev_bin->intercepts;
		hit_sum += prev_bin->hits;

		if (s->disabled)
			continue;

		if (idx < 0) {
			sums->idx0 = i; /* first enabled state */
			idx = i;
		}

		past_bound |= s->target_residency_ns > bound_ns;
		if (past_bound)
			continue;

		idx = i;

		if (s->exit_latency_ns <= latency_req)
			sums->constraint_idx = i;

		/* Save the sums for the current state. */
		sums->idx_intercept_sum = sums->intercept_sum;
		sums->idx_hit_sum = hit_sum;
	}
	return idx;
}

/*
 * teo_select()'s search for the deepest state whose target residency the
 * idle duration reached in most of the intercepts below @idx.
 */
static int teo612_alternative(const struct model_teo612 *cpu_data, int idx,
			      unsigned int idx_intercept_sum, bool tick_stopped,
			      const struct model_states_table *table)
{
	int first_suitable_idx = idx;
	unsigned int intercept_sum = 0;
	int i;

	for (i = idx - 1; i >= 0; i--) {
		const struct model_teo612_bin *bin = &cpu_data->state_bins[i];

		intercept_sum += bin->intercepts;

		if (2 * intercept_sum > idx_intercept_sum) {
			/* this one unless too shallow or disabled */
			if (teo612_state_ok(i, tick_stopped, table) &&
			    !table->states[i].disabled)
				idx = i;
			else
				idx = first_suitable_idx;

			break;
		}

		if (table->states[i].disabled)
			continue;

		if (!teo612_state_ok(i, tick_stopped, table)) {
			/* too shallow, but a candidate found may still win */
			if (first_suitable_idx != idx)
				continue;

			break;
		}

		first_suitable_idx = i;
	}
	return idx;
}

/*
 * The end of teo_select() once a candidate is there: the sleep length if
 * it is needed, the tick.  Returns the state; *stop is false where the
 * kernel's goes to out_tick.
 */
static int teo612_finish(struct model_state *ms, struct model_teo612 *cpu_data,
			 int idx, const struct teo612_sums *sums,
			 const struct model_input *in,
			 const struct model_states_table *table)
{
	const struct model_idle_state *states = table->states;
	__s64 tick_nsec = model_tick_ns(table);
	__s64 delta_tick = tick_nsec / 2;
	__s64 duration_ns;

	/* The latency constraint may call for a shallower state. */
	if (idx > sums->constraint_idx)
		idx = sums->constraint_idx;

	/* State 0: an immediate non-timer wakeup is expected, no timer check. */
	if (!idx)
		return idx;

	/* A polling state 0 and a shallow candidate: no timer check either. */
	if (states[0].polling &&
	    states[idx].target_residency_ns < MODEL_RESIDENCY_THRESHOLD_NS)
		return idx;

	duration_ns = model_teo_sleep_length(ms, &cpu_data->r, in, &delta_tick);

	/* A timer before the candidate's target residency: a shallower one. */
	if (states[idx].target_residency_ns > duration_ns)
		idx = teo612_find_shallower_state(table, idx, duration_ns, false);

	/* Intercepts before the tick are most wakeups: keep the tick. */
	if (states[idx].target_residency_ns < tick_nsec &&
	    sums->tick_intercept_sum > cpu_data->total / 2 + cpu_data->total / 8)
		duration_ns = tick_nsec / 2;

	/* The tick may stop unless polling or a stay shorter than the tick. */
	if ((!states[idx].polling && duration_ns >= tick_nsec) || in->tick_stopped)
		return idx;

	/* The tick stays: fit the state to its next event. */
	if (idx > sums->idx0 &&
	    states[idx].target_residency_ns > delta_tick)
		idx = teo612_find_shallower_state(table, idx, delta_tick, false);

	return idx;
}

/* teo_select() of 6.12 (or an ablation of it): the state it returns. */
static int teo612_select(struct model_state *ms, struct model_teo612 *cpu_data,
			 const struct model_input *in,
			 const struct model_states_table *table,
			 enum model_teo612_variant variant)
{
	const struct model_idle_state *states = table->states;
	struct teo612_sums sums = { 0 };
	__s64 bound_ns = MODEL_KTIME_MAX;
	int prev_intercept_idx;
	__s64 delta_tick;
	int idx = -1;

	if (cpu_data->r.last_state_idx >= 0) {
		teo612_update(cpu_data, table);
		cpu_data->r.last_state_idx = -1;
	}

	/* The sleep length is infinite in case of an early return. */
	cpu_data->r.sleep_length_ns = MODEL_KTIME_MAX;

	/* Check if there is any choice in the first place. */
	if (table->nr_states < 2)
		return 0;

	/* The ablations: scored only where the record has the sleep length. */
	if (variant == TEO612_KNOWN_SLEEP)
		model_sleep_length_ns(ms, in, &delta_tick);
	if (variant == TEO612_CANDIDATE_61)
		bound_ns = model_teo_sleep_length(ms, &cpu_data->r, in, &delta_tick);

	if (!states[0].disabled) {
		idx = 0;
		/* 6.1: not even state 1 fits the sleep length */
		if (states[1].target_residency_ns > bound_ns)
			return idx;
	}

	idx = teo612_candidate(cpu_data, idx, in->latency_req_ns, bound_ns, table, &sums);

	/* Avoid unnecessary overhead. */
	if (idx < 0)
		return 0; /* No states enabled, must use 0. */

	/*
	 * One state enabled: use it (the kernel only decides whether the
	 * tick may stop, from its target residency).
	 */
	if (idx == sums.idx0)
		return idx;

	sums.tick_intercept_sum = sums.intercept_sum +
		cpu_data->state_bins[table->nr_states - 1].intercepts;

	/* The intercepts below the candidate outweigh the rest: look shallower. */
	prev_intercept_idx = idx;
	if (2 * sums.idx_intercept_sum > cpu_data->total - sums.idx_hit_sum)
		idx = teo612_alternative(cpu_data, idx, sums.idx_intercept_sum,
					 in->tick_stopped, table);
	if (!idx && prev_intercept_idx) {
		/* Ask for the sleep length: else no way to tell after the wakeup. */
		model_teo_sleep_length(ms, &cpu_data->r, in, &delta_tick);
		return idx;
	}

	return teo612_finish(ms, cpu_data, idx, &sums, in, table);
}

__u64 model_teo612_step(struct model_state *ms, const struct model_input *in,
			const struct model_states_table *table,
			enum model_teo612_variant variant)
{
	struct model_teo612 *cpu_data = model_teo612_data(ms);

	model_teo_reflect(&cpu_data->r, ms->chosen_state, in, table);
	cpu_data->r.recorded_sleep_length_ns = (__s64)in->next_timer_ns;
	ms->chosen_state = teo612_select(ms, cpu_data, in, table, variant);
	return IDLESCOPE_UNKNOWN_NS;	/* teo predicts no idle duration */
}

__u64 teo612_step(struct model_state *ms, const struct model_input *in,
		  const struct model_states_table *table)
{
	return model_teo612_step(ms, in, table, TEO612_AS_IS);
}

void teo612_reset(void *data)
{
	struct model_teo612 *cpu_data = data;

	memset(cpu_data, 0, sizeof(*cpu_data));
	model_teo_reflected_reset(&cpu_data->r);
}

#ifdef IDLESCOPE_ABLATION
/* The ablation's models (models/registry.h), built only for it. */
__u64 teo612sl_step(struct model_state *ms, const struct model_input *in,
		    const struct model_states_table *table)
{
	return model_teo612_step(ms, in, table, TEO612_KNOWN_SLEEP);
}

__u64 teo612c61_step(struct model_state *ms, const struct model_input *in,
		     const struct model_states_table *table)
{
	return model_teo612_step(ms, in, table, TEO612_CANDIDATE_61);
}
#endif
