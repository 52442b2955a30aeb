// SPDX-License-Identifier: GPL-2.0
/*
 * teo70.c - the governor teo70 of our 6.12 series (kernel/patches/6.12,
 * patch 0006: teo as Linux 7.0 has it) replayed in user space.
 * teo70_update() and teo70_select() follow the kernel's functions of that
 * name, with the kernel's types (docs/upstream.md says what changed from
 * 6.12's teo, teo612.c, and why).
 *
 * What teo70 learns from a period is the kernel's own data, not a clock the
 * records lack: the residency, half the exit latency of the state entered,
 * whether the polling state gave up on its time limit, and whether the
 * tick ended the period (the BPF side reads the last two at teo70's
 * reflect).  It asks for the sleep length only when its choice may depend
 * on it; a period where it asks and the kernel did not is not scored
 * (model_sleep_length_ns()).  On another governor's periods it learns as
 * if the state it chose had been entered; the polling timeout then counts
 * only when that state is the polling one the kernel entered.
 */
#include <string.h>
#include "models/teo.h"

_Static_assert(sizeof(struct model_teo70) <= MODEL_DATA_BYTES,
	       "struct model_teo70 must fit struct model_state's data");

#define S64_MAX		INT64_MAX	/* include/linux/limits.h */

/* One period's decay; a count too small to lose 1/8 is cleared. */
static void teo70_decay(unsigned int *count)
{
	unsigned int loss = *count >> TEO_DECAY_SHIFT;

	*count = loss ? *count - loss : 0;
}

/* The duration the last period stands for, noting a short one. */
static __s64 teo70_measured_ns(struct model_teo70 *cpu,
			       const struct model_states_table *table)
{
	__s64 lat_ns = table->states[cpu->last_state_idx].exit_latency_ns;
	__s64 measured_ns = cpu->last_residency_ns;

	if (cpu->poll_time_limit) {
		cpu->poll_time_limit = false;
		return S64_MAX;
	}
	if (measured_ns >= lat_ns) {
		measured_ns -= lat_ns / 2;
		if (measured_ns < MODEL_RESIDENCY_THRESHOLD_NS)
			cpu->short_idles += TEO_PULSE;
	} else {
		measured_ns /= 2;
		cpu->short_idles += TEO_PULSE;
	}
	return measured_ns;
}

/* teo70_update(): age the counts, then count the period once. */
static void teo70_update(struct model_teo70 *cpu, const struct model_states_table *table)
{
	__s64 half_lat_ns = table->states[cpu->last_state_idx].exit_latency_ns / 2;
	__s64 tick_nsec = model_tick_ns(table);
	int i, timer_bin = 0, sleep_bin = 0;
	unsigned int decayed = 0;
	__s64 measured_ns;

	teo70_decay(&cpu->short_idles);
	measured_ns = teo70_measured_ns(cpu, table);

	for (i = 0; i < table->nr_states; i++) {
		struct model_teo612_bin *bin = &cpu->state_bins[i];
		__s64 residency_ns = table->states[i].target_residency_ns;

		teo70_decay(&bin->hits);
		teo70_decay(&bin->intercepts);
		decayed += bin->hits + bin->intercepts;
		if (residency_ns <= cpu->sleep_length_ns) {
			timer_bin = i;
			if (residency_ns <= measured_ns)
				sleep_bin = i;
		}
	}
	cpu->total = decayed + TEO_PULSE;

	teo70_decay(&cpu->tick_intercepts);
	teo70_decay(&cpu->total_tick);
	if (cpu->tick_wakeup) {
		cpu->total_tick += TEO_PULSE;
		if (3 * cpu->total_tick > 2 * cpu->total) {
			cpu->state_bins[table->nr_states - 1].hits += TEO_PULSE;
			return;
		}
		if (3 * cpu->tick_intercepts < 2 * decayed) {
			cpu->state_bins[timer_bin].hits += TEO_PULSE;
			return;
		}
	}

	if (timer_bin == sleep_bin && cpu->sleep_length_ns - measured_ns < half_lat_ns) {
		cpu->state_bins[timer_bin].hits += TEO_PULSE;
	} else {
		cpu->state_bins[sleep_bin].intercepts += TEO_PULSE;
		if (measured_ns <= tick_nsec)
			cpu->tick_intercepts += TEO_PULSE;
	}
}

/* struct teo70_sums of the kernel: what select's pass over the bins found. */
struct teo70_sums {
	int first;
	int deepest;
	int within_limit;
	unsigned int intercepts_below;
	unsigned int hits_below;
	int busiest_bin;
};

static void teo70_sum_bins(const struct model_teo70 *cpu, __s64 latency_req,
			   const struct model_states_table *table, struct teo70_sums *sums)
{
	unsigned int intercepts = 0, hits = 0, most = 0;
	int i;

	memset(sums, 0, sizeof(*sums));
	sums->deepest = table->states[0].disabled ? -1 : 0;
	sums->busiest_bin = -1;
	for (i = 1; i < table->nr_states; i++) {
		const struct model_teo612_bin *below = &cpu->state_bins[i - 1];

		hits += below->hits;
		intercepts += below->intercepts;
		if (below->intercepts >= most) {
			most = below->intercepts;
			sums->busiest_bin = i - 1;
		}
		if (table->states[i].disabled)
			continue;
		if (sums->deepest < 0)
			sums->first = i;
		sums->deepest = i;
		if (table->states[i].exit_latency_ns <= latency_req)
			sums->within_limit = i;
		sums->intercepts_below = intercepts;
		sums->hits_below = hits;
	}
}

/* teo70_walk_down(): the state most intercepts below the deepest paid for. */
static int teo70_walk_down(const struct model_teo70 *cpu, const struct teo70_sums *sums,
			   bool tick_stopped, const struct model_states_table *table)
{
	const struct model_idle_state *states = table->states;
	int idx = sums->deepest, lowest = sums->first;
	unsigned int intercepts = 0;
	int i;

	if (tick_stopped) {
		while (lowest < idx &&
		       states[lowest].target_residency_ns < (__s64)model_tick_ns(table))
			lowest++;
		if (states[lowest].target_residency_ns == states[idx].target_residency_ns)
			return idx;
	}
	if (lowest >= sums->busiest_bin && !states[lowest].disabled)
		return lowest;
	for (i = idx - 1; i >= lowest; i--) {
		intercepts += cpu->state_bins[i].intercepts;
		if (states[i].disabled)
			continue;
		idx = i;
		if (2 * intercepts > sums->intercepts_below && i <= sums->busiest_bin)
			break;
	}
	return idx;
}

/* teo70_select(): the state the kernel's returns. */
static int teo70_select(struct model_state *ms, struct model_teo70 *cpu,
			const struct model_input *in, const struct model_states_table *table)
{
	const struct model_idle_state *states = table->states;
	__s64 tick_nsec = model_tick_ns(table);
	__s64 delta_tick = tick_nsec / 2;
	struct teo70_sums sums;
	__s64 duration_ns;
	int idx;

	if (cpu->last_state_idx >= 0) {
		teo70_update(cpu, table);
		cpu->last_state_idx = -1;
	}
	cpu->sleep_length_ns = MODEL_KTIME_MAX;
	if (table->nr_states < 2)
		return 0;

	teo70_sum_bins(cpu, in->latency_req_ns, table, &sums);
	idx = sums.deepest;
	if (idx < 0)
		return 0;
	if (idx == sums.first) {
		duration_ns = states[idx].target_residency_ns;
		goto tick;
	}
	if (2 * sums.intercepts_below > cpu->total - sums.hits_below)
		idx = teo70_walk_down(cpu, &sums, in->tick_stopped, table);
	if (idx > sums.within_limit)
		idx = sums.within_limit;

	/* A shallow choice the sleep length cannot change. */
	if ((!idx || states[idx].target_residency_ns < MODEL_RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu->short_idles >= cpu->total ||
	     in->latency_req_ns < TEO70_LATENCY_THRESHOLD_NS))
		return idx;

	duration_ns = model_sleep_length_ns(ms, in, &delta_tick);
	cpu->sleep_length_ns = duration_ns;
	if (!idx)
		return idx;
	if (states[idx].target_residency_ns > duration_ns)
		idx = model_teo_find_shallower_state(table, idx, duration_ns);
	if (states[idx].target_residency_ns < tick_nsec &&
	    3 * cpu->tick_intercepts >= 2 * cpu->total)
		duration_ns = tick_nsec / 2;
tick:
	if ((!states[idx].polling && duration_ns >= tick_nsec) || in->tick_stopped)
		return idx;
	if (idx > sums.first && states[idx].target_residency_ns > delta_tick)
		idx = model_teo_find_shallower_state(table, idx, delta_tick);
	return idx;
}

/*
 * teo70_reflect() of the period before, as the state the model chose.  The
 * first select after ->enable() updates from what the core kept of the
 * period before (the old governor's reflect), its poll flag as it stood;
 * teo70's own data, tick_wakeup included, is zero then.
 */
static void teo70_reflect(struct model_teo70 *cpu, int own_choice,
			  const struct model_input *in, const struct model_states_table *table)
{
	int state = in->prev_chosen_by_model || own_choice < 0 ? in->prev_state : own_choice;
	bool core_only = cpu->enabled && !in->has_prev && in->prev_in_core;

	cpu->enabled = false;
	if (!(in->has_prev || core_only) || state < 0 || state >= table->nr_states)
		return;
	cpu->last_state_idx = state;
	cpu->last_residency_ns = in->prev_residency_ns;
	cpu->tick_wakeup = in->has_prev && in->prev_tick_wakeup;
	cpu->poll_time_limit = in->prev_poll_time_limit && state == in->prev_state &&
			       (core_only || table->states[state].polling);
}

__u64 teo70_step(struct model_state *ms, const struct model_input *in,
		 const struct model_states_table *table)
{
	struct model_teo70 *cpu = model_teo70_data(ms);

	teo70_reflect(cpu, ms->chosen_state, in, table);
	ms->chosen_state = teo70_select(ms, cpu, in, table);
	return IDLESCOPE_UNKNOWN_NS;	/* teo predicts no idle duration */
}

void teo70_reset(void *data)
{
	struct model_teo70 *cpu = data;

	memset(cpu, 0, sizeof(*cpu));	/* teo70_enable_device() */
	cpu->enabled = true;
}
