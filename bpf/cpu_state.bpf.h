/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu_state.bpf.h - where each CPU is in its idle period, as the BPF side
 * keeps it between programs: the period in progress and the completed one
 * waiting for its misses, what the last select decided, and the CPU's
 * counters.  Included by idlescope.bpf.c and select.bpf.h.
 */
#ifndef __CPU_STATE_BPF_H
#define __CPU_STATE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "idlescope.h"
#include "summary.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idlescope_counters);
} counters SEC(".maps");

/*
 * What the last select on a CPU decided, as the fexit probes saw it, kept
 * for the cpu_idle entry that follows it (if one does).
 */
struct selection {
	__s64 latency_req_ns;		/* the PM QoS limit select computed */
	__u32 exit_latency_ns;		/* of the chosen state */
	__u32 target_residency_ns;	/* of the chosen state */
	__s32 chosen_state;		/* select's return value */
	/* IDLESCOPE_F_SELECT_PROBED, _STOP_TICK, the tick's (read_tick()) */
	__u32 flags;
	__s32 delta_tick_ns;		/* the tick's next event (read_tick()) */
	__u32 nr_selects;		/* probed selects since the last idle entry */
	/* dev->last_residency_ns at the first of them: what its update read */
	__u64 update_residency_ns;
	/*
	 * At the last of them: the device as select left it, unchanged until
	 * the idle entry that follows (if one does), and the governor whose
	 * select it was.  The entry takes them from here rather than read
	 * the device and the current governor again through probe reads.
	 */
	__u64 last_residency_ns;
	bool poll_time_limit;
	__u16 governor;			/* enum idlescope_governor */
};

/* Where one CPU is in its idle period. */
struct cpu_state {
	/*
	 * recs[cur] is the period in progress, recs[cur ^ 1] the completed
	 * one waiting for misses: the exit flips cur instead of copying.
	 */
	struct idlescope_record recs[2];
	__u32 cur;
	struct selection sel;			/* for the next idle entry */
	__s64 latency_req_ns;			/* cpuidle_governor_latency_req() */
	bool has_latency_req;			/* ... ran since the last select */
	__u32 seq;				/* periods completed on this CPU */
	__u32 nr_selects;			/* the governor's count at the pending entry */
	__u64 exit_start_ns;			/* the idle driver's exit began, or 0 */
	__u64 switches_at_exit;			/* rq->nr_switches at the last exit */
	bool teo_reflect_read;			/* teo's or teo70's reflect probe ran
						 * since the last entry */
	bool in_idle;
	bool has_pending;
	struct summary_cache summary;		/* the slot of the last period's tag */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

static __always_inline struct cpu_state *this_cpu_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_states, &zero);
}

static __always_inline struct idlescope_record *current_rec(struct cpu_state *cs)
{
	return &cs->recs[cs->cur & 1];
}

/* Valid while cs->has_pending. */
static __always_inline struct idlescope_record *pending_rec(struct cpu_state *cs)
{
	return &cs->recs[(cs->cur & 1) ^ 1];
}

static __always_inline struct idlescope_counters *this_cpu_counters(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

#endif /* __CPU_STATE_BPF_H */
