/* SPDX-License-Identifier: GPL-2.0 */
/*
 * period.h - one idle period as every score judges it.
 *
 * A period is judged by when its wake-up came: its actual duration is the
 * time from the cpu_idle entry to the moment the event that ended it
 * arrived, never to the cpu_idle exit.  What the idle driver spends after
 * the wake-up, the entered state's exit latency, is the cost of the choice,
 * not part of the period it is judged on: counted in, a state too deep
 * would lengthen its own period and so partly make itself right (C8's
 * 200 us exit turns a 600 us wake-up into an 800 us "period", which C8's
 * target residency then fits).  The kernel's menu does the same before it
 * learns: it takes the exit latency off the measured idle time.
 *
 * The wake-up is where idlescope_states' exit wait starts, as its halt
 * returns (kernel/modules/idlescope_states); the BPF side times that wait
 * when asked to (IDLESCOPE_F_EXIT_TIMED, exit_ns), so the actual is the
 * residency less the exit spent.  Untimed, with the exit cost on, a halting
 * state spent its declared exit latency (the wait ends exactly that long
 * after the wake-up; an interrupt handled meanwhile that outlasts it is
 * the one thing only the timing sees), unless it never halted (a wake-up
 * before the halt, a residency no longer than the latency).  With the exit
 * cost off or unknown an untimed record keeps its residency as the actual.
 *
 * What a record alone gives is worked out once, in period_of_record(), and
 * handed up with the record to every score: the aggregate, the shadow
 * models' scores, the wake-up classes and the energy (one pass per record).
 * A logical period (stats/logical.h) is several raw periods merged; it
 * says how long each state held it, so that it is scored on what it spent.
 */
#ifndef __IDLESCOPE_STATS_PERIOD_H
#define __IDLESCOPE_STATS_PERIOD_H

#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "models/registry.h"

/* The models scored beside the running governor: one verdict per registry row. */
#define PERIOD_MAX_SHADOWS	MODEL_REGISTRY_COUNT

/* One shadow model's verdict on one period. */
struct agg_shadow_period {
	bool stepped;		/* the model ran on the period (it had a select) */
	__u64 predicted_ns;	/* IDLESCOPE_UNKNOWN_NS: not stepped, or none made */
	int chosen_state;	/* -1: the model chose none */
	bool has_inputs;	/* the record holds every input the model used */
	int agreement;		/* the prediction against the kernel's: -1, 0, 1 */
	int state_agreement;	/* the chosen state against the kernel's: -1, 0, 1 */
};

/*
 * One period, raw or logical.  @state_ns says how long before the wake-up
 * each state held it: a raw period's is its entered state's @woke_ns; a
 * logical period's adds up its raw periods'.  A state index outside
 * 0..IDLESCOPE_MAX_STATES - 1 holds no time (the record's state is checked
 * against the state table where it is scored).
 */
struct period {
	const struct idlescope_record *rec;	/* a logical period's first record */
	__u64 woke_ns;			/* entry to wake-up: the actual duration */
	__u64 exit_ns;			/* spent after the wake-up; 0: not timed */
	unsigned int inputs;		/* IDLESCOPE_F_HAS_* (replay/inputs.h) */
	unsigned int nr_raw;		/* raw periods it is made of */
	__u64 state_ns[IDLESCOPE_MAX_STATES];
	/*
	 * The models' verdicts, PERIOD_MAX_SHADOWS of them, or NULL; for a
	 * logical period, their first raw period's (its prediction is made
	 * at its entry), with @shadow_state_ns the time each model's chosen
	 * states held it (NULL: each chosen state held all of @woke_ns).
	 */
	const struct agg_shadow_period *shadows;
	const __u64 (*shadow_state_ns)[IDLESCOPE_MAX_STATES];
};

/* The exit each state spends after a wake-up that the BPF side did not time. */
struct period_exits {
	__u64 untimed_ns[IDLESCOPE_MAX_STATES];	/* 0: none */
};

/**
 * period_exits_of() - what an untimed exit spent, per state
 * @px: filled in
 * @states: the state table the records were taken with
 * @nr_states: how many
 * @exit_cost_on: the idle states spent their declared exit latency
 *	(recfile_header.exit_cost on); false: off or unknown, nothing assumed
 */
void period_exits_of(struct period_exits *px, const struct idlescope_state *states,
		     int nr_states, bool exit_cost_on);

/**
 * period_woke_ns() - how long a record's period lasted until its wake-up
 * @rec: the record
 * @px: the untimed exits (period_exits_of()), or NULL for none
 *
 * Return: residency_ns less the exit the idle driver spent after the
 * wake-up: the one the BPF side timed (IDLESCOPE_F_EXIT_TIMED) when it
 * fits in the residency, else the state's untimed exit when the residency
 * is longer; else residency_ns.
 */
__u64 period_woke_ns(const struct idlescope_record *rec, const struct period_exits *px);

/**
 * period_of_record() - the raw period of one record
 * @p: filled in; its models' verdicts NULL
 * @rec: the record, which @p points to from now on
 * @inputs: what the record holds (inputs_of_record())
 * @px: the untimed exits, or NULL (period_woke_ns())
 */
void period_of_record(struct period *p, const struct idlescope_record *rec,
		      unsigned int inputs, const struct period_exits *px);

/* How a period's time splits against its ideal state: shares of 1. */
struct period_shares {
	double hit;		/* in the ideal state */
	double deeper;		/* in states deeper than it */
	double shallower;	/* in states shallower than it */
	__u64 shallow_ns;	/* the time shallower than it */
};

/**
 * period_shares() - a period's time against its ideal state
 * @state_ns: the time each state held it (struct period's)
 * @nr_states: the states that count, 0..@nr_states - 1
 * @ideal: the ideal state
 * @fallback: the state that held it when no state held any time (a
 *	period of 0 ns): that one takes it all
 * @out: the shares
 *
 * Return: false when no valid state held it (nothing to score).
 */
bool period_shares(const __u64 *state_ns, int nr_states, int ideal, int fallback,
		   struct period_shares *out);

/**
 * period_shares_one() - period_shares() of a period one state held
 * @nr_states: the states that count, 0..@nr_states - 1
 * @ideal: the ideal state
 * @state: the state that held all of it (or, for 0 ns, the fallback)
 * @ns: how long
 * @out: the shares
 *
 * The same as period_shares() on an array with @ns at @state and zeros
 * elsewhere, without the array: a raw period, and a model's choice on one.
 *
 * Return: false when @state is not a valid state (nothing to score).
 */
static inline bool period_shares_one(int nr_states, int ideal, int state, __u64 ns,
				     struct period_shares *out)
{
	if (state < 0 || state >= nr_states || state >= IDLESCOPE_MAX_STATES)
		return false;
	out->hit = state == ideal;
	out->deeper = state > ideal;
	out->shallower = state < ideal;
	out->shallow_ns = state < ideal ? ns : 0;
	return true;
}

#endif /* __IDLESCOPE_STATS_PERIOD_H */
