/* SPDX-License-Identifier: GPL-2.0 */
/*
 * models.h - the idle-duration predictors of the menu governor family, as
 * pure C step functions, for the loader's shadow replay.
 *
 * The seed's experiment scores several predictors on the *same* idle
 * periods.  Only one governor runs at a time, so the others are replayed
 * here: each model is fed, period by period, what its governor's ->select()
 * would have been given on that CPU (next timer, I/O waiters, load, PM QoS
 * limit) and what the core would have told its ->reflect() about the period
 * before (the residency it measured, the state entered, tick and polling
 * details), and it returns the prediction the governor would have made, as
 * kernel/patches/0004 stores it (predicted_ns, 0 when ->select() returned
 * before predicting).
 *
 * The models mirror the kernel code statement by statement, integer widths
 * and defects included, so that the model of the governor that was
 * actually running reproduces the recorded prediction exactly:
 *	menu2010	drivers/cpuidle/governors/menu2010.c, 2.6.34 as released
 *	menu2010fix	+ "cpuidle: Fix incorrect optimziation"
 *	menu2010rpd	+ "cpuidle: Add a repeating pattern detector ..."
 *	menu		drivers/cpuidle/governors/menu.c of 6.1
 * (the first three after kernel/patches/0001-0004, the last after 0004).
 *
 * A 2010 model must also replay its governor's state selection: its next
 * update subtracts the exit latency of the state it chose and treats a stay
 * in the polling state as lasting the whole expected time.  Stock menu's
 * update uses the state that was entered (dev->last_state_idx), and its
 * prediction does not depend on its own choice, so that model only
 * predicts.
 *
 * Pure C: no libbpf, no kernel headers beyond <linux/types.h>.
 */
#ifndef __IDLESCOPE_REPLAY_MODELS_H
#define __IDLESCOPE_REPLAY_MODELS_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"

/*
 * The constants of the kernel code the models mirror.  The kernel files
 * cannot include this header, so tests/host/test_models.c parses their
 * #defines (from kernel/patches and the 6.1 tree) and checks each entry of
 * model_constants[] against them.
 */

/* drivers/cpuidle/governors/menu2010.c (kernel/patches/0001-0003) */
#define M2010_BUCKETS		12
#define M2010_RESOLUTION	1024
#define M2010_DECAY		4	/* menu2010, menu2010fix */
#define M2010_DECAY_RPD		8	/* menu2010rpd */
#define M2010_MAX_INTERESTING	50000	/* us */
#define M2010_INTERVALS		8
#define M2010_STDDEV_THRESH	400	/* us^2 */

/* drivers/cpuidle/governors/menu.c (6.1) */
#define MENU_BUCKETS		IDLESCOPE_MENU_BUCKETS
#define MENU_INTERVAL_SHIFT	3
#define MENU_INTERVALS		(1U << MENU_INTERVAL_SHIFT)
#define MENU_RESOLUTION		1024
#define MENU_DECAY		8
#define MENU_MAX_INTERESTING	(50000ULL * 1000)	/* ns */

/*
 * cpuidle_governor_latency_req() when nobody asked for a PM QoS limit:
 * PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 s, in us) times NSEC_PER_USEC.
 * The replay uses it for records whose limit the BPF side did not see.
 */
#define MODEL_LATENCY_REQ_DEFAULT_NS	(2000LL * 1000000 * 1000)

/* HZ of kernel/config's kernel: for a record file that does not say. */
#define MODEL_HZ		1000

/* One constant as the kernel spells it, for the test that compares them. */
struct model_constant {
	const char *file;	/* "menu2010.c", "menu.c", "idlescope.config" */
	const char *name;	/* the #define (or CONFIG_) name there */
	long long value;
};

extern const struct model_constant model_constants[];
extern const unsigned int model_nr_constants;

enum model_id {
	MODEL_MENU2010,
	MODEL_MENU2010FIX,
	MODEL_MENU2010RPD,
	MODEL_MENU,
	MODEL_NR,
};

/* Equal to the governors' names in /sys/devices/system/cpu/cpuidle. */
extern const char *const model_names[MODEL_NR];

/* The model of a recorded governor (enum idlescope_governor), or -1. */
int model_of_governor(unsigned int governor);
/* The governor (enum idlescope_governor) a model mirrors. */
unsigned int governor_of_model(enum model_id id);

/*
 * The cpuidle driver's states as the governors see them (drv->states[],
 * dev->states_usage[].disable).  The us values the 2010 code uses are the
 * ns values divided by 1000, as the cpuidle core derives them.
 */
struct model_idle_state {
	__s64 exit_latency_ns;
	__s64 target_residency_ns;
	bool polling;		/* CPUIDLE_FLAG_POLLING (POLL, state 0 here) */
	bool disabled;
	/*
	 * The ns values in us, as the cpuidle core derives them and the 2010
	 * code reads them: set by model_table_derive(), once per table
	 * rather than twice per state in every step of every 2010 model.
	 */
	unsigned int exit_latency_us;
	unsigned int target_residency_us;
};

struct model_states_table {
	unsigned int hz;	/* the kernel's CONFIG_HZ, 0: MODEL_HZ */
	int nr_states;
	struct model_idle_state states[IDLESCOPE_MAX_STATES];
};

/* struct menu2010_device, with the observation fields of patch 0004. */
struct model_menu2010 {
	int		last_state_idx;
	int		needs_update;
	unsigned int	expected_us;
	__u64		predicted_us;
	unsigned int	measured_us;	/* never written, as in 2.6.34 */
	unsigned int	exit_us;
	unsigned int	bucket;
	__u64		correction_factor[M2010_BUCKETS];
	__u32		intervals[M2010_INTERVALS];
	int		interval_ptr;
	unsigned int	typical_interval_us;	/* 0 unless the pattern won */
};

/*
 * struct menu_device, with the observation field of patch 0004, plus what
 * the core keeps in struct cpuidle_device for menu_update().
 */
struct model_menu {
	int		needs_update;
	int		tick_wakeup;
	__u64		next_timer_ns;
	unsigned int	bucket;
	unsigned int	correction_factor[MENU_BUCKETS];
	unsigned int	intervals[MENU_INTERVALS];
	int		interval_ptr;
	unsigned int	typical_interval_us;	/* UINT_MAX if none */
	/* dev->last_state_idx, dev->last_residency_ns, dev->poll_time_limit */
	int		last_state_idx;
	__u64		last_residency_ns;
	bool		last_residency_known;	/* since model_reset() */
	bool		poll_time_limit;
};

/*
 * Set the us fields of every state from its ns fields: after those are
 * set and before the first model_step() on the table (replay_init() does
 * it for the replay's own copy).
 */
void model_table_derive(struct model_states_table *table);

/* One model's per-CPU state; model_reset() says which model it is. */
struct model_state {
	enum model_id id;
	union {
		struct model_menu2010 m2010;	/* the three 2010 models */
		struct model_menu menu;
	};
};

/*
 * What ->select() of period i saw, and what the core reported to ->reflect()
 * about period i-1 on the same CPU.
 */
struct model_input {
	__u64 next_timer_ns;		/* tick_nohz_get_sleep_length(), >= 0 */
	unsigned int nr_iowaiters;	/* nr_iowait_cpu() */
	__u32 load;			/* menu2010's get_loadavg(): tenths */
	__s64 latency_req_ns;		/* cpuidle_governor_latency_req() */

	bool has_prev;			/* period i-1 was reflected */
	__u64 prev_residency_ns;	/* dev->last_residency_ns */
	int prev_state;			/* index of the state entered */
	/*
	 * This model's governor chose period i-1's state.  Then prev_state is
	 * what its ->reflect() got; otherwise a 2010 model learns as if the
	 * state it chose itself had been entered.
	 */
	bool prev_chosen_by_model;
	bool prev_tick_wakeup;		/* tick_nohz_idle_got_tick() */
	bool prev_poll_time_limit;	/* dev->poll_time_limit */
	/*
	 * ->select() calls since period i-1 that entered no state, because
	 * a wakeup came first (call_cpuidle() returns -EBUSY and sets
	 * dev->last_residency_ns to 0; no cpu_idle event, no ->reflect()).
	 * Stock menu marks each in its intervals.  The replay passes the
	 * record's lost_selects.
	 */
	unsigned int lost_selects;
	/*
	 * The caller does not use the value returned: the model may skip
	 * work that shapes the value alone and leaves its history as it is
	 * (stock menu's pattern search; typical_interval_us is not set then).
	 * The replay sets it for a model the report does not score on the
	 * period.
	 */
	bool prediction_unused;
};

/* ->enable(): forget the CPU's history. */
void model_reset(struct model_state *ms, enum model_id id);

/*
 * One idle period: ->reflect() of period i-1 (if in->has_prev), then
 * ->select() of period i.  Returns predicted_ns as patch 0004 stores it
 * (0 when no prediction was made).  For the 2010 models the state chosen
 * is ms->m2010.last_state_idx afterwards.
 */
__u64 model_step(struct model_state *ms, const struct model_input *in,
		 const struct model_states_table *table);

/*
 * Stock menu's select in two steps, for its model and for rebuilding the
 * prediction of a kernel without patch 0004 from menu's own data
 * (replay/reconstruct.c).  model_menu_returns_early(): whether menu_select()
 * returns state 0 before predicting (too few states, a PM QoS limit of 0,
 * or state 1 too long or too slow for the next timer or the limit).
 * model_menu_predict_ns(): its prediction as patch 0004 stores it, from the
 * next timer, the bucket's correction factor and the recent intervals;
 * *typical_interval_us gets the pattern detector's verdict (UINT_MAX: none).
 */
bool model_menu_returns_early(__u64 next_timer_ns, __s64 latency_req_ns,
			      const struct model_states_table *table);
__u64 model_menu_predict_ns(__u64 next_timer_ns, unsigned int correction_factor,
			    const unsigned int intervals_us[MENU_INTERVALS],
			    unsigned int *typical_interval_us);

/*
 * Shadow replay of every model on every CPU, from the record stream.
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
	struct replay_cpu cpus[IDLESCOPE_MAX_CPUS];
	/*
	 * Resets replay_record() did on a seq gap, all CPUs (not those of
	 * direct replay_reset_cpu() calls): how often history was lost.
	 */
	__u64 replay_resets;
};

void replay_init(struct replay *rp, const struct model_states_table *table);
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

/*
 * Whether model @id on @cpu has replayed every period since its governor's
 * last ->enable() on that CPU (a switch to it, or a restart the record
 * flagged), with no seq gap since: the condition for comparing it with the
 * kernel's recorded predictions.  A governor that was already running when
 * the records began has a history the replay never saw.
 */
bool replay_in_step(const struct replay *rp, unsigned int cpu, enum model_id id);

#endif /* __IDLESCOPE_REPLAY_MODELS_H */
