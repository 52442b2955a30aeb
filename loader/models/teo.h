/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teo.h - the per-CPU data of the teo models (6.1: teo.c, 6.12: teo612.c,
 * our 6.12 series' teo70: teo70.c), the constants of the kernel code they
 * mirror, and what 6.1's and 6.12's share: how teo's reflect of a period
 * reaches the model, and the measured idle duration its update starts
 * from, which did not change between them (teo70 learns otherwise).
 */
#ifndef __IDLESCOPE_MODELS_TEO_H
#define __IDLESCOPE_MODELS_TEO_H

#include "models/models.h"

/* drivers/cpuidle/governors/teo.c, 6.1 and 6.12 */
#define TEO_PULSE		IDLESCOPE_TEO_PULSE
#define TEO_DECAY_SHIFT		3
/* 6.1 only: the recent intercepts it counts */
#define TEO_NR_RECENT		9
/* teo70 (7.0): no sleep length below this PM QoS limit */
#define TEO70_LATENCY_THRESHOLD_NS	(MODEL_RESIDENCY_THRESHOLD_NS / 2)

/*
 * What teo_update() reads of the period before, whatever the kernel: the
 * core's dev->last_state_idx and dev->last_residency_ns, and teo's
 * sleep_length_ns with the outcome of comparing its time_span_ns with it.
 *
 * time_span_ns is local_clock() from select to reflect, which no record
 * holds; the BPF side records whether it reached the sleep length
 * (IDLESCOPE_F_TEO_SPAN_FULL), and whether one of reflect's safety nets
 * set it to the sleep length (IDLESCOPE_F_TEO_SAFETY_NET).  A model whose
 * select asked for the sleep length, as the kernel's did, takes the first;
 * a 6.12 model that did not ask (sleep length KTIME_MAX) where the kernel
 * did can only reach KTIME_MAX through a safety net: it takes the second.
 */
struct model_teo_reflected {
	int	last_state_idx;		/* -1: nothing to update from */
	__s64	last_residency_ns;
	__s64	sleep_length_ns;	/* this model's */
	__s64	recorded_sleep_length_ns;	/* the record's of that select */
	bool	span_full;		/* time_span_ns >= sleep_length_ns */
};

/* struct teo_bin of 6.1 */
struct model_teo_bin {
	unsigned int intercepts;
	unsigned int hits;
	unsigned int recent;
};

/* struct teo_cpu of 6.1, time_span_ns as span_full in @r */
struct model_teo {
	struct model_teo_reflected r;
	struct model_teo_bin state_bins[IDLESCOPE_MAX_STATES];
	unsigned int total;
	int next_recent_idx;
	int recent_idx[TEO_NR_RECENT];
};

/* struct teo_bin of 6.12: no recent intercepts */
struct model_teo612_bin {
	unsigned int intercepts;
	unsigned int hits;
};

/* struct teo_cpu of 6.12 */
struct model_teo612 {
	struct model_teo_reflected r;
	struct model_teo612_bin state_bins[IDLESCOPE_MAX_STATES];
	unsigned int total;
	unsigned int tick_hits;
};

/*
 * struct teo70_cpu of our 6.12 series' teo70 (kernel/patches/6.12, 7.0's
 * teo), with what its update reads of the period before: the core's
 * dev->last_state_idx, last_residency_ns and poll_time_limit.
 */
struct model_teo70 {
	bool	enabled;		/* ->enable() ran, no select since */
	int	last_state_idx;		/* -1: nothing to update from */
	__s64	last_residency_ns;
	bool	poll_time_limit;
	bool	tick_wakeup;		/* teo70_reflect()'s */
	__s64	sleep_length_ns;	/* KTIME_MAX when select did not ask */
	struct model_teo612_bin state_bins[IDLESCOPE_MAX_STATES];
	unsigned int total;
	unsigned int total_tick;
	unsigned int tick_intercepts;
	unsigned int short_idles;
};

/**
 * model_teo_data() - 6.1 teo's data inside a model's per-CPU state
 * @ms: the state of a teo model
 *
 * For the model's code and for tests that look inside; no check that @ms
 * is of that model.
 *
 * Return: @ms's data as struct model_teo.
 */
static inline struct model_teo *model_teo_data(struct model_state *ms)
{
	return (struct model_teo *)ms->data.bytes;
}

/**
 * model_teo612_data() - 6.12 teo's data inside a model's per-CPU state
 * @ms: the state of a teo612 model (or one of its variants)
 *
 * Return: @ms's data as struct model_teo612.
 */
static inline struct model_teo612 *model_teo612_data(struct model_state *ms)
{
	return (struct model_teo612 *)ms->data.bytes;
}

/**
 * model_teo70_data() - teo70's data inside a model's per-CPU state
 * @ms: the state of a teo70 model
 *
 * Return: @ms's data as struct model_teo70.
 */
static inline struct model_teo70 *model_teo70_data(struct model_state *ms)
{
	return (struct model_teo70 *)ms->data.bytes;
}

/**
 * model_teo_reflected_reset() - what ->enable() leaves for the first update
 * @r: the model's reflected data
 *
 * teo_enable_device() zeroes teo's data: time_span_ns and sleep_length_ns
 * are 0, so the first update takes the span as full.  It does not touch
 * dev->last_state_idx, which the previous governor's reflect left at the
 * state it entered: that update runs.
 */
void model_teo_reflected_reset(struct model_teo_reflected *r);

/**
 * model_teo_reflect() - teo_reflect() of the period before, if any
 * @r: the model's reflected data
 * @own_choice: the state this model chose for that period (-1: none)
 * @in: the period being selected, with what reflect learnt of the one before
 * @table: the idle states
 */
void model_teo_reflect(struct model_teo_reflected *r, int own_choice,
		       const struct model_input *in,
		       const struct model_states_table *table);

/**
 * model_teo_measured_ns() - the idle duration teo_update() bins
 * @r: the model's reflected data, with a state to update from
 * @table: the idle states
 *
 * Return: U64_MAX when the span reached the sleep length, else the
 * residency less half the exit latency of the state entered.
 */
__u64 model_teo_measured_ns(const struct model_teo_reflected *r,
			    const struct model_states_table *table);

/**
 * model_teo_find_shallower_state() - teo_find_shallower_state() of 6.1 and 7.0
 * @table: the idle states
 * @state_idx: the candidate
 * @duration_ns: the time the state must fit in
 *
 * Without 6.12's test of polling states (6.19 dropped it again).
 *
 * Return: the deepest enabled state below @state_idx whose target
 * residency fits @duration_ns, else the shallowest enabled one below it,
 * else @state_idx.
 */
int model_teo_find_shallower_state(const struct model_states_table *table,
				   int state_idx, __s64 duration_ns);

/**
 * model_teo_sleep_length() - teo's tick_nohz_get_sleep_length() call
 * @ms: the model
 * @r: its reflected data: the sleep length is kept there
 * @in: the period
 * @delta_tick_ns: set to the time to the tick device's next event
 *
 * Return: the sleep length (duration_ns).
 */
__s64 model_teo_sleep_length(struct model_state *ms, struct model_teo_reflected *r,
			     const struct model_input *in, __s64 *delta_tick_ns);

/*
 * 6.12's teo as it is, and the two variants of the ablation of its 300 us
 * result (docs/kernels.md): as it is but scored only where the record
 * holds the sleep length, and with 6.1's candidate (the deepest state
 * within the sleep length, asked for first) in place of 6.12's (the
 * deepest state), everything else 6.12's.
 */
enum model_teo612_variant {
	TEO612_AS_IS,
	TEO612_KNOWN_SLEEP,
	TEO612_CANDIDATE_61,
};

/**
 * model_teo612_step() - one period of 6.12's teo, or of a variant
 * @ms: the model's per-CPU state
 * @in: the period
 * @table: the idle states
 * @variant: which
 *
 * Return: IDLESCOPE_UNKNOWN_NS (teo predicts no duration).
 */
__u64 model_teo612_step(struct model_state *ms, const struct model_input *in,
			const struct model_states_table *table,
			enum model_teo612_variant variant);

#endif /* __IDLESCOPE_MODELS_TEO_H */
