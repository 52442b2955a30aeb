/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - the shadow replay: every model of models/registry.h stepped on
 * every CPU from the record stream, as the kernel's governors would have
 * been.
 */
#ifndef __IDLESCOPE_REPLAY_REPLAY_H
#define __IDLESCOPE_REPLAY_REPLAY_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "models/models.h"

/*
 * Records of one CPU must arrive in order.  A gap in a CPU's record.seq
 * (records dropped on a full ring buffer) means the models missed periods
 * the kernel's governor learnt from: replay_record() then restarts that
 * CPU's models with replay_reset_cpu() rather than carry on from a history
 * the kernel no longer has, and counts it in replay_resets.
 */
struct replay_cpu {
	struct model_state models[MODEL_NR];
	/* What the models need of the last record with a select or reflect. */
	struct {
		__u64 kernel_residency_ns;
		__u32 flags;
		__s32 state;
		int model;		/* model_of_governor() of its governor */
	} prev;
	bool has_prev;
	unsigned int last_governor;	/* of the last record with a select */
	bool has_seq;			/* last_seq is valid */
	__u32 last_seq;			/* record.seq of the last record */
	/*
	 * The model started from its governor's ->enable() together with
	 * the kernel: only then can it reproduce the kernel's predictions.
	 */
	bool in_step[MODEL_NR];
};

struct replay {
	struct model_states_table table;
	/*
	 * Per governor, the model that checks it on the kernel the records
	 * came from (model_of_governor()), -1 for none.
	 */
	int running_model[IDLESCOPE_NR_GOVERNORS];
	struct replay_cpu cpus[IDLESCOPE_MAX_CPUS];
	/*
	 * Resets replay_record() did on a seq gap, all CPUs (not those of
	 * direct replay_reset_cpu() calls): how often history was lost.
	 */
	__u64 replay_resets;
};

/*
 * Start over on @table, for records of @kernel_release (uname -r of the
 * recorded kernel; NULL or "" when unknown): it picks each governor's
 * model (replay_running_model()).
 */
void replay_init(struct replay *rp, const struct model_states_table *table,
		 const char *kernel_release);
void replay_reset_cpu(struct replay *rp, unsigned int cpu);

/*
 * Every model's prediction for the period of @rec, in predicted_ns_out[]
 * (0 when that model's select would have returned before predicting;
 * IDLESCOPE_UNKNOWN_NS for all when no governor selected the period's
 * state: nothing was predicted).  A seq gap on @rec's CPU resets its
 * models first (see struct replay).  Returns 0, or -EINVAL for a CPU out
 * of range.
 */
int replay_record(struct replay *rp, const struct idlescope_record *rec,
		  __u64 predicted_ns_out[MODEL_NR]);
/*
 * replay_record() for a caller that uses the predictions of the models in
 * @wanted (bit 1 << id) only: the others are stepped all the same (their
 * history is what it would be), but their predicted_ns_out[] is not their
 * prediction (see prediction_unused), unless it is IDLESCOPE_UNKNOWN_NS:
 * no select, no prediction, for every model.
 */
int replay_record_wanted(struct replay *rp, const struct idlescope_record *rec,
			 unsigned int wanted, __u64 predicted_ns_out[MODEL_NR]);
#define REPLAY_ALL_MODELS	((1U << MODEL_NR) - 1)
_Static_assert(MODEL_NR < 32, "the models' bit masks are unsigned int");

/*
 * Whether model @id on @cpu has replayed every period since its governor's
 * last ->enable() on that CPU (a switch to it, or a restart the record
 * flagged), with no seq gap since: the condition for comparing it with the
 * kernel's recorded predictions.  A governor that was already running when
 * the records began has a history the replay never saw.
 */
bool replay_in_step(const struct replay *rp, unsigned int cpu, enum model_id id);

/*
 * The model of @governor on the kernel of the records (replay_init()):
 * the one checked against the kernel's own predictions and choices on
 * its periods; -1 when the governor has none or is out of range.
 */
int replay_running_model(const struct replay *rp, unsigned int governor);

/*
 * Model @id of @cpu after its last replay_record(): its chosen_state and
 * lacked_inputs.  @cpu and @id must be in range.
 */
static inline const struct model_state *replay_model(const struct replay *rp,
						     unsigned int cpu, enum model_id id)
{
	return &rp->cpus[cpu].models[id];
}

#endif /* __IDLESCOPE_REPLAY_REPLAY_H */
