// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - the shadow replay: every model of models/registry.h stepped
 * on every CPU from the record stream, restarted where the kernel's
 * governor lost its history (see struct replay_cpu in replay/replay.h).
 */
#include <errno.h>
#include <string.h>
#include "replay/inputs.h"
#include "replay/replay.h"

void replay_reset_cpu(struct replay *rp, unsigned int cpu)
{
	struct replay_cpu *c;
	int id;

	if (cpu >= IDLESCOPE_MAX_CPUS)
		return;
	c = &rp->cpus[cpu];
	memset(c, 0, sizeof(*c));
	for (id = 0; id < MODEL_NR; id++)
		model_reset(&c->models[id], id);
	c->last_governor = IDLESCOPE_GOV_NONE;
}

void replay_init(struct replay *rp, const struct model_states_table *table,
		 const char *kernel_release)
{
	unsigned int cpu, g;

	memset(rp, 0, sizeof(*rp));
	rp->table = *table;
	model_table_derive(&rp->table);
	for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
		rp->running_model[g] = model_of_governor(g, kernel_release);
	for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++)
		replay_reset_cpu(rp, cpu);
}

/* The period before the next one, as far as the models need it. */
static void keep_prev(struct replay_cpu *c, const struct idlescope_record *rec, int model)
{
	c->prev.kernel_residency_ns = rec->kernel_residency_ns;
	c->prev.flags = rec->flags;
	c->prev.state = rec->state;
	c->prev.model = model;
	c->has_prev = true;
}

/* What every model steps on: the record's inputs and the period before. */
static void input_of(struct model_input *in, const struct idlescope_record *rec,
		     const struct replay_cpu *c)
{
	memset(in, 0, sizeof(*in));
	in->next_timer_ns = rec->next_timer_ns;
	in->nr_iowaiters = rec->nr_iowaiters;
	in->load = rec->load;
	in->latency_req_ns = rec->latency_req_ns == IDLESCOPE_LATENCY_REQ_UNKNOWN ?
			     MODEL_LATENCY_REQ_DEFAULT_NS : rec->latency_req_ns;
	in->tick_stopped = rec->flags & IDLESCOPE_F_TICK_STOPPED;
	in->delta_tick_ns = rec->delta_tick_ns;
	in->inputs = inputs_of_record(rec);
	in->prev_residency_ns = c->prev.kernel_residency_ns;
	in->prev_state = c->prev.state;
	in->prev_tick_wakeup = c->prev.flags & IDLESCOPE_F_TICK_WAKEUP;
	in->prev_poll_time_limit = c->prev.flags & IDLESCOPE_F_POLL_LIMIT;
	in->prev_span_full = c->prev.flags & IDLESCOPE_F_TEO_SPAN_FULL;
	in->prev_safety_net = c->prev.flags & IDLESCOPE_F_TEO_SAFETY_NET;
	in->lost_selects = rec->lost_selects;
}

int replay_record(struct replay *rp, const struct idlescope_record *rec,
		  __u64 predicted_ns_out[MODEL_NR])
{
	return replay_record_wanted(rp, rec, REPLAY_ALL_MODELS, predicted_ns_out);
}

int replay_record_wanted(struct replay *rp, const struct idlescope_record *rec,
			 unsigned int wanted, __u64 predicted_ns_out[MODEL_NR])
{
	struct model_input in;
	struct replay_cpu *c;
	bool switched;
	int id, running;

	if (rec->cpu >= IDLESCOPE_MAX_CPUS)
		return -EINVAL;
	c = &rp->cpus[rec->cpu];

	/*
	 * seq counts every completed period, dropped ones included, so
	 * anything but +1 (u32 wrap included) means the kernel's governor
	 * learnt from periods the models never saw: their history no longer
	 * matches, start over as after ->enable().  The first record of a
	 * CPU only sets the baseline.
	 */
	if (c->has_seq && rec->seq != (__u32)(c->last_seq + 1)) {
		replay_reset_cpu(rp, rec->cpu);
		rp->replay_resets++;
	}
	c->has_seq = true;
	c->last_seq = rec->seq;
	running = replay_running_model(rp, rec->governor);

	if (!(rec->flags & IDLESCOPE_F_SELECTED)) {
		/*
		 * No ->select() ran, so nothing was predicted; if the core
		 * still reflected the period, the next update learns from it.
		 */
		for (id = 0; id < MODEL_NR; id++)
			predicted_ns_out[id] = IDLESCOPE_UNKNOWN_NS;
		if (rec->flags & IDLESCOPE_F_REFLECTED)
			keep_prev(c, rec, running);
		return 0;
	}

	/*
	 * Switching governors runs the new one's ->enable(), which resets
	 * its data, needs_update included: the period before the switch was
	 * reflected to the old governor, not to it.  The BPF side also
	 * flags an ->enable() it saw no other sign of (a switch by way of a
	 * governor with no period on this CPU, a CPU coming back online).
	 */
	switched = (c->last_governor != IDLESCOPE_GOV_NONE &&
		    c->last_governor != rec->governor) ||
		   (rec->flags & IDLESCOPE_F_RESTARTED);
	if (running >= 0 && switched) {
		model_reset(&c->models[running], running);
		c->in_step[running] = true;
	}

	input_of(&in, rec, c);

	in.prev_in_core = c->has_prev && (c->prev.flags & IDLESCOPE_F_REFLECTED);
	for (id = 0; id < MODEL_NR; id++) {
		in.has_prev = in.prev_in_core && !(id == running && switched);
		in.prev_chosen_by_model = (c->prev.flags & IDLESCOPE_F_SELECTED) &&
					  c->prev.model == id;
		in.prediction_unused = !(wanted & (1U << id));
		predicted_ns_out[id] = model_step(&c->models[id], &in, &rp->table);
	}

	keep_prev(c, rec, running);
	c->last_governor = rec->governor;
	return 0;
}

int replay_running_model(const struct replay *rp, unsigned int governor)
{
	return governor < IDLESCOPE_NR_GOVERNORS ? rp->running_model[governor] : -1;
}

bool replay_in_step(const struct replay *rp, unsigned int cpu, enum model_id id)
{
	return cpu < IDLESCOPE_MAX_CPUS && id < MODEL_NR && rp->cpus[cpu].in_step[id];
}
