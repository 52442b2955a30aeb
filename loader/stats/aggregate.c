// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate.c - fold idlescope records into per (workload, governor, CPU)
 * statistics.
 *
 * A period (stats/period.h) says how long the CPU idled until its wake-up,
 * what the governor expected (predicted_ns, when IDLESCOPE_F_PREDICTED is
 * set) and which state held it.  From those we answer the seed's question,
 * "how often is the prediction within a factor F of the truth", and its
 * consequence, "how often did that put the CPU in a state that was too deep
 * or too shallow".  The latter comes twice: from the kernel's own
 * cpu_idle_miss flags, and from our re-computation of the same rule against
 * the state table read from sysfs, so a disagreement points at a bug on one
 * side: both on the kernel's own measure, entry to exit.  Every other score
 * judges the period by its wake-up: against the deepest state that paid
 * for the time until then, the ideal one.
 *
 * The table is a fixed array [AGG_MAX_WORKLOADS][governors][cpus]: the
 * governor and CPU are small dense ids, and workload names are interned in
 * the order they are first seen.  Its layout is stats/agg_table.h; the
 * models' scores on the same periods are stats/shadows.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "stats/aggregate.h"
#include "stats/agg_table.h"
#include "stats/sat.h"
#include "format/escape.h"
#include "stats/why.h"

_Static_assert(WHY_MAX_WORKLOADS == AGG_MAX_WORKLOADS, "why.h keys the aggregate's workloads");

#define NS_PER_US	1000ULL

_Static_assert(AGG_WORKLOAD_NAME_LEN == ESCAPE_SIZE(IDLESCOPE_WORKLOAD_LEN),
	       "a workload name holds any tag escaped");

/*
 * Mapped, not calloc()ed: the table is large (every workload x governor x
 * CPU) and mostly never touched, and fresh pages cost only once touched;
 * a sanitizer's calloc() would write all of it, twice a report (the
 * reader's fuzz target runs thousands).
 */
struct agg *agg_new(void)
{
	struct agg *agg = mmap(NULL, sizeof(struct agg), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (agg == MAP_FAILED)
		return NULL;
	agg->why = why_new();
	if (!agg->why) {
		munmap(agg, sizeof(*agg));
		return NULL;
	}
	return agg;
}

void agg_attach_logical(struct agg *agg, struct agg *logical)
{
	agg_free(agg->logical);
	agg->logical = logical;
	memset(agg->logical_workload, 0, sizeof(agg->logical_workload));
	logical_init(&agg->merger, agg->nr_shadows);
	if (logical)
		logical->is_logical = true;
}

struct agg *agg_logical(const struct agg *agg)
{
	return agg->logical;
}

void agg_free(struct agg *agg)
{
	int b;

	if (!agg)
		return;
	for (b = 0; b < agg->nr_boots; b++)
		agg_free(agg->boots[b]);
	agg_free(agg->logical);
	why_free(agg->why);
	munmap(agg, sizeof(*agg));
}

struct why *agg_why(const struct agg *agg)
{
	return agg->why;
}

int agg_set_states(struct agg *agg, const struct agg_state_info *states,
		   int nr_states)
{
	if (nr_states < 0 || nr_states > IDLESCOPE_MAX_STATES)
		return -EINVAL;
	memset(agg->states, 0, sizeof(agg->states));
	if (nr_states)
		memcpy(agg->states, states, nr_states * sizeof(*states));
	agg->nr_states = nr_states;
	return 0;
}

int agg_nr_states(const struct agg *agg)
{
	return agg->nr_states;
}

const struct agg_state_info *agg_state(const struct agg *agg, int index)
{
	if (index < 0 || index >= agg->nr_states)
		return NULL;
	return &agg->states[index];
}

int agg_ideal_state(const struct agg *agg, __u64 residency_ns,
		    __s64 latency_req_ns)
{
	int i, ideal = -1;

	for (i = 0; i < agg->nr_states; i++) {
		const struct agg_state_info *s = &agg->states[i];

		if (s->disabled)
			continue;
		if (ideal < 0)
			ideal = i;	/* the shallowest: nothing deeper fits */
		if (s->target_residency_ns > residency_ns)
			continue;
		if (latency_req_ns != IDLESCOPE_LATENCY_REQ_UNKNOWN &&
		    (__s64)s->exit_latency_ns > latency_req_ns)
			continue;
		ideal = i;
	}
	return ideal;
}

int agg_nr_workloads(const struct agg *agg)
{
	return agg->nr_workloads;
}

const char *agg_workload_name(const struct agg *agg, int workload)
{
	if (workload < 0 || workload >= agg->nr_workloads)
		return NULL;
	return agg->workload_names[workload];
}

int agg_workload_index(const struct agg *agg, const char *name)
{
	int i;

	for (i = 0; i < agg->nr_workloads; i++)
		if (!strcmp(agg->workload_names[i], name))
			return i;
	return -1;
}

int agg_last_workload(const struct agg *agg)
{
	return agg->nr_workloads ? agg->last_workload : -1;
}

int agg_workload_of_tag(const struct agg *agg, const char *tag)
{
	char name[AGG_WORKLOAD_NAME_LEN];

	/* Most records carry the last record's tag: no string work for them. */
	if (agg->nr_workloads && !memcmp(tag, agg->last_tag, sizeof(agg->last_tag)))
		return agg->last_workload;
	return agg_workload_index(agg, escape_name(name, sizeof(name), tag,
						   IDLESCOPE_WORKLOAD_LEN));
}

/* Index of an already escaped workload name, adding it when new. */
static int intern_workload_name(struct agg *agg, const char *name)
{
	int i = agg_workload_index(agg, name);

	if (i < 0) {
		if (agg->nr_workloads == AGG_MAX_WORKLOADS)
			return -ENOSPC;
		i = agg->nr_workloads++;
		snprintf(agg->workload_names[i], AGG_WORKLOAD_NAME_LEN, "%s", name);
	}
	return i;
}

/* Index of the record's workload tag, interning it when new. */
static int intern_workload(struct agg *agg, const char *tag)
{
	char name[AGG_WORKLOAD_NAME_LEN];
	int i = agg_workload_of_tag(agg, tag);

	if (i < 0)
		i = intern_workload_name(agg, escape_name(name, sizeof(name), tag,
							  IDLESCOPE_WORKLOAD_LEN));
	if (i < 0)
		return i;
	agg->last_workload = i;
	memcpy(agg->last_tag, tag, sizeof(agg->last_tag));
	return i;
}

/*
 * The rule of cpuidle_enter_state(), on what the kernel measures (entry to
 * exit, the exit spent included), so that it checks cpu_idle_miss: too
 * deep when the period was shorter
 * than the entered state's target residency and some shallower state was
 * enabled; too shallow when, after paying the entered state's exit latency,
 * what is left still covers the target residency of the next enabled deeper
 * state.
 */
static void crosscheck_state(const struct agg *agg, struct agg_stats *st,
			     const struct idlescope_record *rec)
{
	const struct agg_state_info *states = agg->states;
	__u64 residency_ns = rec->residency_ns;
	int entered = rec->state;
	__u64 delay_ns;
	int i;

	if (entered < 0 || entered >= agg->nr_states)
		return;
	st->crosscheck_samples++;
	delay_ns = states[entered].exit_latency_ns;

	if (residency_ns < states[entered].target_residency_ns) {
		for (i = entered - 1; i >= 0; i--) {
			if (states[i].disabled)
				continue;
			st->too_deep_samples++;
			break;
		}
	} else if (residency_ns > delay_ns) {
		for (i = entered + 1; i < agg->nr_states; i++) {
			if (states[i].disabled)
				continue;
			if (residency_ns - delay_ns >= states[i].target_residency_ns)
				st->too_shallow_samples++;
			break;
		}
	}
}

/* The PM QoS limit select used, when the select probe read it. */
static __s64 period_latency_req_ns(const struct idlescope_record *rec)
{
	return rec->flags & IDLESCOPE_F_SELECT_PROBED ? rec->latency_req_ns :
	       IDLESCOPE_LATENCY_REQ_UNKNOWN;
}

int agg_period_ideal_state(const struct agg *agg, const struct period *p)
{
	return agg_ideal_state(agg, p->woke_ns, period_latency_req_ns(p->rec));
}

/* A period's shares into the counts and accumulators of an ideal-state score. */
void agg_score_shares(struct agg_ideal_score *sc, const struct period_shares *sh)
{
	(*sc->samples)++;
	if (sh->hit == 1.0)
		(*sc->hit_samples)++;
	else if (sh->deeper == 1.0)
		(*sc->too_deep_samples)++;
	else if (sh->shallower == 1.0)
		(*sc->too_shallow_samples)++;
	else
		(*sc->split_samples)++;
	ci_add(sc->hit_ci, sh->hit, 1.0);
	ci_add(sc->too_deep_ci, sh->deeper, 1.0);
	ci_add(sc->too_shallow_ci, sh->shallower, 1.0);
}

/*
 * The period's states against its ideal one (agg_ideal_state()), by the
 * time each held it until the wake-up.
 */
static void score_ideal_state(const struct agg *agg, struct agg_stats *st,
			      const struct period *p, int ideal)
{
	struct agg_ideal_score sc = AGG_IDEAL_SCORE_OF(st);
	struct period_shares sh;
	const struct idlescope_record *rec = p->rec;

	if (ideal < 0 || rec->state < 0 || rec->state >= agg->nr_states)
		return;
	/* One raw period: its entered state held all of it. */
	if (p->nr_raw == 1 ? !period_shares_one(agg->nr_states, ideal, rec->state, p->woke_ns, &sh) :
	    !period_shares(p->state_ns, agg->nr_states, ideal, rec->state, &sh))
		return;
	agg_score_shares(&sc, &sh);
	sat_inc(&st->ideal_idle_ns, p->woke_ns);
	sat_inc(&st->ideal_shallow_idle_ns, sh.shallow_ns);
	ci_add(&st->ideal_shallow_time_ci, (double)sh.shallow_ns, (double)p->woke_ns);
}

void agg_score_prediction(__u64 *within_factor, struct ci_acc *within_ci,
			  unsigned int *ratio_hist, __u64 predicted_ns,
			  __u64 actual_ns)
{
	unsigned int within = agg_within_mask(predicted_ns, actual_ns);
	int i;

	if (ratio_hist)
		ratio_hist[agg_ratio_bucket(predicted_ns, actual_ns)]++;
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		within_factor[i] += (within >> i) & 1;
		ci_add_hit(&within_ci[i], (within >> i) & 1);
	}
}

static void add_prediction(struct agg_stats *st, __u64 predicted_ns,
			   __u64 actual_ns)
{
	st->predicted_samples++;
	sat_inc(&st->predicted_sum_ns, predicted_ns);
	st->predicted_us_hist[agg_log2_bucket(predicted_ns / NS_PER_US)]++;
	agg_score_prediction(st->within_factor, st->within_ci, st->ratio_hist,
			     predicted_ns, actual_ns);
}

/*
 * A state index in the state table, or, without one (nr_states 0), one an
 * array of IDLESCOPE_MAX_STATES can count: an index past the table is no
 * state, and would print as a row of its own.
 */
static bool state_valid(const struct agg *agg, int state)
{
	return state >= 0 && state < (agg->nr_states ? agg->nr_states : IDLESCOPE_MAX_STATES);
}

/* The period's prediction, the governor's own and menu's tick-adjusted one. */
static void score_live_prediction(struct agg_stats *st, const struct period *p)
{
	const struct idlescope_record *rec = p->rec;

	if (!(rec->flags & IDLESCOPE_F_PREDICTED) || !agg_prediction_made(rec->predicted_ns))
		return;
	add_prediction(st, rec->predicted_ns, p->woke_ns);
	st->next_timer_wrap_samples += rec->next_timer_ns >= AGG_NEXT_TIMER_WRAP_NS;
	if (rec->governor == IDLESCOPE_GOV_MENU && agg_prediction_made(rec->tick_adjusted_ns)) {
		st->tick_adjusted_samples++;
		agg_score_prediction(st->tick_adjusted_within, st->tick_adjusted_ci,
				     NULL, rec->tick_adjusted_ns, p->woke_ns);
	}
}

/* What the record says of the state, the kernel's verdicts and the late sleeps. */
static void count_record(const struct agg *agg, struct agg_stats *st,
			 const struct idlescope_record *rec)
{
	if (st->samples == 0 || rec->residency_ns < st->residency_min_ns)
		st->residency_min_ns = rec->residency_ns;
	if (rec->residency_ns > st->residency_max_ns)
		st->residency_max_ns = rec->residency_ns;
	st->samples++;
	sat_inc(&st->residency_sum_ns, rec->residency_ns);
	st->residency_us_hist[agg_log2_bucket(rec->residency_ns / NS_PER_US)]++;

	if (state_valid(agg, rec->state)) {
		st->state_entered[rec->state]++;
		sat_inc(&st->state_residency_ns[rec->state], rec->residency_ns);
	} else {
		st->invalid_state_samples++;
	}
	if (state_valid(agg, rec->chosen_state))
		st->state_chosen[rec->chosen_state]++;

	if (rec->flags & IDLESCOPE_F_MISS_ABOVE)
		st->miss_above_samples++;
	if (rec->flags & IDLESCOPE_F_MISS_BELOW)
		st->miss_below_samples++;
	ci_add_hit(&st->miss_above_ci, rec->flags & IDLESCOPE_F_MISS_ABOVE);
	ci_add_hit(&st->miss_below_ci, rec->flags & IDLESCOPE_F_MISS_BELOW);
	crosscheck_state(agg, st, rec);
	if (rec->flags & IDLESCOPE_F_SLEEP_WOKE) {
		st->sleep_woke_samples++;
		if (rec->sleep_late_ns > AGG_LATE_SLEEP_NS)
			st->late_sleep_samples++;
		if (rec->sleep_late_ns > st->late_sleep_max_ns)
			st->late_sleep_max_ns = rec->sleep_late_ns;
	}
}

/* The key of @rec, its workload interned; NULL with the error in *@err. */
static struct agg_stats *key_of(struct agg *agg, const struct idlescope_record *rec,
				int *workload, int *err)
{
	*err = 0;
	if (rec->cpu >= IDLESCOPE_MAX_CPUS)
		*err = -ERANGE;
	else if (rec->governor >= IDLESCOPE_NR_GOVERNORS)
		*err = -EINVAL;
	else if ((*workload = intern_workload(agg, rec->workload)) < 0)
		*err = *workload;
	return *err ? NULL : &agg->stats[*workload][rec->governor][rec->cpu];
}

/*
 * Every score of period @p in key @st of @agg, @workload its index: the
 * ideal state worked out once, for the governor's state and every model's.
 */
static void add_period_at(struct agg *agg, struct agg_stats *st, int workload,
			  const struct period *p)
{
	const struct idlescope_record *rec = p->rec;
	int ideal;

	count_record(agg, st, rec);
	ideal = agg_period_ideal_state(agg, p);
	score_ideal_state(agg, st, p, ideal);
	score_live_prediction(st, p);
	if (p->shadows)
		agg_score_shadows(agg, st, p, ideal, 0, agg->nr_shadows, p->shadows);
	if (!agg->is_logical) {
		if (rec->flags & IDLESCOPE_F_EXIT_TIMED && state_valid(agg, rec->state))
			exit_spent_add(&agg->exit_spent[rec->state], p->exit_ns);
		/* Out of memory leaves the breakdowns short, not the scores. */
		why_add(agg->why, workload, p, ideal);
	}
}

/* The logical aggregate's index of raw workload @workload; < 0: no room. */
static int logical_workload_of(struct agg *agg, int workload)
{
	int w = agg->logical_workload[workload] - 1;

	if (w < 0) {
		w = intern_workload_name(agg->logical, agg->workload_names[workload]);
		if (w >= 0)
			agg->logical_workload[workload] = w + 1;
	}
	return w;
}

/* A logical period the merger closed, into the logical aggregate's key. */
static void add_logical_period(struct agg *agg, const struct period *lp, int workload)
{
	const struct idlescope_record *rec = lp->rec;

	add_period_at(agg->logical, &agg->logical->stats[workload][rec->governor][rec->cpu],
		      workload, lp);
}

/*
 * Raw period @p, counted in key @workload, into its CPU's logical period;
 * the one it ends scored first.
 */
static void merge_logical(struct agg *agg, const struct period *p, int workload)
{
	int lw = logical_workload_of(agg, workload), closed_workload;
	struct period closed;

	if (lw < 0) {
		agg->logical->rejected_records++;
		return;
	}
	if (logical_ends(&agg->merger, p) &&
	    logical_close(&agg->merger, p->rec->cpu, &closed, &closed_workload))
		add_logical_period(agg, &closed, closed_workload);
	logical_take(&agg->merger, p, lw);
}

int agg_add_period(struct agg *agg, const struct period *p)
{
	struct agg_stats *st;
	int workload, err;

	if (p->shadows && !agg_shadow_periods_valid(p->shadows, agg->nr_shadows))
		err = -EINVAL;
	else
		st = key_of(agg, p->rec, &workload, &err);
	if (err) {
		agg->rejected_records++;
		return err;
	}
	add_period_at(agg, st, workload, p);
	if (agg->logical)
		merge_logical(agg, p, workload);
	return 0;
}

void agg_flush_logical(struct agg *agg)
{
	struct period closed;
	int cpu, workload;

	for (cpu = 0; agg->logical && cpu < IDLESCOPE_MAX_CPUS; cpu++)
		if (logical_close(&agg->merger, cpu, &closed, &workload))
			add_logical_period(agg, &closed, workload);
}

int agg_add(struct agg *agg, const struct idlescope_record *rec)
{
	struct period p;

	period_of_record(&p, rec, 0, NULL);
	return agg_add_period(agg, &p);
}

const struct exit_spent *agg_exit_spent(const struct agg *agg, int state)
{
	return state >= 0 && state < IDLESCOPE_MAX_STATES ? &agg->exit_spent[state] : NULL;
}

__u64 agg_rejected_records(const struct agg *agg)
{
	return agg->rejected_records;
}

const struct agg_stats *agg_get(const struct agg *agg, int workload,
				int governor, int cpu)
{
	const struct agg_stats *st;

	if (workload < 0 || workload >= agg->nr_workloads ||
	    governor < 0 || governor >= IDLESCOPE_NR_GOVERNORS ||
	    cpu < 0 || cpu >= IDLESCOPE_MAX_CPUS)
		return NULL;
	st = &agg->stats[workload][governor][cpu];
	return st->samples ? st : NULL;
}

const struct agg_stats *agg_next(const struct agg *agg, struct agg_key *key)
{
	int w = key->workload, g = key->governor, c = key->cpu;

	if (w < 0) {
		w = 0;
		g = 0;
		c = 0;
	} else {
		c++;
	}
	for (; w < agg->nr_workloads; w++, g = 0) {
		for (; g < IDLESCOPE_NR_GOVERNORS; g++, c = 0) {
			for (; c < IDLESCOPE_MAX_CPUS; c++) {
				if (!agg->stats[w][g][c].samples)
					continue;
				key->workload = w;
				key->governor = g;
				key->cpu = c;
				return &agg->stats[w][g][c];
			}
		}
	}
	return NULL;
}

static bool matches(int want, int have)
{
	return want == AGG_ANY || want == have;
}

int agg_sum(const struct agg *agg, int workload, int governor, int cpu,
	    struct agg_stats *out)
{
	int w, g, c, nr_keys = 0;

	memset(out, 0, sizeof(*out));
	for (w = 0; w < agg->nr_workloads; w++) {
		if (!matches(workload, w))
			continue;
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!matches(governor, g))
				continue;
			for (c = 0; c < IDLESCOPE_MAX_CPUS; c++) {
				if (!matches(cpu, c) || !agg->stats[w][g][c].samples)
					continue;
				agg_stats_merge(out, &agg->stats[w][g][c]);
				nr_keys++;
			}
		}
	}
	return nr_keys;
}


int agg_merge(struct agg *dst, const struct agg *src)
{
	int workload_map[AGG_MAX_WORKLOADS];
	int w, wd, g, c;

	for (w = 0; w < src->nr_workloads; w++) {
		wd = intern_workload_name(dst, src->workload_names[w]);
		if (wd < 0)
			return wd;
		workload_map[w] = wd;
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
			for (c = 0; c < IDLESCOPE_MAX_CPUS; c++)
				agg_stats_merge(&dst->stats[wd][g][c], &src->stats[w][g][c]);
	}
	dst->rejected_records += src->rejected_records;
	for (w = 0; w < IDLESCOPE_MAX_STATES; w++)
		exit_spent_merge(&dst->exit_spent[w], &src->exit_spent[w]);
	if (src->logical && dst->logical) {
		int err = agg_merge(dst->logical, src->logical);

		if (err)
			return err;
	}
	return why_merge(dst->why, src->why, workload_map);
}

int agg_add_boot(struct agg *agg, struct agg *boot, const char *boot_id)
{
	if (agg->nr_boots == AGG_MAX_BOOTS)
		return -ENOSPC;
	snprintf(agg->boot_ids[agg->nr_boots], AGG_BOOT_ID_LEN, "%s", boot_id);
	agg->boots[agg->nr_boots++] = boot;
	return 0;
}

int agg_nr_boots(const struct agg *agg)
{
	return agg->nr_boots;
}

struct agg *agg_boot(const struct agg *agg, int boot)
{
	return boot >= 0 && boot < agg->nr_boots ? agg->boots[boot] : NULL;
}

const char *agg_boot_id(const struct agg *agg, int boot)
{
	return boot >= 0 && boot < agg->nr_boots ? agg->boot_ids[boot] : NULL;
}
