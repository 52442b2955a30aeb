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
	/*
	 * Every record so far.  Off-line, each file's records go into an
	 * aggregate of their own (@cur), merged at the file's end into @agg
	 * and into the aggregate of its boot, one of @agg's boots
	 * (agg_boot()): files of one boot id are one boot, a file without an
	 * id is a boot of its own.  Live, @cur is @agg.  Each has the
	 * aggregate of the same periods merged into logical ones
	 * (agg_logical()), filled by the same agg_add_period() call.
	 */
	struct agg *agg;
	struct agg *cur;
	struct replay *replay;		/* shadow replay of every model */
	/* Stock menu's predictions rebuilt, all files since pipeline_init(). */
	struct reconstruct_stats reconstruct;
	unsigned int nr_states;
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	/*
	 * Set before pipeline_init() to price the periods with another power
	 * table than the default (stats/energy.h); NULL: the default where
	 * it fits the state table.
	 */
	const struct power_table *power;
	/*
	 * Set before pipeline_init() and pipeline_restart(): whether the
	 * records' idle states spent their exit latency (enum
	 * recfile_exit_cost), which an untimed record's wake-up is found
	 * with (stats/period.h); 0, unknown: nothing assumed.
	 */
	unsigned int exit_cost;
	struct period_exits exits;	/* of @states and @exit_cost */
	/* The agg_boot() index of the last file pipeline_add_file() took; -1: none. */
	int last_boot;
	/*
	 * Records per governor since the last file began (live: since
	 * pipeline_init()): whose run the file is, pipeline_run_governor().
	 */
	__u64 run_governor_records[IDLESCOPE_NR_GOVERNORS];
};

/**
 * pipeline_init() - the aggregate with its state table and the models
 * @pl: the pipeline
 * @states: the idle states the records were taken with (copied)
 * @nr_states: how many, at most IDLESCOPE_MAX_STATES
 * @hz: the kernel's tick (0: unknown, the models assume MODEL_HZ)
 * @kernel_release: the kernel's release (uname -r; NULL or "": unknown),
 *	which picks the model that checks each governor (model_of_governor())
 *
 * Every model of the registry is a shadow of the aggregate.  The
 * periods are priced with pl->power, or the default power table where it
 * fits (stats/energy.h).  Call pipeline_free() afterwards, whether it
 * succeeded or not.
 *
 * Return: 0, -ENOMEM, -ERANGE when pl->power does not have @nr_states
 * states, or agg_set_shadows()'s error for a registry name it refuses.
 */
int pipeline_init(struct pipeline *pl, const struct idlescope_state *states,
		  unsigned int nr_states, unsigned int hz, const char *kernel_release);

/**
 * pipeline_restart() - start the models again for another record file
 * @pl: the pipeline, initialised
 * @states: the file's idle states
 * @nr_states: how many
 * @hz: the file's kernel tick (0: unknown)
 * @kernel_release: the file's kernel release (NULL or "": unknown)
 *
 * The next record file of an off-line report: its records are another
 * run, maybe of another kernel, so the models start again; the aggregate
 * goes on adding up.
 *
 * Return: 0, or -EINVAL if its state table differs from pipeline_init()'s.
 */
int pipeline_restart(struct pipeline *pl, const struct idlescope_state *states,
		     unsigned int nr_states, unsigned int hz, const char *kernel_release);

/**
 * pipeline_flush() - the end of a run's records
 * @pl: the pipeline
 *
 * Scores the logical periods still open (agg_flush_logical()).
 * pipeline_add_file() does it after each file; a live run, at its end.
 */
void pipeline_flush(struct pipeline *pl);

/**
 * pipeline_free() - free the aggregate and the replay
 * @pl: the pipeline
 */
void pipeline_free(struct pipeline *pl);

/**
 * pipeline_run_governor() - the governor of the run being read
 * @pl: the pipeline
 *
 * The governor with the most records since the file began (live: since
 * the run began): a run's first records can carry the governor before its
 * switch, or none, so the first record does not say whose run it is.
 *
 * Return: an enum idlescope_governor, -1 without records.
 */
int pipeline_run_governor(const struct pipeline *pl);

/**
 * pipeline_add() - one record through the pipeline
 * @pl: the pipeline
 * @rec: the record, not changed (a live one sits in read-only pages)
 *
 * reconstruct_record() (a stock kernel's menu prediction), agg_add(), then
 * every model's score for the period.  The aggregate names the workload
 * by its tag escaped (stats/aggregate.h).
 *
 * Return: agg_add()'s result; a record it refuses gets no model scores.
 */
int pipeline_add(struct pipeline *pl, const struct idlescope_record *rec);

/**
 * pipeline_add_file() - every record of an open file through the pipeline
 * @pl: the pipeline
 * @rf: the file, just opened
 * @first: it starts the pipeline (pipeline_init(), else pipeline_restart())
 * @records_read: set to its records per CPU, IDLESCOPE_MAX_CPUS of them
 * @cut_short: set when the last record was incomplete
 *
 * The records go into the pipeline's aggregate and into that of the file's
 * boot (its header's boot id).  A record the aggregate refuses is counted
 * in agg_rejected_records(), not an error here.  The names in the file's
 * trailer name its records' numbers (stats/wakeup.h).
 *
 * Return: 0, or -errno with a one-line reason in rf->error.
 */
int pipeline_add_file(struct pipeline *pl, struct recfile *rf, bool first,
		      __u64 *records_read, bool *cut_short);

#endif /* __IDLESCOPE_PIPELINE_H */
