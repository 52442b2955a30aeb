/* SPDX-License-Identifier: GPL-2.0 */
/*
 * why.h - why the governor missed and what it cost, per (workload,
 * governor, CPU), beside the aggregate's scores: every score broken down
 * by what ended the period (stats/wakeup.h), the teo-style hit/intercept
 * split, the tick decision judged (stats/tickstop.h), and the energy and
 * exit latency against the oracle (stats/energy.h).
 *
 * The aggregate owns one (agg_why()) and feeds it every record it counts
 * (agg_add()); the pipeline gives it what a record alone does not say:
 * the state table, HZ, the power table, the names of the numbers in the
 * records.  Keys are stored only once they have records: a class's scores
 * are kept per key, for every class of the report.
 *
 * Pure C: no libbpf.
 */
#ifndef __IDLESCOPE_STATS_WHY_H
#define __IDLESCOPE_STATS_WHY_H

#include <linux/types.h>
#include "idlescope.h"
#include "stats/ci.h"
#include "stats/energy.h"
#include "stats/period.h"
#include "stats/tickstop.h"
#include "stats/wakeup.h"

/* Workloads, as the aggregate's AGG_MAX_WORKLOADS (aggregate.c checks). */
#define WHY_MAX_WORKLOADS	64

/* One wake-up class's periods on one key, scored as the aggregate scores all. */
struct wake_score {
	__u64 periods;
	__u64 residency_ns;		/* until the wake-ups (stats/period.h) */
	__u64 resched;			/* the wake-up had a task to run */
	__u64 predicted;		/* predictions made */
	__u64 within_2x;
	__u64 ideal_scored;		/* periods scored against the ideal state */
	__u64 ideal_hit, too_deep, too_shallow;
	__u64 miss_above, miss_below;	/* the kernel's cpu_idle_miss */
	struct ci_acc within_2x_ci;	/* of predictions */
	struct ci_acc ideal_hit_ci;	/* of periods scored */
};

/* The energy of a key's periods, the governor's states against the oracle's. */
struct energy_stats {
	__u64 periods;			/* periods the power table covered */
	energy_fj_t energy_fj;		/* in the states entered */
	energy_fj_t oracle_fj;		/* in the oracle's states */
	__u64 exit_latency_ns;		/* exit latencies of the states entered */
	__u64 oracle_exit_latency_ns;
	__u64 idle_ns;			/* until the wake-ups (stats/period.h) */
	__u64 shallow_ns;		/* idle time shallower than the oracle's state */
	__u64 shallower, deeper;	/* periods shallower / deeper than the oracle */
	struct ci_acc excess_ci;	/* (energy - oracle's) over the oracle's */
};

struct why_stats {
	__u64 periods;
	__u64 wake_known;		/* with IDLESCOPE_F_HAS_WAKE */
	__u64 hits, intercepts;		/* wake_class_verdict() */
	struct ci_acc intercept_ci;	/* of hits + intercepts */
	struct tick_stats tick;
	struct energy_stats energy;
	__u64 other_periods;		/* of classes beyond WAKE_MAX_CLASSES */
	struct wake_score cls[WAKE_MAX_CLASSES];	/* by why_class() index */
};

struct why;

/**
 * why_new() - an empty store: no states, no power table, HZ unknown
 *
 * Return: the store, or NULL when out of memory.
 */
struct why *why_new(void);

/**
 * why_free() - free a store
 * @why: from why_new(), or NULL
 */
void why_free(struct why *why);

/**
 * why_set_states() - the state table, for the oracle and the polling state
 * @why: the store
 * @states: states 0..@nr_states-1 (copied)
 * @nr_states: how many, at most IDLESCOPE_MAX_STATES
 * @hz: the kernel's tick rate, 0 unknown
 */
void why_set_states(struct why *why, const struct idlescope_state *states,
		    int nr_states, unsigned int hz);

/**
 * why_set_power() - the power table the energy is computed with
 * @why: the store
 * @table: copied; NULL or an empty one: no energy
 *
 * Return: 0, or -EINVAL when its number of states is not the state
 * table's (nothing changed).
 */
int why_set_power(struct why *why, const struct power_table *table);

/**
 * why_power() - the power table in use
 * @why: the store
 *
 * Return: the table, nr_states 0 when there is none.
 */
const struct power_table *why_power(const struct why *why);

/**
 * why_set_names() - the names of the numbers in the records to come
 * @why: the store
 * @names: copied (a record file's table); NULL: none
 */
void why_set_names(struct why *why, const struct wake_names *names);

/**
 * why_set_resolver() - resolve numbers without a name as they appear
 * @why: the store
 * @resolve: called once per number, its names added to the table; NULL:
 *	none
 * @ctx: passed to it
 */
void why_set_resolver(struct why *why, wake_resolve_fn resolve, void *ctx);

/**
 * why_names() - the names known now (given and resolved)
 * @why: the store
 *
 * Return: the table.
 */
const struct wake_names *why_names(const struct why *why);

/**
 * why_add() - one raw period
 * @why: the store
 * @workload: the aggregate's index of its workload, < AGG_MAX_WORKLOADS
 * @p: the period (stats/period.h), judged by its wake-up; its record's cpu
 *	and governor are in range
 * @ideal_state: agg_ideal_state() of the period, -1 when not scored
 *
 * Return: 0, or -ENOMEM (nothing counted).
 */
int why_add(struct why *why, int workload, const struct period *p, int ideal_state);

/**
 * why_nr_classes() - how many wake-up classes the records had
 * @why: the store
 *
 * Return: the number of classes interned, at most WAKE_MAX_CLASSES.
 */
int why_nr_classes(const struct why *why);

/**
 * why_class() - one wake-up class
 * @why: the store
 * @index: 0..why_nr_classes() - 1
 *
 * Return: the class, or NULL for an index out of range.
 */
const struct wake_class *why_class(const struct why *why, int index);

/**
 * why_sum() - the sum of every key that matches
 * @why: the store
 * @workload: an index, or -1 for any
 * @governor: enum idlescope_governor, or -1 for any
 * @cpu: a CPU, or -1 for any
 * @out: overwritten with the sum
 *
 * Return: the number of keys summed.
 */
int why_sum(const struct why *why, int workload, int governor, int cpu,
	    struct why_stats *out);

/**
 * why_set_like() - another store's settings: states, HZ, power table, resolver
 * @dst: the store to set (its names stay: they are its file's)
 * @src: the store to copy them from
 */
void why_set_like(struct why *dst, const struct why *src);

/**
 * why_merge() - add every key of one store to another
 * @dst: the sum
 * @src: what to add
 * @workload_map: @dst's workload index of each of @src's
 *
 * @src's wake-up classes become @dst's (the same class once, by what it
 * is, not by its index); a class beyond @dst's WAKE_MAX_CLASSES is counted
 * in other_periods, as why_add() counts it.
 *
 * Return: 0, or -ENOMEM.
 */
int why_merge(struct why *dst, const struct why *src, const int *workload_map);

/**
 * why_stats_merge() - add one key's stats to another's
 * @dst: the sum
 * @src: what to add
 */
void why_stats_merge(struct why_stats *dst, const struct why_stats *src);

#endif /* __IDLESCOPE_STATS_WHY_H */
