// SPDX-License-Identifier: GPL-2.0
/*
 * shadows.c - the models' periods scored beside the running governor's.
 *
 * The shadow replay (pipeline.c) steps every model on each idle period the
 * running governor had, and hands the models' verdicts here, by index of
 * agg_set_shadows().  A shadow's prediction and chosen state are scored in
 * the key agg_add_period() counted the period in, by the same rules as the
 * governor's (stats/aggregate.c), against the same actual and ideal state,
 * so the two compare period for period.  A
 * period whose record lacks an input the model needs is counted as
 * excluded, not scored.
 */
#include <errno.h>
#include <string.h>
#include "stats/aggregate.h"
#include "stats/agg_table.h"

int agg_set_shadows(struct agg *agg, const char *const *names,
		    const unsigned int *inputs, int nr)
{
	int i;

	if (nr < 0 || nr > AGG_MAX_SHADOWS || (nr && !names))
		return -EINVAL;
	/* Validate all first, so a bad list leaves the old one in place. */
	for (i = 0; i < nr; i++) {
		if (!names[i] || !names[i][0])
			return -EINVAL;
		if (strlen(names[i]) >= AGG_SHADOW_NAME_LEN)
			return -ENAMETOOLONG;
	}
	memset(agg->shadow_names, 0, sizeof(agg->shadow_names));
	memset(agg->shadow_inputs, 0, sizeof(agg->shadow_inputs));
	for (i = 0; i < nr; i++) {
		strcpy(agg->shadow_names[i], names[i]);
		agg->shadow_inputs[i] = inputs ? inputs[i] : 0;
	}
	agg->nr_shadows = nr;
	agg->merger.nr_shadows = nr;
	return 0;
}

int agg_nr_shadows(const struct agg *agg)
{
	return agg->nr_shadows;
}

const char *agg_shadow_name(const struct agg *agg, int shadow)
{
	if (shadow < 0 || shadow >= agg->nr_shadows)
		return NULL;
	return agg->shadow_names[shadow];
}

unsigned int agg_shadow_inputs(const struct agg *agg, int shadow)
{
	if (shadow < 0 || shadow >= agg->nr_shadows)
		return 0;
	return agg->shadow_inputs[shadow];
}

bool agg_shadow_has_inputs(const struct agg *agg, int shadow, unsigned int rec_inputs)
{
	unsigned int needed = agg_shadow_inputs(agg, shadow);

	return (rec_inputs & needed) == needed;
}

/*
 * The key agg_add(@rec) counted, or NULL.  Never interns: a shadow score
 * on a key without its record would make the shadow's periods differ from
 * the live ones.  @rec's cpu and governor are in range.
 */
static struct agg_stats *counted_key(struct agg *agg, const struct idlescope_record *rec)
{
	int workload = agg_workload_of_tag(agg, rec->workload);
	struct agg_stats *st;

	if (workload < 0)
		return NULL;
	st = &agg->stats[workload][rec->governor][rec->cpu];
	return st->samples ? st : NULL;
}

/*
 * Model @shadow's chosen states against the period's @ideal one: by the
 * time each held the period (a logical period's, period.h), else its one
 * chosen state for all of it.
 */
static void score_shadow_state(const struct agg *agg, struct agg_shadow *sh,
			       const struct period *p, int shadow, int ideal, int chosen)
{
	struct agg_ideal_score sc = AGG_IDEAL_SCORE_OF(sh);
	struct period_shares shares;
	bool valid;

	if (ideal < 0 || chosen < 0 || chosen >= agg->nr_states)
		return;
	if (p->shadow_state_ns)
		valid = period_shares(p->shadow_state_ns[shadow], agg->nr_states, ideal, chosen,
				      &shares);
	else
		valid = period_shares_one(agg->nr_states, ideal, chosen, p->woke_ns, &shares);
	if (valid)
		agg_score_shares(&sc, &shares);
}

/* One shadow's verdict on period @p, whose ideal state is @ideal. */
static void score_shadow(const struct agg *agg, struct agg_stats *st, int shadow,
			 const struct period *p, int ideal, const struct agg_shadow_period *v)
{
	struct agg_shadow *sh = &st->shadow[shadow];

	if (v->stepped && !v->has_inputs) {
		sh->excluded_samples++;
	} else {
		if (agg_prediction_made(v->predicted_ns)) {
			sh->samples++;
			agg_score_prediction(sh->within_factor, sh->within_ci, sh->ratio_hist,
					     v->predicted_ns, p->woke_ns);
		}
		score_shadow_state(agg, sh, p, shadow, ideal, v->chosen_state);
	}
	if (v->agreement >= 0) {
		sh->agree_checked++;
		sh->agree_samples += v->agreement;
	}
	if (v->state_agreement >= 0) {
		sh->state_agree_checked++;
		sh->state_agree_samples += v->state_agreement;
	}
}

void agg_score_shadows(const struct agg *agg, struct agg_stats *st, const struct period *p,
		       int ideal, int first, int nr, const struct agg_shadow_period *periods)
{
	int s;

	for (s = 0; s < nr; s++)
		score_shadow(agg, st, first + s, p, ideal, &periods[s]);
}

int agg_add_shadow(struct agg *agg, const struct idlescope_record *rec,
		   unsigned int rec_inputs, int shadow, __u64 predicted_ns, int agreement)
{
	struct agg_shadow_period p = {
		.stepped = predicted_ns != IDLESCOPE_UNKNOWN_NS,
		.predicted_ns = predicted_ns,
		.chosen_state = -1,
		.has_inputs = agg_shadow_has_inputs(agg, shadow, rec_inputs),
		.agreement = agreement,
		.state_agreement = -1,
	};

	return agg_add_shadows(agg, rec, shadow, 1, &p);
}

static bool valid_agreement(int agreement)
{
	return agreement >= -1 && agreement <= 1;
}

bool agg_shadow_periods_valid(const struct agg_shadow_period *periods, int nr)
{
	int s;

	for (s = 0; s < nr; s++)
		if (!valid_agreement(periods[s].agreement) ||
		    !valid_agreement(periods[s].state_agreement))
			return false;
	return true;
}

int agg_add_shadows(struct agg *agg, const struct idlescope_record *rec,
		    int first, int nr, const struct agg_shadow_period *periods)
{
	struct agg_stats *st;
	struct period p;

	if (rec->cpu >= IDLESCOPE_MAX_CPUS)
		return -ERANGE;
	if (rec->governor >= IDLESCOPE_NR_GOVERNORS ||
	    first < 0 || nr < 0 || nr > agg->nr_shadows - first ||
	    !agg_shadow_periods_valid(periods, nr))
		return -EINVAL;
	st = counted_key(agg, rec);
	if (!st)
		return -ENOENT;
	period_of_record(&p, rec, 0, NULL);
	agg_score_shadows(agg, st, &p, agg_period_ideal_state(agg, &p), first, nr, periods);
	return 0;
}
