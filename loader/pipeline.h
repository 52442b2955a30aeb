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
#include "aggregate.h"
#include "models.h"
#include "recfile.h"

struct pipeline {
	struct agg *agg;
	struct replay *replay;		/* shadow replay of every model */
	unsigned int nr_states;
	struct recfile_state states[IDLESCOPE_MAX_STATES];
};

/* The aggregate with its state table and the models; 0 or -ENOMEM. */
int pipeline_init(struct pipeline *pl, const struct recfile_state *states,
		  unsigned int nr_states);
/*
 * The next record file of an off-line report: its records are another
 * run, so the models start again; -EINVAL if its state table differs.
 */
int pipeline_restart(struct pipeline *pl, const struct recfile_state *states,
		     unsigned int nr_states);
void pipeline_free(struct pipeline *pl);

/* agg_add(), then every model's score for the period; agg_add()'s result. */
int pipeline_add(struct pipeline *pl, const struct idlescope_record *rec);

/*
 * Every record of an open file (@first: it starts the pipeline), counting
 * them per CPU into @records_read.  Returns 0, or -errno with a one-line
 * reason in @err.  *cut_short is set when the last record was incomplete.
 */
int pipeline_add_file(struct pipeline *pl, struct recfile *rf, const char *path,
		      bool first, __u64 *records_read, bool *cut_short,
		      char *err, size_t size);

#endif /* __IDLESCOPE_PIPELINE_H */
