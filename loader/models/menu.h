/* SPDX-License-Identifier: GPL-2.0 */
/*
 * menu.h - the per-CPU data of the stock menu model, the constants of the
 * kernel code it mirrors, and its select in two steps for rebuilding a
 * prediction from menu's own data (menu.c has the model).
 */
#ifndef __IDLESCOPE_MODELS_MENU_H
#define __IDLESCOPE_MODELS_MENU_H

#include "models/models.h"

/* drivers/cpuidle/governors/menu.c (6.1) */
#define MENU_BUCKETS		IDLESCOPE_MENU_BUCKETS
#define MENU_INTERVAL_SHIFT	3
#define MENU_INTERVALS		(1U << MENU_INTERVAL_SHIFT)
#define MENU_RESOLUTION		1024
#define MENU_DECAY		8
#define MENU_MAX_INTERESTING	(50000ULL * 1000)	/* ns */

/* 6.12's menu.c: half the buckets (no I/O-wait half) */
#define MENU612_BUCKETS		6

/*
 * struct menu_device, with the observation field of patch 0004, plus what
 * the core keeps in struct cpuidle_device for menu_update().
 */
struct model_menu {
	int		needs_update;
	int		tick_wakeup;
	__u64		next_timer_ns;
	unsigned int	bucket;
	unsigned int	correction_factor[MENU_BUCKETS];
	unsigned int	intervals[MENU_INTERVALS];
	int		interval_ptr;
	unsigned int	typical_interval_us;	/* UINT_MAX if none */
	__u64		predicted_ns;		/* 6.12: patch 0004's */
	/* dev->last_state_idx, dev->last_residency_ns, dev->poll_time_limit */
	int		last_state_idx;
	__u64		last_residency_ns;
	bool		last_residency_known;	/* since model_reset() */
	bool		poll_time_limit;
};

/**
 * model_menu_data() - a stock menu model's data inside its per-CPU state
 * @ms: the state of a menu, menu612 or menu615 model
 *
 * For the model's code and for tests that look inside; no check that @ms
 * is of a menu model.
 *
 * Return: @ms's data as struct model_menu.
 */
static inline struct model_menu *model_menu_data(struct model_state *ms)
{
	return (struct model_menu *)ms->data.bytes;
}

/**
 * model_menu_which_bucket() - menu's which_bucket()
 * @duration_ns: the sleep length
 * @nr_iowaiters: 6.1's I/O waiters (the upper half of its buckets); 0 for
 *	6.12's, which has no such half
 *
 * Return: the correction factor's index, by decade of @duration_ns.
 */
int model_menu_which_bucket(__u64 duration_ns, unsigned int nr_iowaiters);

/**
 * model_menu_learn() - what stock menu's select does before it predicts
 * @data: the model's data
 * @in: the period; its reflect of the period before, lost selects
 * @last_state: the state that period entered (dev->last_state_idx)
 * @table: the idle states
 *
 * menu_reflect() of the period before, then the update at the top of
 * menu_select(): menu_update() of a reflected period, or an unknown
 * interval after a select that entered no state.  The same in 6.1 and
 * 6.12 but for the number of buckets, which is the caller's.
 */
void model_menu_learn(struct model_menu *data, const struct model_input *in,
		      int last_state, const struct model_states_table *table);

/* When get_typical_interval() gives up before computing anything. */
enum model_menu_typical_cut {
	MENU_TYPICAL_BELOW_PREDICTION,	/* 6.1: no interval below the prediction */
	MENU_TYPICAL_NO_INTERVAL,	/* 6.12: every interval is 0 */
};

/**
 * model_menu_typical_interval() - menu's get_typical_interval()
 * @intervals: the last MENU_INTERVALS intervals in us
 * @predicted_us: 6.1's prediction so far (unused by @cut of 6.12)
 * @cut: the kernel's test for giving up at once
 *
 * Return: the average of the intervals when they are steady enough,
 * after dropping high outliers; UINT_MAX when they are not.
 */
unsigned int model_menu_typical_interval(const unsigned int *intervals,
					 unsigned int predicted_us,
					 enum model_menu_typical_cut cut);

/**
 * model_menu_returns_early() - whether menu_select() returns before predicting
 * @next_timer_ns: the sleep length select saw
 * @latency_req_ns: the PM QoS limit select used
 * @table: the idle states
 *
 * Too few states, a PM QoS limit of 0, or state 1 too long or too slow for
 * the next timer or the limit make menu return state 0 at once.
 *
 * Return: true when it does.
 */
bool model_menu_returns_early(__u64 next_timer_ns, __s64 latency_req_ns,
			      const struct model_states_table *table);

/**
 * model_menu_predict_ns() - stock menu's prediction from its own data
 * @next_timer_ns: the sleep length select saw
 * @correction_factor: correction_factor[bucket] at select
 * @intervals_us: the recent intervals at select
 * @typical_interval_us: set to the pattern detector's verdict (UINT_MAX: none)
 *
 * For the model, and for rebuilding the prediction of a kernel without
 * patch 0004 (replay/reconstruct.c).
 *
 * Return: the prediction as patch 0004 stores it.
 */
__u64 model_menu_predict_ns(__u64 next_timer_ns, unsigned int correction_factor,
			    const unsigned int intervals_us[MENU_INTERVALS],
			    unsigned int *typical_interval_us);

/* A reading of the recent intervals: a kernel's get_typical_interval(). */
typedef unsigned int model_menu_typical_fn(const unsigned int *intervals_us);

/**
 * model_menu612_typical_interval() - get_typical_interval() of 6.12's menu
 * @intervals_us: the last MENU_INTERVALS intervals in us
 *
 * Return: the typical interval, UINT_MAX when there is none.
 */
unsigned int model_menu612_typical_interval(const unsigned int *intervals_us);

/**
 * model_menu615_typical_interval() - get_typical_interval() of 6.15's menu
 * @intervals_us: the last MENU_INTERVALS intervals in us
 *
 * Outliers go from either end, and when too few samples are left to drop
 * another, the largest of at least half of them is returned (menu615.c).
 *
 * Return: the typical interval, UINT_MAX when there is none.
 */
unsigned int model_menu615_typical_interval(const unsigned int *intervals_us);

/**
 * model_menu612_step() - one period of 6.12's menu with a reading of the intervals
 * @ms: the model's per-CPU state
 * @in: the period
 * @table: the idle states
 * @typical: its get_typical_interval()
 *
 * menu612_step() with 6.12's reading; menu615_step() with 6.15's.
 *
 * Return: the prediction as patch 0004 stores it.
 */
__u64 model_menu612_step(struct model_state *ms, const struct model_input *in,
			 const struct model_states_table *table,
			 model_menu_typical_fn *typical);

/**
 * model_menu612_predict_ns() - 6.12 menu's prediction from its own data
 * @next_timer_ns: the sleep length select asked for, KTIME_MAX when it
 *	did not (a typical interval short enough with the tick running)
 * @correction_factor: correction_factor[bucket] at select
 * @typical_interval_us: get_typical_interval()'s verdict (UINT_MAX: none)
 *
 * For the model, and for rebuilding the prediction of a 6.12 kernel
 * without patch 0004 (replay/reconstruct.c).
 *
 * Return: the prediction as 6.12's patch 0004 stores it: the typical
 * interval, or the timer scaled by the factor if that is lower.
 */
__u64 model_menu612_predict_ns(__u64 next_timer_ns, unsigned int correction_factor,
				unsigned int typical_interval_us);

#endif /* __IDLESCOPE_MODELS_MENU_H */
