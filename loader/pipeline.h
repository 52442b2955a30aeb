/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline.h - record -> aggregate + shadow replay, the one path every
 * record takes: the live loader's ring buffer, `idlescope report FILE...`
 * and `idlescope compare A B` all feed records through it.  Pure C (no
 * libbpf), so the host tests run it as the loader does.
 */
#ifndef __IDLESCOPE_PIPELINE_H
#define __IDLESCOPE_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include "stats/aggregate.h"
#include "replay/replay.h"
#include "replay/reconstruct.h"
#include "recfile.h"

struct pipeline {
	struct agg *agg;
	struct replay *replay;		/* shadow replay of every model */
	/* Stock menu's predictions rebuilt, all files since pipeline_init(). */
	struct reconstruct_stats reconstruct;
	unsigned int nr_states;
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	/*
	 * The last record's raw workload tag and whether it was printable:
	 * records come in runs of one tag, so most need no check and no copy.
	 */
	char last_tag[IDLESCOPE_WORKLOAD_LEN];
	bool last_tag_printable;
};

/*
 * The aggregate with its state table and the models, with the kernel's
 * tick @hz (0: unknown, the models assume MODEL_HZ) and release (which
 * model checks each governor: model_of_governor()); 0 or -ENOMEM.
 */
int pipeline_init(struct pipeline *pl, const struct idlescope_state *states,
		  unsigned int nr_states, unsigned int hz, const char *kernel_release);
/*
 * The next record file of an off-line report: its records are another
 * run, maybe of another kernel, so the models start again; -EINVAL if its
 * state table differs.
 */
int pipeline_restart(struct pipeline *pl, const struct idlescope_state *states,
		     unsigned int nr_states, unsigned int hz, const char *kernel_release);
void pipeline_free(struct pipeline *pl);

/*
 * reconstruct_record() (a stock kernel's menu prediction), agg_add(), then
 * every model's score for the period; agg_add()'s result.
 * The workload name is made printable first (it comes from a tag or a
 * file): bytes outside printable ASCII become '?'.
 */
int pipeline_add(struct pipeline *pl, const struct idlescope_record *rec);

/*
 * Every record of an open file (@first: it starts the pipeline), counting
 * them per CPU into @records_read.  Returns 0, or -errno with a one-line
 * reason in rf->error.  *cut_short is set when the last record was
 * incomplete.
 */
int pipeline_add_file(struct pipeline *pl, struct recfile *rf, bool first,
		      __u64 *records_read, bool *cut_short);

#endif /* __IDLESCOPE_PIPELINE_H */
