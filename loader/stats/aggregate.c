// SPDX-License-Identifier: GPL-2.0
/*
 * aggregate.c - fold idlescope records into per (workload, governor, CPU)
 * statistics.
 *
 * A record says how long one idle period really lasted (residency_ns), what
 * the governor expected (predicted_ns, when IDLESCOPE_F_PREDICTED is set)
 * and which state was entered.  From those we answer the seed's question,
 * "how often is the prediction within a factor F of the truth", and its
 * consequence, "how often did that put the CPU in a state that was too deep
 * or too shallow".  The latter comes twice: from the kernel's own
 * cpu_idle_miss flags, and from our re-computation of the same rule against
 * the state table read from sysfs, so a disagreement points at a bug on one
 * side.
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
 * The rule of cpuidle_enter_state(): too deep when the period was shorter
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

int agg_record_ideal_state(const struct agg *agg, const struct idlescope_record *rec)
{
	/* The limit is the one select used only when the select probe read it. */
	__s64 latency_req_ns = rec->flags & IDLESCOPE_F_SELECT_PROBED ?
			       rec->latency_req_ns : IDLESCOPE_LATENCY_REQ_UNKNOWN;

	return agg_ideal_state(agg, rec->residency_ns, latency_req_ns);
}

/* The entered state against the ideal one (agg_ideal_state()); the ideal, or -1. */
static int score_ideal_state(const struct agg *agg, struct agg_stats *st,
			     const struct idlescope_record *rec)
{
	int ideal = agg_record_ideal_state(agg, rec);
	int entered = rec->state;

	if (ideal < 0 || entered < 0 || entered >= agg->nr_states)
		return -1;
	st->ideal_samples++;
	sat_inc(&st->ideal_idle_ns, rec->residency_ns);
	st->ideal_hit_samples += entered == ideal;
	st->ideal_too_deep_samples += entered > ideal;
	st->ideal_too_shallow_samples += entered < ideal;
	if (entered < ideal)
		sat_inc(&st->ideal_shallow_idle_ns, rec->residency_ns);
	ci_add_hit(&st->ideal_hit_ci, entered == ideal);
	ci_add_hit(&st->ideal_too_deep_ci, entered > ideal);
	ci_add_hit(&st->ideal_too_shallow_ci, entered < ideal);
	ci_add(&st->ideal_shallow_time_ci,
	       entered < ideal ? (double)rec->residency_ns : 0.0,
	       (double)rec->residency_ns);
	return ideal;
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

int agg_add(struct agg *agg, const struct idlescope_record *rec)
{
	struct agg_stats *st;
	int workload, ideal;

	if (rec->cpu >= IDLESCOPE_MAX_CPUS) {
		agg->rejected_records++;
		return -ERANGE;
	}
	if (rec->governor >= IDLESCOPE_NR_GOVERNORS) {
		agg->rejected_records++;
		return -EINVAL;
	}
	workload = intern_workload(agg, rec->workload);
	if (workload < 0) {
		agg->rejected_records++;
		return workload;
	}
	st = &agg->stats[workload][rec->governor][rec->cpu];

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
	ideal = score_ideal_state(agg, st, rec);
	/* Out of memory leaves the breakdowns short, not the scores. */
	why_add(agg->why, workload, rec, ideal);

	if ((rec->flags & IDLESCOPE_F_PREDICTED) &&
	    agg_prediction_made(rec->predicted_ns)) {
		add_prediction(st, rec->predicted_ns, rec->residency_ns);
		st->next_timer_wrap_samples += rec->next_timer_ns >= AGG_NEXT_TIMER_WRAP_NS;
		if (rec->governor == IDLESCOPE_GOV_MENU &&
		    agg_prediction_made(rec->tick_adjusted_ns)) {
			st->tick_adjusted_samples++;
			agg_score_prediction(st->tick_adjusted_within, st->tick_adjusted_ci,
					     NULL, rec->tick_adjusted_ns, rec->residency_ns);
		}
	}
	if (rec->flags & IDLESCOPE_F_SLEEP_WOKE) {
		st->sleep_woke_samples++;
		if (rec->sleep_late_ns > AGG_LATE_SLEEP_NS)
			st->late_sleep_samples++;
		if (rec->sleep_late_ns > st->late_sleep_max_ns)
			st->late_sleep_max_ns = rec->sleep_late_ns;
	}
	return 0;
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
