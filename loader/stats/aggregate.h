/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggregate.h - per (workload, governor, CPU) statistics of idle periods.
 *
 * The loader feeds every struct idlescope_record it receives into one
 * struct agg.  Each key keeps log2 histograms of the actual residency, of the
 * governor's prediction and of the prediction/actual ratio, the seed's
 * "within factor F" table, state-choice counts and too-deep / too-shallow
 * counts, and the scores of the shadow-replayed models on the same periods.
 * Reports and the live dashboard read the table back through the
 * accessors below; agg_sum() folds keys together (e.g. all CPUs of one
 * workload x governor).
 *
 * Histogram buckets follow libbpf-tools' log2l() exactly, so the numbers
 * print with print_log2_hist() as the familiar ranges:
 *	bucket 0 holds 0 and 1		("0 -> 1")
 *	bucket k >= 1 holds [2^k, 2^(k+1) - 1]	("2 -> 3", "4 -> 7", ...)
 * i.e. bucket = floor(log2(v)) for v >= 1 and 0 for v == 0.
 *
 * Pure C: no libbpf, no kernel headers beyond <linux/types.h>.
 */
#ifndef __IDLESCOPE_STATS_AGGREGATE_H
#define __IDLESCOPE_STATS_AGGREGATE_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "stats/ci.h"
#include "stats/buckets.h"
#include "stats/period.h"
#include "stats/exitspent.h"
#include "models/registry.h"

/* Capacity of the key table; agg_add() returns -ENOSPC beyond it. */
#define AGG_MAX_WORKLOADS	64
/*
 * A workload's name: its tag escaped (format/escape.h), so that it prints
 * on one line and two tags stay two workloads: 4 bytes per tag byte.
 */
#define AGG_WORKLOAD_NAME_LEN	(4 * IDLESCOPE_WORKLOAD_LEN + 1)

/* Boots one aggregate can be merged from (agg_add_boot()), their ids' size. */
#define AGG_MAX_BOOTS		256
#define AGG_BOOT_ID_LEN		40

/* Wildcard for agg_sum()'s workload, governor and cpu arguments. */
#define AGG_ANY			(-1)

/*
 * Shadow replay: up to AGG_MAX_SHADOWS other predictors (the loader's
 * models) are scored on the same idle periods as the running governor,
 * each in its own struct agg_shadow of the period's key.  The aggregate
 * only knows them by index, by the label and the inputs given to
 * agg_set_shadows(); its capacity is the model registry's size.
 */
#define AGG_MAX_SHADOWS		PERIOD_MAX_SHADOWS
#define AGG_SHADOW_NAME_LEN	32	/* including the NUL */

/*
 * One shadow model's score on one key.  A prediction counts (samples) when
 * it is not IDLESCOPE_UNKNOWN_NS, as for the live governor (0 is a
 * prediction); it is scored with the same agg_within_factor() and
 * agg_ratio_bucket().
 */
struct agg_shadow {
	__u64 samples;				/* predictions made */
	__u64 within_factor[AGG_NR_FACTORS];	/* per agg_factors[] */
	struct ci_acc within_ci[AGG_NR_FACTORS];
	/*
	 * Periods a governor selected whose record lacks an input the model
	 * needs (agg_shadow_inputs()): not scored, since a model fed zeros
	 * in place of its inputs says nothing about its predictor.
	 */
	__u64 excluded_samples;
	unsigned int ratio_hist[AGG_RATIO_SLOTS];	/* as agg_stats.ratio_hist */
	/*
	 * Only for the model of the running governor: did it reproduce the
	 * kernel's recorded prediction?  That is the test of the model.
	 */
	__u64 agree_checked;
	__u64 agree_samples;
	/*
	 * A model that chooses states: its state against the period's ideal
	 * one (agg_ideal_state()), as agg_stats scores the entered state,
	 * on the periods whose record holds its inputs; a logical period by
	 * the time its chosen states held it, as agg_stats does.
	 */
	__u64 ideal_samples;
	__u64 ideal_hit_samples;
	__u64 ideal_too_deep_samples;
	__u64 ideal_too_shallow_samples;
	__u64 ideal_split_samples;
	struct ci_acc ideal_hit_ci, ideal_too_deep_ci, ideal_too_shallow_ci;
	/*
	 * ... and, for the model of the running governor, whether it chose
	 * the state the kernel's select returned (IDLESCOPE_F_SELECT_PROBED).
	 */
	__u64 state_agree_checked;
	__u64 state_agree_samples;
};

/* One cpuidle state as the loader read it from sysfs (cpuN/cpuidle/stateK). */
struct agg_state_info {
	__u64 target_residency_ns;
	__u64 exit_latency_ns;
	bool disabled;		/* "disable" attribute: skipped like the kernel */
};

/*
 * Everything kept per key.  Histogram counts are unsigned int to print them
 * directly with print_log2_hist() (2^32 periods per key is far beyond a run).
 * Sums of nanoseconds saturate at 2^64 - 1 (stats/sat.h): a record file's
 * residencies are not trusted.
 */
struct agg_stats {
	__u64 samples;			/* records folded in */
	__u64 residency_sum_ns;
	__u64 residency_min_ns;		/* valid when samples > 0 */
	__u64 residency_max_ns;
	unsigned int residency_us_hist[AGG_LOG2_SLOTS];

	/*
	 * Only records with IDLESCOPE_F_PREDICTED and a prediction made, not
	 * IDLESCOPE_UNKNOWN_NS (not read, or patch 0004's U64_MAX: the
	 * governor's select returned before predicting); 0 is a prediction.
	 */
	__u64 predicted_samples;
	__u64 predicted_sum_ns;
	unsigned int predicted_us_hist[AGG_LOG2_SLOTS];
	unsigned int ratio_hist[AGG_RATIO_SLOTS];	/* index k - RATIO_LOG2_MIN */
	__u64 within_factor[AGG_NR_FACTORS];		/* per agg_factors[] */
	struct ci_acc within_ci[AGG_NR_FACTORS];

	/*
	 * State indices (record.state: entered; record.chosen_state: select's
	 * return value when it was in range): in range is inside the state
	 * table (agg_set_states()), or below IDLESCOPE_MAX_STATES without one.
	 */
	__u64 state_entered[IDLESCOPE_MAX_STATES];
	__u64 state_chosen[IDLESCOPE_MAX_STATES];
	__u64 invalid_state_samples;	/* record.state out of range */
	/*
	 * Idle time per entered state: counts say how often a state was
	 * picked, this how much of the idle time it held, which is what
	 * decides the energy a governor saves.
	 */
	__u64 state_residency_ns[IDLESCOPE_MAX_STATES];

	/* As the kernel saw it: trace_cpu_idle_miss() flags on the record. */
	__u64 miss_above_samples;	/* IDLESCOPE_F_MISS_ABOVE: too deep */
	__u64 miss_below_samples;	/* IDLESCOPE_F_MISS_BELOW: too shallow */
	struct ci_acc miss_above_ci, miss_below_ci;	/* over all samples */

	/*
	 * The loader's own check against the state table (agg_set_states()),
	 * the same rule as cpuidle_enter_state() in drivers/cpuidle/cpuidle.c.
	 */
	__u64 crosscheck_samples;	/* records the state table covered */
	__u64 too_deep_samples;
	__u64 too_shallow_samples;

	/*
	 * Ideal-state scoring, for every governor whether it predicts or not
	 * (agg_ideal_state()): the entered state against the deepest one
	 * the period, until its wake-up (stats/period.h), would have paid
	 * for.  A period counts as a hit, deeper or shallower by the share of
	 * its time each state held (period_shares()): a raw period, in one
	 * state, wholly as one of them, and so in the counts below; a logical
	 * period that spent time both in and out of its ideal state counts
	 * in ideal_split_samples, and in the shares (the ci_accs) by its
	 * fractions.  Time-weighted too: of the scored idle time, how much
	 * was spent in a state shallower than the ideal one (the energy left
	 * on the table).
	 */
	__u64 ideal_samples;		/* periods scored */
	__u64 ideal_hit_samples;
	__u64 ideal_too_deep_samples;
	__u64 ideal_too_shallow_samples;
	__u64 ideal_split_samples;
	__u64 ideal_idle_ns;
	__u64 ideal_shallow_idle_ns;
	struct ci_acc ideal_hit_ci, ideal_too_deep_ci, ideal_too_shallow_ci;
	struct ci_acc ideal_shallow_time_ci;

	/*
	 * What the environment did to the periods.  Of the predictions, those
	 * made from a next timer at or beyond 2^32 ns (4.29 s), which the 2010
	 * menus' (u32) cast wraps into a pseudo-random expected duration.  Of
	 * the periods a sleep's timer woke, those it woke more than
	 * AGG_LATE_SLEEP_NS late: a clock that lost its pace (docs/clock.md).
	 */
	__u64 next_timer_wrap_samples;
	/*
	 * menu's prediction after its adjustment for a stopped tick (the next
	 * timer in place of a prediction below the tick period): what its
	 * state search compares with, scored as the prediction is.
	 */
	__u64 tick_adjusted_samples;
	__u64 tick_adjusted_within[AGG_NR_FACTORS];
	struct ci_acc tick_adjusted_ci[AGG_NR_FACTORS];
	__u64 sleep_woke_samples;
	__u64 late_sleep_samples;
	__u64 late_sleep_max_ns;

	/* Per agg_set_shadows() index; unused entries stay 0. */
	struct agg_shadow shadow[AGG_MAX_SHADOWS];
};

/*
 * A sleep's timer this late is one the report warns of: ten ticks, beyond
 * the deepest state's exit latency (a timer due while a CPU spends it with
 * interrupts off fires that much late, as on hardware), short of the tens
 * of ms a clock that lost its pace delays them (docs/clock.md).
 */
#define AGG_LATE_SLEEP_NS	10000000ULL
/* Next timers from here on wrap in a 32-bit ns count. */
#define AGG_NEXT_TIMER_WRAP_NS	(1ULL << 32)

/* A key; workload is an index (see agg_workload_name()). */
struct agg_key {
	int workload;
	int governor;
	int cpu;
};

struct agg;
struct why;

/**
 * agg_new() - an empty aggregate
 *
 * No state table (agg_set_states()) and no shadows (agg_set_shadows()) yet.
 *
 * Return: the aggregate, or NULL when out of memory.
 */
struct agg *agg_new(void);

/**
 * agg_free() - free an aggregate, and the logical one attached to it
 * @agg: from agg_new(), or NULL
 */
void agg_free(struct agg *agg);

/**
 * agg_attach_logical() - give @agg the aggregate of its logical periods
 * @agg: the raw periods' aggregate, which owns it from now on, its shadows
 *	already named (agg_set_shadows())
 * @logical: where the same periods, merged into logical ones
 *	(stats/logical.h), are scored: agg_add_period() merges each raw
 *	period it counts and scores each logical period that closes
 */
void agg_attach_logical(struct agg *agg, struct agg *logical);

/**
 * agg_flush_logical() - score every logical period still open
 * @agg: the raw periods' aggregate
 *
 * At the end of a run's records (the next record file is another run),
 * and before the logical aggregate is read while records still come.
 */
void agg_flush_logical(struct agg *agg);

/**
 * agg_logical() - the aggregate of @agg's logical periods
 * @agg: the raw periods' aggregate
 *
 * Return: what agg_attach_logical() gave it, or NULL.
 */
struct agg *agg_logical(const struct agg *agg);

/**
 * agg_add_period() - fold one period into the aggregate, in one pass
 * @agg: the aggregate
 * @p: the period (stats/period.h): its record, its actual (the wake-up),
 *	the time each state held it, and its models' verdicts when it has
 *	them
 *
 * The key (workload, governor, cpu) and the ideal state are worked out
 * once, here, and every score of the period is counted with them: the
 * running governor's prediction and state, each shadow model's (as
 * agg_add_shadows() scores them), the wake-up class, tick and energy
 * (agg_why(); not for a logical aggregate, whose periods are the raw ones
 * merged), and the exit spent (agg_exit_spent()).
 *
 * Return: 0, or a negative errno with the period counted in
 * agg_rejected_records() and nothing else:
 * -ERANGE record.cpu >= IDLESCOPE_MAX_CPUS;
 * -EINVAL record.governor >= IDLESCOPE_NR_GOVERNORS, or a shadow's
 *	agreement or state_agreement not -1, 0 or 1;
 * -ENOSPC a new workload name and AGG_MAX_WORKLOADS are already in use.
 */
int agg_add_period(struct agg *agg, const struct period *p);

/**
 * agg_add() - fold one record into the aggregate, without models
 * @agg: the aggregate
 * @rec: the record
 *
 * agg_add_period() of period_of_record(@rec): no shadow verdicts, no
 * untimed exit assumed (the pipeline knows the run's exit cost).
 *
 * Return: as agg_add_period().
 */
int agg_add(struct agg *agg, const struct idlescope_record *rec);

/**
 * agg_why() - why the periods missed and what they cost (stats/why.h)
 * @agg: the aggregate
 *
 * agg_add() feeds it every record it counts; its state table, power table
 * and names are set through it.
 *
 * Return: the aggregate's store, never NULL.
 */
struct why *agg_why(const struct agg *agg);

/**
 * agg_rejected_records() - records agg_add() refused
 * @agg: the aggregate
 *
 * Return: how many records agg_add() returned an error for.
 */
__u64 agg_rejected_records(const struct agg *agg);

/**
 * agg_set_states() - give the state table the cross-check uses
 * @agg: the aggregate
 * @states: states 0..@nr_states-1 (copied)
 * @nr_states: how many; 0 turns the cross-check off
 *
 * The table applies to records added from now on (records already folded
 * in are not re-checked), and agg_ideal_state() scores against it.
 *
 * Return: 0, or -EINVAL if @nr_states < 0 or > IDLESCOPE_MAX_STATES.
 */
int agg_set_states(struct agg *agg, const struct agg_state_info *states,
		   int nr_states);

/**
 * agg_nr_states() - the size of the state table
 * @agg: the aggregate
 *
 * Return: the number of states the last successful agg_set_states() gave,
 * 0 if none.
 */
int agg_nr_states(const struct agg *agg);

/**
 * agg_state() - one state of the state table
 * @agg: the aggregate
 * @index: 0..agg_nr_states() - 1
 *
 * Return: the state, or NULL for an index out of range.
 */
const struct agg_state_info *agg_state(const struct agg *agg, int index);

/**
 * agg_ideal_state() - the state a period, as it turned out, would have paid for
 * @agg: the aggregate, with its state table
 * @residency_ns: how long the period lasted until its wake-up
 * @latency_req_ns: the PM QoS limit (IDLESCOPE_LATENCY_REQ_UNKNOWN: no
 *	limit known)
 *
 * Return: the deepest enabled state whose target residency is at most
 * @residency_ns and whose exit latency is within @latency_req_ns; the
 * shallowest enabled state when none fits; -1 with no enabled state.
 */
int agg_ideal_state(const struct agg *agg, __u64 residency_ns,
		    __s64 latency_req_ns);

/**
 * agg_set_shadows() - name the shadow models and say what each needs
 * @agg: the aggregate
 * @names: labels of shadows 0..@nr-1 (copies are kept)
 * @inputs: IDLESCOPE_F_HAS_* bits each shadow needs in a record to be
 *	scored on it; NULL: none needed
 * @nr: how many
 *
 * Call it before the first agg_add_shadows(); reports list exactly these
 * @nr models.  On error the shadows set before are kept.
 *
 * Return: 0, -EINVAL (@nr < 0, @nr > AGG_MAX_SHADOWS, @names NULL with
 * @nr > 0, or a NULL/empty name) or -ENAMETOOLONG (a name of
 * AGG_SHADOW_NAME_LEN or more).
 */
int agg_set_shadows(struct agg *agg, const char *const *names,
		    const unsigned int *inputs, int nr);

/**
 * agg_nr_shadows() - how many shadow models are named
 * @agg: the aggregate
 *
 * Return: the number the last successful agg_set_shadows() named, 0 if
 * none.
 */
int agg_nr_shadows(const struct agg *agg);

/**
 * agg_shadow_name() - the label of a shadow model
 * @agg: the aggregate
 * @shadow: 0..agg_nr_shadows() - 1
 *
 * Return: the label given to agg_set_shadows(), or NULL for none.
 */
const char *agg_shadow_name(const struct agg *agg, int shadow);

/**
 * agg_shadow_inputs() - what a shadow model needs in a record
 * @agg: the aggregate
 * @shadow: 0..agg_nr_shadows() - 1
 *
 * Return: the IDLESCOPE_F_HAS_* bits given to agg_set_shadows(); 0 for
 * an index out of range.
 */
unsigned int agg_shadow_inputs(const struct agg *agg, int shadow);

/**
 * agg_shadow_has_inputs() - whether a shadow model can be scored on a record
 * @agg: the aggregate
 * @shadow: 0..agg_nr_shadows() - 1
 * @rec_inputs: what the record holds (inputs_of_record())
 *
 * Only a record with every input the model needs has its prediction scored.
 *
 * Return: true when @rec_inputs holds all of agg_shadow_inputs().
 */
bool agg_shadow_has_inputs(const struct agg *agg, int shadow, unsigned int rec_inputs);

/**
 * agg_add_shadow() - fold one shadow model's prediction for a period in
 * @agg: the aggregate
 * @rec: the record of the period, already given to agg_add()
 * @rec_inputs: what the record holds (inputs_of_record(), worked out once
 *	per period by the caller)
 * @shadow: 0..agg_nr_shadows() - 1
 * @predicted_ns: the model's prediction for the period
 * @agreement: -1 when not checked (the model is not that of the running
 *	governor, or the kernel's prediction is unknown), 0 when the model
 *	of the running governor disagreed with the recorded prediction, 1
 *	when it reproduced it
 *
 * The prediction goes into the key agg_add(@rec) used (workload, governor,
 * cpu): call it after agg_add() of the same record.  A period whose record
 * lacks an input the model needs is counted in excluded_samples instead
 * of being scored.  @agreement is counted whether or not the model made a
 * prediction (both saying "none", IDLESCOPE_UNKNOWN_NS, is an agreement).
 *
 * Return: 0, or a negative errno with nothing counted:
 * -ERANGE record.cpu >= IDLESCOPE_MAX_CPUS;
 * -EINVAL bad governor, @shadow >= agg_nr_shadows(), @agreement not -1, 0
 * or 1;
 * -ENOENT agg_add() has not counted a record for that key.
 */
int agg_add_shadow(struct agg *agg, const struct idlescope_record *rec,
		   unsigned int rec_inputs, int shadow, __u64 predicted_ns, int agreement);

/**
 * agg_add_shadows() - the verdicts of several shadows on one period
 * @agg: the aggregate
 * @rec: the record of the period, already given to agg_add()
 * @first: the first shadow
 * @nr: how many, shadows @first..@first+@nr-1
 * @periods: shadow @first + i's verdict in [i]
 *
 * For models whose verdicts come apart from their period (agg_add_period()
 * takes them with it, in one pass): the key agg_add() counted is looked up
 * again.  As agg_add_shadow() for the prediction, except that the caller says
 * whether the record held each model's inputs (it knows which the model
 * used on this period); a chosen state is scored against the period's
 * ideal one when it did; state_agreement as agreement, for the state.
 *
 * Return: as agg_add_shadow() (an agreement or state_agreement not -1, 0
 * or 1 is -EINVAL), all or nothing: the errors are checked for every
 * shadow before any is counted.
 */
int agg_add_shadows(struct agg *agg, const struct idlescope_record *rec,
		    int first, int nr, const struct agg_shadow_period *periods);

/**
 * agg_nr_workloads() - how many workloads the aggregate has seen
 * @agg: the aggregate
 *
 * Workloads are numbered in the order first seen; a name is the tag
 * escaped (AGG_WORKLOAD_NAME_LEN).
 *
 * Return: the number of workload names interned.
 */
int agg_nr_workloads(const struct agg *agg);

/**
 * agg_workload_name() - the name of a workload index
 * @agg: the aggregate
 * @workload: 0..agg_nr_workloads() - 1
 *
 * Return: a NUL-terminated copy of the record's tag ("" for the untagged
 * workload), or NULL for an index out of range.
 */
const char *agg_workload_name(const struct agg *agg, int workload);

/**
 * agg_workload_index() - the index of a workload name
 * @agg: the aggregate
 * @name: as agg_workload_name() returns it
 *
 * Return: its index, or -1 for a name no record carried.
 */
int agg_workload_index(const struct agg *agg, const char *name);

/**
 * agg_last_workload() - the workload running now
 * @agg: the aggregate
 *
 * Return: the workload of the last record added, or -1 before the first.
 */
int agg_last_workload(const struct agg *agg);

/**
 * agg_get() - the statistics of one key
 * @agg: the aggregate
 * @workload: a workload index
 * @governor: enum idlescope_governor
 * @cpu: a CPU
 *
 * Return: the key's stats, NULL if out of range or no record was added
 * for it.
 */
const struct agg_stats *agg_get(const struct agg *agg, int workload,
				int governor, int cpu);

/**
 * agg_next() - walk the keys that have records
 * @agg: the aggregate
 * @key: the key returned last, set to the next one; start with
 *	key->workload = -1
 *
 * The walk is workload-major, then governor, then cpu.
 *
 * Return: the next key's stats, NULL at the end.
 */
const struct agg_stats *agg_next(const struct agg *agg, struct agg_key *key);

/**
 * agg_sum() - the sum of every key that matches
 * @agg: the aggregate
 * @workload: a workload index, or AGG_ANY
 * @governor: enum idlescope_governor, or AGG_ANY
 * @cpu: a CPU, or AGG_ANY
 * @out: overwritten with the sum
 *
 * agg_sum(agg, w, g, AGG_ANY, &all) is the "all CPUs" aggregate of a
 * workload x governor.
 *
 * Return: the number of keys summed; 0 with *@out empty when none matched.
 */
int agg_sum(const struct agg *agg, int workload, int governor, int cpu,
	    struct agg_stats *out);

/**
 * agg_stats_merge() - add one key's statistics to another's
 * @dst: the sum so far
 * @src: what to add (an empty one adds nothing)
 *
 * dst += src: min/max combine, counts and histograms (shadows too) add,
 * interval accumulators merge (ci_merge()).
 */
void agg_stats_merge(struct agg_stats *dst, const struct agg_stats *src);

/**
 * agg_merge() - add one aggregate into another
 * @dst: the sum
 * @src: what is added; unchanged
 *
 * Every key of @src into @dst (workloads matched by name, interned in
 * @dst when new), its rejected records, its exit distributions and its
 * wake-up sources; the same of their logical aggregates when both have
 * one (agg_attach_logical()).  Both need the same shadows: a model's
 * column is its index.
 *
 * Return: 0, or -ENOSPC with part of @src merged (AGG_MAX_WORKLOADS in
 * use), or the wake-up sources' error.
 */
int agg_merge(struct agg *dst, const struct agg *src);

/**
 * agg_add_boot() - name one boot the aggregate is the sum of
 * @agg: the sum of the boots
 * @boot: the boot's own aggregate, handed over: @agg frees it with itself
 * @boot_id: the boot's /proc/sys/kernel/random/boot_id, kept (cut to
 *	AGG_BOOT_ID_LEN - 1); "" for a boot of unknown id
 *
 * A boot is the unit of replication of the report's intervals
 * (stats/boots.h): they are computed over the boots, not the periods.
 * The caller merges each file into both the boot and @agg
 * (agg_merge()); this only keeps the boot apart.
 *
 * Return: 0, or -ENOSPC past AGG_MAX_BOOTS (@boot stays the caller's).
 */
int agg_add_boot(struct agg *agg, struct agg *boot, const char *boot_id);

/**
 * agg_nr_boots() - how many boots agg_add_boot() named
 * @agg: the aggregate
 *
 * Return: the number of boots, 0 for an aggregate of one boot's records.
 */
int agg_nr_boots(const struct agg *agg);

/**
 * agg_boot() - one boot's own aggregate
 * @agg: the sum of the boots
 * @boot: 0 .. agg_nr_boots() - 1, in the order they were added
 *
 * Return: the boot's aggregate, or NULL for @boot out of range.
 */
struct agg *agg_boot(const struct agg *agg, int boot);

/**
 * agg_boot_id() - one boot's id
 * @agg: the sum of the boots
 * @boot: 0 .. agg_nr_boots() - 1
 *
 * Return: the id agg_add_boot() kept ("" when unknown), or NULL for @boot
 * out of range.
 */
const char *agg_boot_id(const struct agg *agg, int boot);

/*
 * A run left out of the headline and of compare's test: one boot's
 * periods of one workload under one governor, which did not deliver the
 * pattern it stands for (its workload missed its own target, or a sleep
 * woke far too late: the guest's time jumped).  Every other table keeps
 * its periods and says so.
 */
#define AGG_MAX_EXCLUSIONS		256
#define AGG_EXCLUSION_REASON_LEN	128

struct agg_exclusion {
	int boot;				/* agg_boot() index */
	int governor;
	char workload[AGG_WORKLOAD_NAME_LEN];
	char reason[AGG_EXCLUSION_REASON_LEN];	/* what it missed, one line */
};

/**
 * agg_exclude_run() - leave one boot's workload under one governor out
 * @agg: the aggregate of the boots
 * @boot: its agg_boot() index
 * @workload: the workload's name (agg_workload_name())
 * @governor: enum idlescope_governor
 * @reason: what the run missed, one line (cut to fit)
 *
 * A run left out twice keeps its first reason.
 *
 * Return: 0, -EINVAL for a boot or governor out of range, -ENOSPC past
 * AGG_MAX_EXCLUSIONS.
 */
int agg_exclude_run(struct agg *agg, int boot, const char *workload, int governor,
		    const char *reason);

/**
 * agg_run_excluded() - why a run is left out
 * @agg: the aggregate of the boots
 * @boot: an agg_boot() index
 * @workload: a workload's name
 * @governor: enum idlescope_governor
 *
 * Return: the reason agg_exclude_run() was given, or NULL when the run counts.
 */
const char *agg_run_excluded(const struct agg *agg, int boot, const char *workload,
			     int governor);

/**
 * agg_nr_exclusions() - how many runs are left out
 * @agg: the aggregate of the boots
 *
 * Return: the number of agg_exclude_run() calls that left a run out.
 */
int agg_nr_exclusions(const struct agg *agg);

/**
 * agg_exclusion() - one run left out
 * @agg: the aggregate of the boots
 * @i: 0 .. agg_nr_exclusions() - 1, in the order they were left out
 *
 * Return: the run and its reason, or NULL for @i out of range.
 */
const struct agg_exclusion *agg_exclusion(const struct agg *agg, int i);

/**
 * agg_exclude_late_runs() - leave out the runs whose time jumped
 * @agg: the aggregate of the boots (agg_add_boot())
 *
 * Every run (boot x workload x governor) in which a sleep's timer woke
 * more than AGG_LATE_SLEEP_NS late is left out (agg_exclude_run()), its
 * reason saying by how much: the guest's time jumped, and its periods
 * are no pattern's.
 *
 * Return: 0, or -ENOSPC past AGG_MAX_EXCLUSIONS.
 */
int agg_exclude_late_runs(struct agg *agg);

/**
 * agg_exit_spent() - the exit time the idle driver spent, per state
 * @agg: the aggregate
 * @state: the state entered
 *
 * Over every raw period whose exit the BPF side timed (stats/period.h):
 * its distribution against the state's declared exit latency, a figure
 * of its own apart from every score.
 *
 * Return: the distribution, or NULL for @state out of range.
 */
const struct exit_spent *agg_exit_spent(const struct agg *agg, int state);

#endif /* __IDLESCOPE_STATS_AGGREGATE_H */
