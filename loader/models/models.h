/* SPDX-License-Identifier: GPL-2.0 */
/*
 * models.h - the governors' idle-duration predictors as pure C step
 * functions, for the loader's shadow replay (replay/replay.h).
 *
 * The seed's experiment scores several predictors on the *same* idle
 * periods.  Only one governor runs at a time, so the others are replayed
 * here: each model is fed, period by period, what its governor's ->select()
 * would have been given on that CPU (next timer, I/O waiters, load, PM QoS
 * limit) and what the core would have told its ->reflect() about the period
 * before (the residency it measured, the state entered, tick and polling
 * details), and it returns the prediction the governor would have made, as
 * kernel/patches/VERSION/0004 stores it (predicted_ns; IDLESCOPE_UNKNOWN_NS,
 * the patch's U64_MAX, when ->select() returned before predicting, so that
 * a prediction of 0 ns stays one).
 *
 * The models mirror the kernel code statement by statement, integer widths
 * and defects included, so that the model of the governor that was
 * actually running reproduces the recorded prediction exactly.  Which
 * models exist, which governor and kernel each one mirrors and which
 * record inputs it needs is models/registry.h, the one list; each model's
 * code and per-CPU data is in a file of its own (menu2010.c, menu.c).
 *
 * Pure C: no libbpf, no kernel headers beyond <linux/types.h>.
 */
#ifndef __IDLESCOPE_MODELS_MODELS_H
#define __IDLESCOPE_MODELS_MODELS_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "idlescope.h"
#include "models/registry.h"

#define MODEL_ENUM(id, name, gov, kernel, inputs, step, reset)	MODEL_##id,
enum model_id {
	IDLESCOPE_MODELS(MODEL_ENUM)
};
#undef MODEL_ENUM

/* Not an enumerator, so that a switch over enum model_id needs no default. */
#define MODEL_NR		MODEL_REGISTRY_COUNT

/*
 * cpuidle_governor_latency_req() when nobody asked for a PM QoS limit:
 * PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 s, in us) times NSEC_PER_USEC.
 * The replay uses it for records whose limit the BPF side did not see.
 */
#define MODEL_LATENCY_REQ_DEFAULT_NS	(2000LL * 1000000 * 1000)

/*
 * drivers/cpuidle/governors/gov.h of 6.12: below this target residency a
 * state is shallow enough for menu and teo to choose it without asking for
 * the sleep length (a long, as NSEC_PER_USEC is).
 */
#define MODEL_RESIDENCY_THRESHOLD_NS	(15 * 1000L)

/*
 * include/linux/ktime.h: the sleep length of a 6.12 governor that did not
 * ask for it, and what it then stores as the next timer.
 */
#define MODEL_KTIME_MAX		INT64_MAX

/* HZ of kernel/config's kernel: for a record file that does not say. */
#define MODEL_HZ		1000

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
	/* TICK_NSEC of HZ tick_hz, as model_table_derive() left it */
	__u64 tick_ns;
	unsigned int tick_hz;
	int nr_states;
	struct model_idle_state states[IDLESCOPE_MAX_STATES];
};

/**
 * model_table_derive() - set the us fields of every state from its ns fields
 * @table: a table whose ns fields are set
 *
 * Call it before the first model_step() on the table (replay_init() does
 * it for the replay's own copy).
 */
void model_table_derive(struct model_states_table *table);

/**
 * model_tick_ns() - TICK_NSEC of the recorded kernel
 * @table: the table with the kernel's HZ (0: MODEL_HZ)
 *
 * The models ask for it several times a period: model_table_derive()
 * keeps it in the table.
 *
 * Return: the tick period in ns, rounded as the kernel rounds it.
 */
static inline __u64 model_tick_ns(const struct model_states_table *table)
{
	unsigned int hz = table->hz ? table->hz : MODEL_HZ;

	if (table->tick_ns && table->tick_hz == hz)
		return table->tick_ns;
	return (1000000000ULL + hz / 2) / hz;
}

/* Room for any model's per-CPU data; each model's file asserts it fits. */
#define MODEL_DATA_BYTES	512

/* One model's per-CPU state; model_reset() says which model it is. */
struct model_state {
	enum model_id id;
	/*
	 * The state the model's governor would have entered, after its last
	 * model_step(); -1 for a model that only predicts.
	 */
	int chosen_state;
	/*
	 * IDLESCOPE_F_HAS_* inputs its last model_step() used that the
	 * record did not hold (model_input.inputs), beyond those the
	 * registry says it always needs: a model that reads the next timer
	 * only on some periods (6.12's menu and teo skip it when a shallow
	 * state will do) says so here, and is not scored on that period.
	 */
	unsigned int lacked_inputs;
	/* The model's own data (struct model_menu, ...), see its file. */
	union {
		__u64 align;
		unsigned char bytes[MODEL_DATA_BYTES];
	} data;
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
	/*
	 * The tick as select found it: tick_nohz_tick_stopped(), and the
	 * time from the idle entry to the next event of the tick device,
	 * which tick_nohz_get_sleep_length() returns in *delta_next.
	 */
	bool tick_stopped;
	__s64 delta_tick_ns;
	/* IDLESCOPE_F_HAS_* bits of the record (replay/inputs.h) */
	unsigned int inputs;

	bool has_prev;			/* period i-1 was reflected */
	/*
	 * The core's struct cpuidle_device still describes period i-1
	 * (dev->last_state_idx, last_residency_ns, poll_time_limit: the
	 * prev_* fields) even where has_prev is false because ->enable() ran
	 * in between: a governor switch leaves them as the old governor's
	 * reflect did.  A governor whose first update reads them (teo70)
	 * learns from that period.
	 */
	bool prev_in_core;
	__u64 prev_residency_ns;	/* dev->last_residency_ns */
	int prev_state;			/* index of the state entered */
	/*
	 * This model's governor chose period i-1's state.  Then prev_state is
	 * what its ->reflect() got; otherwise a model that chooses states
	 * learns as if the state it chose itself had been entered.
	 */
	bool prev_chosen_by_model;
	bool prev_tick_wakeup;		/* tick_nohz_idle_got_tick() */
	bool prev_poll_time_limit;	/* dev->poll_time_limit */
	/*
	 * teo's reflect of period i-1: its time span reached the sleep
	 * length select had been given (time_span_ns >= sleep_length_ns,
	 * so the update counts a hit), and whether that was one of reflect's
	 * safety nets (the poll time limit, or the tick beyond the sleep
	 * length), which set the span to the sleep length whatever it was.
	 */
	bool prev_span_full;
	bool prev_safety_net;
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
	 * (stock menu's pattern search).  The replay sets it for a model the
	 * report does not score on the period.
	 */
	bool prediction_unused;
};

/*
 * A model's two functions (the registry names them): ->enable() of its
 * governor on @data, zeroed by the caller; and one idle period,
 * ->reflect() of period i-1 (if in->has_prev) then ->select() of period i,
 * returning predicted_ns as patch 0004 stores it (IDLESCOPE_UNKNOWN_NS when
 * no prediction was made) and setting ms->chosen_state.
 */
typedef void model_reset_fn(void *data);
typedef __u64 model_step_fn(struct model_state *ms, const struct model_input *in,
			    const struct model_states_table *table);

#define MODEL_DECLARE(id, name, gov, kernel, inputs, step, reset)	\
	model_step_fn step;						\
	model_reset_fn reset;
IDLESCOPE_MODELS(MODEL_DECLARE)
#undef MODEL_DECLARE

/**
 * model_reset() - ->enable(): forget a CPU's history
 * @ms: the per-CPU state to (re)start
 * @id: the model it is from now on
 */
void model_reset(struct model_state *ms, enum model_id id);

/**
 * model_step() - one idle period of model @ms->id
 * @ms: its per-CPU state
 * @in: what ->select() of the period saw and ->reflect() was told before
 * @table: the idle states, with model_table_derive() done
 *
 * Return: the prediction in ns as patch 0004 stores it, IDLESCOPE_UNKNOWN_NS
 * when no prediction was made (also for a table of no or too many states).
 */
__u64 model_step(struct model_state *ms, const struct model_input *in,
		 const struct model_states_table *table);

/**
 * model_sleep_length_ns() - tick_nohz_get_sleep_length() as the record saw it
 * @ms: the model asking; a record without the next timer is noted in
 *	@ms->lacked_inputs
 * @in: the period
 * @delta_tick_ns: set to *delta_next, the time to the tick device's event
 *
 * For a model that asks for the sleep length only on some periods.
 *
 * Return: the sleep length, as the ktime_t the kernel returns.
 */
__s64 model_sleep_length_ns(struct model_state *ms, const struct model_input *in,
			    __s64 *delta_tick_ns);

/* The catalogue, from the registry: names, governors, kernels, inputs. */
extern const char *const model_names[MODEL_NR];
/* Per model, the IDLESCOPE_F_HAS_* bits it needs (see model_inputs()). */
extern const unsigned int model_input_masks[MODEL_NR];

/**
 * model_of_governor() - the model of a governor as it ran on a kernel
 * @governor: enum idlescope_governor
 * @kernel_release: the release the records came from, as uname -r says it
 *	("6.12.118+deb12-amd64"); NULL or "" when unknown
 *
 * A governor whose code changed between kernels has a model per kernel
 * (menu of 6.1 and of 6.12): the one that checks a run is the model of the
 * newest kernel not newer than @kernel_release (a 6.13 tree is checked
 * against 6.12's code), or the oldest when the release is older than every
 * model's, unknown or not a version.
 *
 * Return: that model, or -1 when the governor has none.
 */
int model_of_governor(unsigned int governor, const char *kernel_release);

/**
 * governor_of_model() - the governor a model mirrors
 * @id: a model
 *
 * Return: enum idlescope_governor; IDLESCOPE_GOV_NONE for an invalid id.
 */
unsigned int governor_of_model(enum model_id id);

/**
 * model_kernel() - the kernel release whose governor code a model transcribes
 * @id: a model
 *
 * Return: e.g. "6.1"; "" for an invalid id.
 */
const char *model_kernel(enum model_id id);

/**
 * model_inputs() - what a record must hold for a model to be scored on it
 * @id: a model
 *
 * Return: IDLESCOPE_F_HAS_* bits (replay/inputs.h); 0 for an invalid id.
 */
unsigned int model_inputs(enum model_id id);

/*
 * One kernel constant a model transcribes, as the kernel spells it, for
 * the host test that compares them with the kernel sources (the kernel
 * files cannot include these headers).
 */
struct model_constant {
	const char *file;	/* "menu2010.c", "menu.c", "idlescope.config" */
	const char *name;	/* the #define (or CONFIG_) name there */
	long long value;
};

extern const struct model_constant model_constants[];
extern const unsigned int model_nr_constants;

#endif /* __IDLESCOPE_MODELS_MODELS_H */
