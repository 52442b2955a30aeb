/* SPDX-License-Identifier: GPL-2.0 */
/*
 * select.bpf.h - the select probes: fexit on each governor's select, on
 * cpuidle_governor_latency_req() that every select calls first, and on
 * teo's and teo70's reflect.  They keep what only select knows in the
 * CPU's struct selection (cpu_state.bpf.h), for the cpu_idle entry that
 * follows.  The loader attaches them where the kernel has BPF trampolines
 * and leaves them off otherwise.  Included by idlescope.bpf.c.
 */
#ifndef __SELECT_BPF_H
#define __SELECT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "idlescope.h"
#include "governors.bpf.h"
#include "tick.bpf.h"
#include "cpu_state.bpf.h"

/* Called by every governor's select on its own CPU, before select returns. */
SEC("fexit/cpuidle_governor_latency_req")
int BPF_PROG(latency_req_exit, unsigned int cpu, s64 ret)
{
	struct cpu_state *cs = this_cpu_state();

	if (cs) {
		cs->latency_req_ns = ret;
		cs->has_latency_req = true;
	}
	return 0;
}

/*
 * select's verdict, kept for the cpu_idle entry.  A select whose state was
 * never entered (a wake-up came first) is found here as the second select
 * before an entry.
 */
static __always_inline int note_select(struct cpuidle_driver *drv,
				       struct cpuidle_device *dev, bool *stop_tick,
				       int chosen_state, __u16 governor)
{
	struct cpu_state *cs = this_cpu_state();
	struct idlescope_counters *cnt = this_cpu_counters();
	__u32 idx = chosen_state;
	struct selection *sel;
	bool stop = false;
	__u32 i;

	if (!cs || !cnt)
		return 0;
	sel = &cs->sel;
	cnt->selects++;
	if (sel->nr_selects)
		cnt->lost_selects++;
	else
		sel->update_residency_ns = dev->last_residency_ns;
	sel->nr_selects++;
	sel->chosen_state = chosen_state;
	sel->governor = governor;
	sel->last_residency_ns = dev->last_residency_ns;
	sel->poll_time_limit = BPF_CORE_READ_BITFIELD(dev, poll_time_limit);
	sel->flags = IDLESCOPE_F_SELECT_PROBED;
	sel->latency_req_ns = cs->has_latency_req ? cs->latency_req_ns :
			      IDLESCOPE_LATENCY_REQ_UNKNOWN;
	cs->has_latency_req = false;
	bpf_probe_read_kernel(&stop, sizeof(stop), stop_tick);
	if (stop)
		sel->flags |= IDLESCOPE_F_STOP_TICK;
	sel->delta_tick_ns = 0;
	sel->flags |= read_tick(&sel->delta_tick_ns);
	sel->exit_latency_ns = 0;
	sel->target_residency_ns = 0;
	/*
	 * drv and dev are BTF pointers here: plain loads, but only at a
	 * constant offset, hence one unrolled test per state.
	 */
#pragma unroll
	for (i = 0; i < IDLESCOPE_MAX_STATES; i++) {
		if (i == idx) {
			sel->exit_latency_ns = drv->states[i].exit_latency_ns;
			sel->target_residency_ns = drv->states[i].target_residency_ns;
		}
	}
	return 0;
}

/*
 * teo's reflect has just set its time span, local_clock() from select to
 * now (or, by a safety net, the sleep length in its place), which the next
 * select's update compares with the sleep length.  No record has that
 * clock: keep the outcome of the comparison on the period just reflected.
 */
SEC("fexit/teo_reflect")
int BPF_PROG(teo_reflect_exit, struct cpuidle_device *dev, int state)
{
	struct cpu_state *cs = this_cpu_state();

	if (!cs || !cs->has_pending)
		return 0;
	read_teo_span(pending_rec(cs));
	cs->teo_reflect_read = true;
	return 0;
}

/* teo70's reflect: the tick and the polling timeout its next update reads. */
SEC("fexit/teo70_reflect")
int BPF_PROG(teo70_reflect_exit, struct cpuidle_device *dev, int state)
{
	struct cpu_state *cs = this_cpu_state();

	if (!cs || !cs->has_pending)
		return 0;
	read_teo70_reflect(pending_rec(cs), BPF_CORE_READ_BITFIELD(dev, poll_time_limit));
	cs->teo_reflect_read = true;
	return 0;
}

/*
 * One fexit program per governor's select (all share one signature); the
 * loader skips those whose function this kernel lacks.
 */
#define SELECT_PROBE(func, governor)					\
SEC("fexit/" #func)							\
int BPF_PROG(func##_exit, struct cpuidle_driver *drv,			\
	     struct cpuidle_device *dev, bool *stop_tick, int ret)	\
{									\
	return note_select(drv, dev, stop_tick, ret, governor);		\
}

#define GOVERNOR_SELECT_PROBE(id, name, select)	SELECT_PROBE(select, IDLESCOPE_GOV_##id)
IDLESCOPE_CPUIDLE_GOVERNORS(GOVERNOR_SELECT_PROBE)
#undef GOVERNOR_SELECT_PROBE

#endif /* __SELECT_BPF_H */
