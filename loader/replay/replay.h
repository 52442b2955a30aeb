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

/**
 * replay_init() - a replay with every model on every CPU just enabled
 * @rp: the replay
 * @table: the idle states; copied, with model_table_derive() done on the
 *	copy
 * @kernel_release: the release of the kernel the records come from
 *	(uname -r; NULL or "" when unknown): it picks each governor's model
 *	(replay_running_model())
 */
void replay_init(struct replay *rp, const struct model_states_table *table,
		 const char *kernel_release);

/**
 * replay_reset_cpu() - restart one CPU's models as after ->enable()
 * @rp: the replay
 * @cpu: the CPU; one out of range is ignored
 *
 * Forgets the CPU's previous period and sequence too, and no model of it
 * is in step (replay_in_step()) until its governor's next ->enable().
 * Not counted in replay_resets.
 */
void replay_reset_cpu(struct replay *rp, unsigned int cpu);

/**
 * replay_record() - every model's prediction for the period of a record
 * @rp: the replay
 * @rec: the record; a CPU's records in order
 * @predicted_ns_out: each model's prediction, by enum model_id
 *
 * predicted_ns_out[] is 0 for a model whose select would have returned
 * before predicting, and IDLESCOPE_UNKNOWN_NS for all when no governor
 * selected the period's state (nothing was predicted).  A seq gap on
 * @rec's CPU resets its models first (see struct replay_cpu).
 *
 * Return: 0, or -EINVAL for a CPU out of range.
 */
int replay_record(struct replay *rp, const struct idlescope_record *rec,
		  __u64 predicted_ns_out[MODEL_NR]);

/**
 * replay_record_wanted() - replay_record() for some of the predictions
 * @rp: the replay
 * @rec: the record; a CPU's records in order
 * @wanted: the models whose predictions the caller uses (bit 1 << id);
 *	REPLAY_ALL_MODELS for all
 * @predicted_ns_out: each model's prediction, by enum model_id
 *
 * The other models are stepped all the same (their history is what it
 * would be), but their predicted_ns_out[] is not their prediction (see
 * struct model_input's prediction_unused), unless it is
 * IDLESCOPE_UNKNOWN_NS: no select, no prediction, for every model.
 *
 * Return: as replay_record().
 */
int replay_record_wanted(struct replay *rp, const struct idlescope_record *rec,
			 unsigned int wanted, __u64 predicted_ns_out[MODEL_NR]);
#define REPLAY_ALL_MODELS	((1U << MODEL_NR) - 1)
_Static_assert(MODEL_NR < 32, "the models' bit masks are unsigned int");

/**
 * replay_in_step() - whether a model can be checked against the kernel
 * @rp: the replay
 * @cpu: the CPU
 * @id: the model
 *
 * A governor that was already running when the records began has a
 * history the replay never saw.
 *
 * Return: true when model @id on @cpu has replayed every period since its
 * governor's last ->enable() on that CPU (a switch to it, or a restart the
 * record flagged), with no seq gap since: the condition for comparing it
 * with the kernel's recorded predictions.
 */
bool replay_in_step(const struct replay *rp, unsigned int cpu, enum model_id id);

/**
 * replay_running_model() - the model checked against a governor's periods
 * @rp: the replay
 * @governor: enum idlescope_governor
 *
 * Return: the model of @governor on the kernel of the records
 * (replay_init()), the one checked against the kernel's own predictions
 * and choices on its periods; -1 when the governor has none or is out of
 * range.
 */
int replay_running_model(const struct replay *rp, unsigned int governor);

/**
 * replay_model() - a model of a CPU after its last replay_record()
 * @rp: the replay
 * @cpu: the CPU, in range
 * @id: the model, in range
 *
 * Return: its state: chosen_state, lacked_inputs.
 */
static inline const struct model_state *replay_model(const struct replay *rp,
						     unsigned int cpu, enum model_id id)
{
	return &rp->cpus[cpu].models[id];
}

#endif /* __IDLESCOPE_REPLAY_REPLAY_H */
