// SPDX-License-Identifier: GPL-2.0
/*
 * why.c - wake-up classes, tick decisions and energy per key (see
 * stats/why.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/buckets.h"
#include "stats/sat.h"
#include "stats/why.h"

#define NSEC_PER_SEC		1000000000ULL

struct why {
	struct why_stats *keys[WHY_MAX_WORKLOADS][IDLESCOPE_NR_GOVERNORS][IDLESCOPE_MAX_CPUS];
	int nr_states;
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	__u64 tick_ns;			/* 0: HZ unknown */
	struct power_table power;
	struct wake_names names;
	wake_resolve_fn resolve;
	void *resolve_ctx;
	int nr_classes;
	struct wake_class classes[WAKE_MAX_CLASSES];
};

struct why *why_new(void)
{
	return calloc(1, sizeof(struct why));
}

void why_free(struct why *why)
{
	int w, g, c;

	if (!why)
		return;
	for (w = 0; w < WHY_MAX_WORKLOADS; w++)
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			for (c = 0; c < IDLESCOPE_MAX_CPUS; c++)
				free(why->keys[w][g][c]);
	free(why);
}

void why_set_states(struct why *why, const struct idlescope_state *states,
		    int nr_states, unsigned int hz)
{
	if (nr_states < 0 || nr_states > IDLESCOPE_MAX_STATES)
		nr_states = 0;
	memset(why->states, 0, sizeof(why->states));
	memcpy(why->states, states, sizeof(*states) * nr_states);
	why->nr_states = nr_states;
	why->tick_ns = hz ? NSEC_PER_SEC / hz : 0;
}

int why_set_power(struct why *why, const struct power_table *table)
{
	if (table && table->nr_states && table->nr_states != why->nr_states)
		return -EINVAL;
	if (table)
		why->power = *table;
	else
		memset(&why->power, 0, sizeof(why->power));
	return 0;
}

const struct power_table *why_power(const struct why *why)
{
	return &why->power;
}

void why_set_names(struct why *why, const struct wake_names *names)
{
	if (names)
		why->names = *names;
	else
		memset(&why->names, 0, sizeof(why->names));
}

void why_set_resolver(struct why *why, wake_resolve_fn resolve, void *ctx)
{
	why->resolve = resolve;
	why->resolve_ctx = ctx;
}

const struct wake_names *why_names(const struct why *why)
{
	return &why->names;
}

int why_nr_classes(const struct why *why)
{
	return why->nr_classes;
}

const struct wake_class *why_class(const struct why *why, int index)
{
	if (index < 0 || index >= why->nr_classes)
		return NULL;
	return &why->classes[index];
}

/* Ask the resolver, once, for a number the record names and the table lacks. */
static void resolve_name(struct why *why, __u32 kind, __u64 value)
{
	char name[WAKE_NAME_LEN];

	if (!why->resolve || wake_names_find(&why->names, kind, value))
		return;
	if (why->resolve(why->resolve_ctx, kind, value, name, sizeof(name)))
		snprintf(name, sizeof(name), "%s", "");
	/* An empty name remembers that there is none: asked once. */
	wake_names_add(&why->names, kind, value, name);
}

static bool same_class(const struct wake_class *a, const struct wake_class *b)
{
	return a->source == b->source && a->detail == b->detail && a->value == b->value &&
	       !strcmp(a->name, b->name);
}

/* The index of @cls among @why's classes, added when new; -1 past WAKE_MAX_CLASSES. */
static int intern_class(struct why *why, const struct wake_class *cls)
{
	int i;

	for (i = 0; i < why->nr_classes; i++)
		if (same_class(&why->classes[i], cls))
			return i;
	if (why->nr_classes == WAKE_MAX_CLASSES)
		return -1;
	why->classes[why->nr_classes] = *cls;
	return why->nr_classes++;
}

/* The index of the record's class, interned; -1 past WAKE_MAX_CLASSES. */
static int class_index(struct why *why, const struct idlescope_record *rec)
{
	bool polling = rec->state >= 0 && rec->state < why->nr_states &&
		       why->states[rec->state].polling;
	struct wake_class cls;

	if (rec->wake_source == IDLESCOPE_WAKE_HRTIMER)
		resolve_name(why, WAKE_NAME_FUNCTION, rec->wake_fn);
	else if (rec->wake_source == IDLESCOPE_WAKE_IRQ)
		resolve_name(why, WAKE_NAME_IRQ, rec->wake_irq);
	wake_class_of(rec, polling, &why->names, &cls);
	return intern_class(why, &cls);
}

static bool prediction_made(const struct idlescope_record *rec)
{
	return (rec->flags & IDLESCOPE_F_PREDICTED) && rec->predicted_ns &&
	       rec->predicted_ns != IDLESCOPE_UNKNOWN_NS;
}

static void score_class(struct wake_score *sc, const struct period *p, int ideal_state)
{
	const struct idlescope_record *rec = p->rec;
	bool within;

	sc->periods++;
	sat_inc(&sc->residency_ns, p->woke_ns);
	sc->resched += !!(rec->flags & IDLESCOPE_F_WAKE_RESCHED);
	sc->miss_above += !!(rec->flags & IDLESCOPE_F_MISS_ABOVE);
	sc->miss_below += !!(rec->flags & IDLESCOPE_F_MISS_BELOW);
	if (prediction_made(rec)) {
		within = agg_within_ratio(rec->predicted_ns, p->woke_ns, 2, 1);
		sc->predicted++;
		sc->within_2x += within;
		ci_add_hit(&sc->within_2x_ci, within);
	}
	if (ideal_state >= 0 && rec->state >= 0) {
		sc->ideal_scored++;
		sc->ideal_hit += rec->state == ideal_state;
		sc->too_deep += rec->state > ideal_state;
		sc->too_shallow += rec->state < ideal_state;
		ci_add_hit(&sc->ideal_hit_ci, rec->state == ideal_state);
	}
}

/*
 * The period's energy in its state and in the oracle's, both over the time
 * until its wake-up (stats/period.h), each with its own state's entry and
 * exit energy.  The governor's state is a candidate too: were it outside
 * what the oracle may pick (a PM QoS limit that changed under it), the
 * oracle still spends no more.
 */
static void score_energy(const struct why *why, struct energy_stats *es,
			 const struct period *p)
{
	const struct idlescope_record *rec = p->rec;
	const struct power_table *pt = &why->power;
	__s64 latency_req_ns = rec->flags & IDLESCOPE_F_SELECT_PROBED ?
			       rec->latency_req_ns : IDLESCOPE_LATENCY_REQ_UNKNOWN;
	energy_fj_t fj, oracle_fj;
	int oracle;

	if (rec->state < 0 || rec->state >= pt->nr_states || rec->state >= why->nr_states)
		return;
	fj = energy_of_period_fj(&pt->states[rec->state], p->woke_ns);
	oracle = energy_oracle_state(pt, why->states, why->nr_states, p->woke_ns,
				     latency_req_ns);
	oracle_fj = oracle < 0 ? fj : energy_of_period_fj(&pt->states[oracle], p->woke_ns);
	if (oracle < 0 || oracle_fj > fj) {
		oracle = rec->state;
		oracle_fj = fj;
	}
	es->periods++;
	es->energy_fj += fj;
	es->oracle_fj += oracle_fj;
	sat_inc(&es->exit_latency_ns, why->states[rec->state].exit_latency_ns);
	sat_inc(&es->oracle_exit_latency_ns, why->states[oracle].exit_latency_ns);
	sat_inc(&es->idle_ns, p->woke_ns);
	if (rec->state < oracle) {
		es->shallower++;
		sat_inc(&es->shallow_ns, p->woke_ns);
	}
	es->deeper += rec->state > oracle;
	ci_add(&es->excess_ci, (double)(fj - oracle_fj), (double)oracle_fj);
}

int why_add(struct why *why, int workload, const struct period *p, int ideal_state)
{
	const struct idlescope_record *rec = p->rec;
	struct why_stats **slot, *st;
	enum wake_verdict verdict;
	int cls;

	if (workload < 0 || workload >= WHY_MAX_WORKLOADS ||
	    rec->governor >= IDLESCOPE_NR_GOVERNORS || rec->cpu >= IDLESCOPE_MAX_CPUS)
		return -EINVAL;
	slot = &why->keys[workload][rec->governor][rec->cpu];
	if (!*slot)
		*slot = calloc(1, sizeof(**slot));
	st = *slot;
	if (!st)
		return -ENOMEM;
	st->periods++;
	tick_stats_add(&st->tick, tick_verdict_of(rec, p->woke_ns, why->tick_ns));
	if (why->power.nr_states)
		score_energy(why, &st->energy, p);
	if (!(rec->flags & IDLESCOPE_F_HAS_WAKE))
		return 0;
	st->wake_known++;
	cls = class_index(why, rec);
	if (cls < 0) {
		st->other_periods++;
		return 0;
	}
	score_class(&st->cls[cls], p, ideal_state);
	verdict = wake_class_verdict(&why->classes[cls]);
	if (verdict == WAKE_NEITHER)
		return 0;
	st->hits += verdict == WAKE_HIT;
	st->intercepts += verdict == WAKE_INTERCEPT;
	ci_add_hit(&st->intercept_ci, verdict == WAKE_INTERCEPT);
	return 0;
}

static void wake_score_merge(struct wake_score *dst, const struct wake_score *src)
{
	dst->periods += src->periods;
	sat_inc(&dst->residency_ns, src->residency_ns);
	dst->resched += src->resched;
	dst->predicted += src->predicted;
	dst->within_2x += src->within_2x;
	dst->ideal_scored += src->ideal_scored;
	dst->ideal_hit += src->ideal_hit;
	dst->too_deep += src->too_deep;
	dst->too_shallow += src->too_shallow;
	dst->miss_above += src->miss_above;
	dst->miss_below += src->miss_below;
	ci_merge(&dst->within_2x_ci, &src->within_2x_ci);
	ci_merge(&dst->ideal_hit_ci, &src->ideal_hit_ci);
}

static void energy_stats_merge(struct energy_stats *dst, const struct energy_stats *src)
{
	dst->periods += src->periods;
	dst->energy_fj += src->energy_fj;
	dst->oracle_fj += src->oracle_fj;
	sat_inc(&dst->exit_latency_ns, src->exit_latency_ns);
	sat_inc(&dst->oracle_exit_latency_ns, src->oracle_exit_latency_ns);
	sat_inc(&dst->idle_ns, src->idle_ns);
	sat_inc(&dst->shallow_ns, src->shallow_ns);
	dst->shallower += src->shallower;
	dst->deeper += src->deeper;
	ci_merge(&dst->excess_ci, &src->excess_ci);
}

void why_stats_merge(struct why_stats *dst, const struct why_stats *src)
{
	int i;

	dst->periods += src->periods;
	dst->wake_known += src->wake_known;
	dst->hits += src->hits;
	dst->intercepts += src->intercepts;
	ci_merge(&dst->intercept_ci, &src->intercept_ci);
	tick_stats_merge(&dst->tick, &src->tick);
	energy_stats_merge(&dst->energy, &src->energy);
	dst->other_periods += src->other_periods;
	for (i = 0; i < WAKE_MAX_CLASSES; i++)
		if (src->cls[i].periods)
			wake_score_merge(&dst->cls[i], &src->cls[i]);
}

void why_set_like(struct why *dst, const struct why *src)
{
	dst->nr_states = src->nr_states;
	memcpy(dst->states, src->states, sizeof(dst->states));
	dst->tick_ns = src->tick_ns;
	dst->power = src->power;
	dst->resolve = src->resolve;
	dst->resolve_ctx = src->resolve_ctx;
}

/* @src's stats with its classes renumbered as @dst's (@class_map). */
static void add_renumbered(struct why_stats *dst, const struct why_stats *src,
			   const int *class_map, int nr_classes, struct why_stats *tmp)
{
	int i;

	*tmp = *src;
	memset(tmp->cls, 0, sizeof(tmp->cls));
	for (i = 0; i < nr_classes; i++) {
		if (!src->cls[i].periods)
			continue;
		if (class_map[i] < 0)
			tmp->other_periods += src->cls[i].periods;
		else
			wake_score_merge(&tmp->cls[class_map[i]], &src->cls[i]);
	}
	why_stats_merge(dst, tmp);
}

int why_merge(struct why *dst, const struct why *src, const int *workload_map)
{
	int class_map[WAKE_MAX_CLASSES];
	struct why_stats **slot, *tmp;
	int i, w, g, c;

	for (i = 0; i < src->nr_classes; i++)
		class_map[i] = intern_class(dst, &src->classes[i]);
	tmp = malloc(sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	for (w = 0; w < WHY_MAX_WORKLOADS; w++)
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			for (c = 0; c < IDLESCOPE_MAX_CPUS; c++) {
				if (!src->keys[w][g][c])
					continue;
				slot = &dst->keys[workload_map[w]][g][c];
				if (!*slot)
					*slot = calloc(1, sizeof(**slot));
				if (!*slot) {
					free(tmp);
					return -ENOMEM;
				}
				add_renumbered(*slot, src->keys[w][g][c], class_map,
					       src->nr_classes, tmp);
			}
	free(tmp);
	return 0;
}

static bool matches(int want, int have)
{
	return want < 0 || want == have;
}

int why_sum(const struct why *why, int workload, int governor, int cpu,
	    struct why_stats *out)
{
	int w, g, c, nr_keys = 0;

	memset(out, 0, sizeof(*out));
	for (w = 0; w < WHY_MAX_WORKLOADS; w++)
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			for (c = 0; c < IDLESCOPE_MAX_CPUS; c++) {
				if (!why->keys[w][g][c] || !matches(workload, w) ||
				    !matches(governor, g) || !matches(cpu, c))
					continue;
				why_stats_merge(out, why->keys[w][g][c]);
				nr_keys++;
			}
	return nr_keys;
}
