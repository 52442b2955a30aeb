// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - records into the aggregate and through the shadow replay.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/escape.h"
#include "replay/inputs.h"
#include "runinfo/runinfo.h"
#include "stats/why.h"
#include "pipeline.h"

static void model_table_of(const struct idlescope_state *states, unsigned int nr_states,
			   unsigned int hz, struct model_states_table *table)
{
	unsigned int i;

	memset(table, 0, sizeof(*table));
	table->hz = hz;
	table->nr_states = nr_states;
	for (i = 0; i < nr_states; i++) {
		table->states[i].target_residency_ns = states[i].target_residency_ns;
		table->states[i].exit_latency_ns = states[i].exit_latency_ns;
		table->states[i].disabled = states[i].disabled;
		table->states[i].polling = states[i].polling;
	}
}

/* An empty aggregate with the pipeline's state table and models. */
static struct agg *pipeline_new_agg_of(const struct pipeline *pl)
{
	struct agg_state_info agg_states[IDLESCOPE_MAX_STATES] = {};
	struct agg *agg = agg_new();
	unsigned int i;

	if (!agg)
		return NULL;
	for (i = 0; i < pl->nr_states; i++) {
		agg_states[i].target_residency_ns = pl->states[i].target_residency_ns;
		agg_states[i].exit_latency_ns = pl->states[i].exit_latency_ns;
		agg_states[i].disabled = pl->states[i].disabled;
	}
	if (agg_set_states(agg, agg_states, pl->nr_states) ||
	    agg_set_shadows(agg, model_names, model_input_masks, MODEL_NR)) {
		agg_free(agg);
		return NULL;
	}
	return agg;
}

/* The same with the aggregate of its logical periods (stats/logical.h). */
static struct agg *pipeline_new_agg(const struct pipeline *pl)
{
	struct agg *agg = pipeline_new_agg_of(pl);
	struct agg *logical = agg ? pipeline_new_agg_of(pl) : NULL;

	if (!logical) {
		agg_free(agg);
		return NULL;
	}
	agg_attach_logical(agg, logical);
	return agg;
}

int pipeline_init(struct pipeline *pl, const struct idlescope_state *states,
		  unsigned int nr_states, unsigned int hz, const char *kernel_release)
{
	struct model_states_table table;
	struct power_table power;

	pl->nr_states = nr_states;
	memset(&pl->reconstruct, 0, sizeof(pl->reconstruct));
	memset(pl->run_governor_records, 0, sizeof(pl->run_governor_records));
	memcpy(pl->states, states, sizeof(*states) * nr_states);
	period_exits_of(&pl->exits, states, nr_states, pl->exit_cost == RECFILE_EXIT_COST_ON);
	pl->agg = pipeline_new_agg(pl);
	pl->cur = pl->agg;
	pl->replay = calloc(1, sizeof(*pl->replay));
	if (!pl->agg || !pl->replay)
		return -ENOMEM;
	model_table_of(states, nr_states, hz, &table);
	replay_init(pl->replay, &table, kernel_release);
	why_set_states(agg_why(pl->agg), states, nr_states, hz);
	if (pl->power) {
		if (why_set_power(agg_why(pl->agg), pl->power))
			return -ERANGE;
	} else if (power_table_default(states, nr_states, &power)) {
		why_set_power(agg_why(pl->agg), &power);
	}
	return 0;
}

int pipeline_restart(struct pipeline *pl, const struct idlescope_state *states,
		     unsigned int nr_states, unsigned int hz, const char *kernel_release)
{
	struct model_states_table table;

	if (nr_states != pl->nr_states ||
	    memcmp(states, pl->states, sizeof(*states) * nr_states))
		return -EINVAL;
	model_table_of(states, nr_states, hz, &table);
	replay_init(pl->replay, &table, kernel_release);
	period_exits_of(&pl->exits, states, nr_states, pl->exit_cost == RECFILE_EXIT_COST_ON);
	pipeline_flush(pl);
	return 0;
}

void pipeline_flush(struct pipeline *pl)
{
	if (pl->cur)
		agg_flush_logical(pl->cur);
}

void pipeline_free(struct pipeline *pl)
{
	agg_free(pl->agg);
	free(pl->replay);
	if (pl->cur != pl->agg)
		agg_free(pl->cur);
	pl->agg = NULL;
	pl->cur = NULL;
	pl->replay = NULL;
}

/*
 * What model @m did on period @p, checked against the kernel when it is
 * the model of the running governor (@running) and has replayed every
 * period since the kernel's governor started (replay_in_step()).
 */
static void shadow_period(const struct pipeline *pl, const struct period *p, int m,
			  bool running, __u64 predicted_ns, struct agg_shadow_period *v)
{
	const struct idlescope_record *rec = p->rec;
	const struct model_state *ms = replay_model(pl->replay, rec->cpu, m);
	bool checked = running && replay_in_step(pl->replay, rec->cpu, m);
	unsigned int needed = model_input_masks[m];

	v->predicted_ns = predicted_ns;
	/*
	 * No select, no model stepped: nothing chosen.  (A prediction of
	 * IDLESCOPE_UNKNOWN_NS is also a select that predicted nothing.)
	 */
	v->stepped = rec->flags & IDLESCOPE_F_SELECTED;
	v->chosen_state = v->stepped ? ms->chosen_state : -1;
	v->has_inputs = (p->inputs & needed) == needed && !ms->lacked_inputs;
	v->agreement = -1;
	if (checked && (rec->flags & IDLESCOPE_F_PREDICTED) &&
	    rec->predicted_ns != IDLESCOPE_UNKNOWN_NS)
		v->agreement = predicted_ns == rec->predicted_ns;
	v->state_agreement = -1;
	if (checked && (rec->flags & IDLESCOPE_F_SELECT_PROBED) &&
	    rec->chosen_state >= 0 && v->chosen_state >= 0)
		v->state_agreement = v->chosen_state == rec->chosen_state;
}

/*
 * Every model stepped on period @p and its verdicts into @verdicts, the
 * running governor's model checked.  False when the replay refused the
 * record: no model stepped, no verdict.
 */
static bool replay_shadows(struct pipeline *pl, const struct period *p,
			   struct agg_shadow_period *verdicts)
{
	const struct idlescope_record *rec = p->rec;
	int running = replay_running_model(pl->replay, rec->governor);
	__u64 predicted_ns[MODEL_NR];
	unsigned int scored = 0;
	int m;

	/* A prediction neither scored nor checked need not be computed. */
	for (m = 0; m < MODEL_NR; m++)
		if (m == running || (p->inputs & model_input_masks[m]) == model_input_masks[m])
			scored |= 1U << m;
	if (replay_record_wanted(pl->replay, rec, scored, predicted_ns))
		return false;
	for (m = 0; m < MODEL_NR; m++)
		shadow_period(pl, p, m, m == running, predicted_ns[m], &verdicts[m]);
	return true;
}

int pipeline_run_governor(const struct pipeline *pl)
{
	int g, most = -1;

	for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
		if (pl->run_governor_records[g] &&
		    (most < 0 || pl->run_governor_records[g] > pl->run_governor_records[most]))
			most = g;
	return most;
}

int pipeline_add(struct pipeline *pl, const struct idlescope_record *rec)
{
	struct agg_shadow_period verdicts[MODEL_NR];
	struct idlescope_record copy;
	struct period p;

	if (rec->governor < IDLESCOPE_NR_GOVERNORS)
		pl->run_governor_records[rec->governor]++;

	/*
	 * A copy to change: a live record sits in the ring buffer's read-only
	 * pages.  Stock menu's prediction may be rebuilt into a record with
	 * menu's data (replay/reconstruct.c).
	 */
	if (rec->flags & IDLESCOPE_F_MENU_DATA) {
		memcpy(&copy, rec, sizeof(copy));
		reconstruct_record(&copy, &pl->replay->table,
				   replay_running_model(pl->replay, IDLESCOPE_GOV_MENU),
				   &pl->reconstruct);
		rec = &copy;
	}
	/* The period's numbers once, for every score (stats/period.h). */
	period_of_record(&p, rec, inputs_of_record(rec), &pl->exits);
	/* A record the aggregate refuses for its ids is not replayed either. */
	if (rec->cpu < IDLESCOPE_MAX_CPUS && rec->governor < IDLESCOPE_NR_GOVERNORS &&
	    replay_shadows(pl, &p, verdicts))
		p.shadows = verdicts;
	/* Its logical period too, in the same pass (stats/logical.h). */
	return agg_add_period(pl->cur, &p);
}

/*
 * The aggregate of boot @boot_id, new for a new or empty id, its index in
 * pl->last_boot; NULL: no memory.
 */
static struct agg *boot_agg(struct pipeline *pl, const char *boot_id)
{
	struct agg *boot;
	int b;

	for (b = 0; boot_id[0] && b < agg_nr_boots(pl->agg); b++) {
		if (!strcmp(agg_boot_id(pl->agg, b), boot_id)) {
			pl->last_boot = b;
			return agg_boot(pl->agg, b);
		}
	}
	boot = pipeline_new_agg(pl);
	if (boot && agg_add_boot(pl->agg, boot, boot_id)) {
		agg_free(boot);
		boot = NULL;
	}
	pl->last_boot = boot ? agg_nr_boots(pl->agg) - 1 : -1;
	return boot;
}


/*
 * The file's own aggregate, its last logical periods scored, into the
 * pipeline's and its boot's.
 */
static int merge_file(struct pipeline *pl, const char *boot_id)
{
	struct agg *boot = boot_agg(pl, boot_id);
	int err;

	pipeline_flush(pl);
	err = boot ? agg_merge(boot, pl->cur) : -ENOMEM;
	if (!err)
		err = agg_merge(pl->agg, pl->cur);
	agg_free(pl->cur);
	pl->cur = pl->agg;
	return err;
}

int pipeline_add_file(struct pipeline *pl, struct recfile *rf, bool first,
		      __u64 *records_read, bool *cut_short)
{
	const struct idlescope_record *rec;
	struct wake_names names;
	enum recfile_status ret;
	char path[160];
	int err;

	pl->exit_cost = rf->hdr.exit_cost;
	err = first ? pipeline_init(pl, rf->hdr.states, rf->hdr.nr_states, rf->hdr.hz,
				    rf->hdr.kernel_release) :
		      pipeline_restart(pl, rf->hdr.states, rf->hdr.nr_states, rf->hdr.hz,
				       rf->hdr.kernel_release);
	if (!err) {
		pl->cur = pipeline_new_agg(pl);
		err = pl->cur ? 0 : -ENOMEM;
		if (err)
			pl->cur = pl->agg;
	}
	/* A file name found in a run directory may hold any byte. */
	escape_name(path, sizeof(path), rf->path, SIZE_MAX);
	if (err == -ERANGE)
		snprintf(rf->error, sizeof(rf->error), "%s: %u idle states, the power table %s %d",
			 path, rf->hdr.nr_states, pl->power->source, pl->power->nr_states);
	else if (err)
		snprintf(rf->error, sizeof(rf->error), "%s: %s", path, err == -EINVAL ?
			 "another state table than the first file's" : strerror(-err));
	if (err)
		return err;
	/* The file's own aggregate counts as the whole run's does. */
	why_set_like(agg_why(pl->cur), agg_why(pl->agg));
	runinfo_wake_names(rf, &names);
	why_set_names(agg_why(pl->cur), &names);
	memset(records_read, 0, sizeof(*records_read) * IDLESCOPE_MAX_CPUS);
	memset(pl->run_governor_records, 0, sizeof(pl->run_governor_records));
	while ((rec = recfile_next(rf, &ret))) {
		records_read[rec->cpu]++;	/* recfile_next() checked it */
		pipeline_add(pl, rec);
	}
	*cut_short = ret == RECFILE_CUT_SHORT;
	err = merge_file(pl, rf->hdr.boot_id);
	if (err) {
		snprintf(rf->error, sizeof(rf->error), "%s: %s", path, err == -ENOSPC ?
			 "too many boots or workloads for one report" : strerror(-err));
		return err;
	}
	return ret == RECFILE_BAD ? -EINVAL : 0;
}
