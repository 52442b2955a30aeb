/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - everything about a run that is not in its records: the kernel,
 * its clock and capabilities, the governors and workloads it ran, what was
 * lost, how long it took.  The live run fills it from the system and the
 * ring buffers, `idlescope report` from record files (runinfo.h), and every
 * report prints it.
 */
#ifndef __IDLESCOPE_RUNINFO_META_H
#define __IDLESCOPE_RUNINFO_META_H

#include <stdbool.h>
#include <time.h>
#include <linux/types.h>
#include "idlescope.h"
#include "format/escape.h"
#include "replay/reconstruct.h"
#include "runinfo/eventsrc.h"
#include "stats/wakeup.h"

#define RUN_MAX_GOVERNORS	16
/*
 * >= AGG_MAX_WORKLOADS: reportset_meta_from_agg() (report/set.c) lists
 * every workload of the aggregate.
 */
#define RUN_MAX_WORKLOADS	64
#define RUN_MAX_RUNS		1024	/* record files a report lists */
#define RUN_MAX_SKIPPED		32
#define RUN_NAME_LEN		32
#define RUN_REASON_LEN		128
#define RUN_RELEASE_LEN		65	/* struct utsname.release */
#define RUN_CLOCK_MODE_LEN	16
#define RUN_CLOCK_ARGS_LEN	128
/* A workload's name: its tag escaped (format/escape.h). */
#define RUN_WORKLOAD_NAME_LEN	ESCAPE_SIZE(IDLESCOPE_WORKLOAD_LEN)
#define RUN_BOOT_ID_LEN		40	/* a UUID and its NUL, with room */

struct figures;

struct run_skipped_prog {
	char name[RUN_NAME_LEN];		/* BPF program name */
	/* Why, e.g. "attach target not in kernel BTF". */
	char reason[RUN_REASON_LEN];
};

/* One record file of a report: one governor's run in one boot. */
struct run_file {
	int boot;			/* the aggregate's boot index, -1: unknown */
	long seed;			/* the boot's seed (its run directory), -1: unknown */
	int governor;			/* with the most records (pipeline_run_governor()), -1: none */
	unsigned int position;		/* recfile_header's run_position, 0: unknown */
	__u32 insn_ps_start, insn_ps_end;	/* the guest's speed, 0: unknown */
};

struct run_meta {
	char kernel_release[RUN_RELEASE_LEN];	/* uname -r */
	unsigned int hz;			/* CONFIG_HZ, 0: unknown */
	char cpuidle_driver[RUN_NAME_LEN];	/* "": none */
	char clock_mode[RUN_CLOCK_MODE_LEN];	/* "": unknown */
	char clock_args[RUN_CLOCK_ARGS_LEN];	/* QEMU's arguments for it */
	char boot_id[RUN_BOOT_ID_LEN];		/* the kernel's random boot_id, "": unknown */
	__u32 capabilities;			/* IDLESCOPE_CAP_* */
	unsigned int exit_cost;			/* enum recfile_exit_cost */
	/* Guest ps per instruction, lowest and highest measured; 0: unknown. */
	__u32 insn_ps_lo, insn_ps_hi;
	__u32 insn_ps_end;			/* live: measured at the end */
	struct idlescope_lateness lateness;	/* count 0: not measured */
	__u64 records_cut_short;		/* partial last records ignored */
	/*
	 * Record files without their trailer (the loader was killed): the
	 * duration, drops, sysfs count, ring buffer and timer lateness are
	 * then unknown, and print as such.
	 */
	int nr_untrailed_files;
	__u64 seq_lost;				/* periods missing from the records' seq */
	int nr_governors;
	char governors[RUN_MAX_GOVERNORS][RUN_NAME_LEN];
	int nr_workloads;
	char workloads[RUN_MAX_WORKLOADS][RUN_WORKLOAD_NAME_LEN];
	/* Where each workload's events come from: the workload list, if given. */
	struct event_sources events;
	double duration_s;
	time_t start_time;			/* wall clock, printed as UTC */
	int nr_cpus;				/* entries used below */
	__u64 records_produced[IDLESCOPE_MAX_CPUS];
	__u64 dropped_records[IDLESCOPE_MAX_CPUS];
	__u64 ringbuf_size_bytes;
	__u64 sysfs_usage_delta;		/* sum of stateN/usage growth, all CPUs */
	__u64 sysfs_above_delta;		/* stateN/above: too deep, as the kernel counts */
	__u64 sysfs_below_delta;		/* stateN/below: too shallow */
	/* The live run's names of the numbers in its records (stats/wakeup.h). */
	struct wake_names wake_names;
	int nr_skipped;
	struct run_skipped_prog skipped[RUN_MAX_SKIPPED];
	bool predictions_available;
	/* Stock menu's predictions rebuilt from its data (replay/reconstruct.c). */
	struct reconstruct_stats reconstruct;
	/*
	 * Times the shadow replay lost a CPU's history (a gap in the
	 * period sequence: dropped records) and restarted its models: struct
	 * replay's replay_resets.  Printed only when shadows are named.
	 */
	__u64 shadow_replay_resets;

	/* The workloads' own figures (report/figures.h), NULL: none. */
	const struct figures *figures;

	/*
	 * A live run's place among its boot's runs (recfile_header's
	 * run_position), and, in a report, each record file's run: so that
	 * a reader sees the order the governors ran in and the guest's speed
	 * in each.
	 */
	unsigned int run_position;
	int nr_runs;
	struct run_file runs[RUN_MAX_RUNS];
};

/**
 * run_meta_init() - an empty run, started now on this kernel
 * @meta: zeroed, then kernel_release from uname(2) and start_time from now
 */
void run_meta_init(struct run_meta *meta);

/**
 * run_meta_trailer_known() - whether the trailer's facts are known
 * @meta: the run
 *
 * Return: true when every record file had its trailer (a live run always
 * knows them).
 */
static inline bool run_meta_trailer_known(const struct run_meta *meta)
{
	return !meta->nr_untrailed_files;
}

/**
 * run_meta_produced() - records produced, all CPUs
 * @meta: the run
 *
 * Return: the sum, saturating (stats/sat.h).
 */
__u64 run_meta_produced(const struct run_meta *meta);

/**
 * run_meta_dropped() - records dropped, all CPUs
 * @meta: the run
 *
 * Return: the sum, saturating (stats/sat.h).
 */
__u64 run_meta_dropped(const struct run_meta *meta);

/**
 * run_meta_add_governor() - append a governor the run measured
 * @meta: the run
 * @name: its name
 *
 * Return: 0; -ENOSPC when the list is full, -ENAMETOOLONG when the name
 * was cut (the cut copy is kept).
 */
int run_meta_add_governor(struct run_meta *meta, const char *name);

/**
 * run_meta_add_run() - append a record file's run to report.json's "runs"
 * @meta: the run
 * @run: the file's boot, seed, governor, place and guest speed
 *
 * The live run adds its own, `idlescope report` one per file, so that the
 * two give the same "runs" for the same file.  Past RUN_MAX_RUNS the rest
 * are not listed.
 */
void run_meta_add_run(struct run_meta *meta, const struct run_file *run);

/**
 * run_meta_seed_of_path() - the seed of a make run boot's record file
 * @path: the file's path
 *
 * Return: N of the last "seed-N" component of @path (scripts/boot-job.sh's
 * OUT/seed-N/...), -1 without one.
 */
long run_meta_seed_of_path(const char *path);

/**
 * run_meta_add_workload() - append a workload the run measured
 * @meta: the run
 * @name: its tag
 *
 * Return: as run_meta_add_governor().
 */
int run_meta_add_workload(struct run_meta *meta, const char *name);

/**
 * run_meta_add_skipped() - append a BPF program the run went without
 * @meta: the run
 * @prog: the program's name
 * @reason: why, e.g. "attach target not in kernel BTF"
 *
 * Return: as run_meta_add_governor(); -ENAMETOOLONG when either text was
 * cut.
 */
int run_meta_add_skipped(struct run_meta *meta, const char *prog,
			 const char *reason);

/**
 * run_meta_note_insn_ps() - add a measurement of the guest's speed
 * @meta: the run
 * @insn_ps: guest ps per instruction (live/insnrate.h); 0 (unknown) is ignored
 *
 * Widens [insn_ps_lo, insn_ps_hi] to take it in.
 */
void run_meta_note_insn_ps(struct run_meta *meta, __u32 insn_ps);

#endif /* __IDLESCOPE_RUNINFO_META_H */
