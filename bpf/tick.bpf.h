/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tick.bpf.h - the tick as a governor's select found it: whether it was
 * already stopped (tick_nohz_tick_stopped()), and how far away the tick
 * device's next event was (the *delta_next of tick_nohz_get_sleep_length()).
 * menu and teo decide on both: a stopped tick makes them avoid shallow
 * states, a running one caps the state at its next event.  Read by the
 * select probes, where select has just run with interrupts off: neither
 * has changed since select read them.  Included by idlescope.bpf.c.
 */
#ifndef __TICK_BPF_H
#define __TICK_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "idlescope.h"

/* kernel/time/tick-sched.h of 6.12: tick_sched.flags bit of a stopped tick */
#define TS_FLAG_STOPPED		(1UL << 1)

/*
 * struct tick_sched by name: 6.1 has a tick_stopped bit field, 6.12 a
 * flags word; both have idle_entrytime, the "now" of the sleep length.
 */
struct tick_sched___idlescope {
	unsigned int tick_stopped:1;
	unsigned long flags;
	ktime_t idle_entrytime;
} __attribute__((preserve_access_index));

extern const struct tick_sched___idlescope tick_cpu_sched __ksym __weak;
extern const struct tick_device tick_cpu_device __ksym __weak;

/* The s32 the record keeps: any target residency compares the same. */
static __always_inline __s32 saturate_s32(__s64 v)
{
	if (v > 0x7fffffffLL)
		return 0x7fffffff;
	if (v < -0x80000000LL)
		return -0x80000000;
	return v;
}

/**
 * read_tick() - the tick at select, for the record of the period it chose
 * @delta_tick_ns: set to the tick device's next event less the idle entry
 *	time, saturated to the s32 range
 *
 * Return: IDLESCOPE_F_HAS_TICK_STATE, with IDLESCOPE_F_TICK_STOPPED when it
 * was stopped; 0 on a kernel without the variables or fields (then
 * *delta_tick_ns is left alone).
 */
static __always_inline __u32 read_tick(__s32 *delta_tick_ns)
{
	const struct tick_sched___idlescope *ts;
	const struct clock_event_device *evt;
	const struct tick_device *td;
	bool stopped;

	if (!&tick_cpu_sched || !&tick_cpu_device)
		return 0;
	ts = bpf_this_cpu_ptr(&tick_cpu_sched);
	td = bpf_this_cpu_ptr(&tick_cpu_device);
	evt = td->evtdev;
	if (!evt)
		return 0;
	if (bpf_core_field_exists(ts->tick_stopped))
		stopped = BPF_CORE_READ_BITFIELD(ts, tick_stopped);
	else if (bpf_core_field_exists(ts->flags))
		stopped = ts->flags & TS_FLAG_STOPPED;
	else
		return 0;
	*delta_tick_ns = saturate_s32(evt->next_event - ts->idle_entrytime);
	return IDLESCOPE_F_HAS_TICK_STATE | (stopped ? IDLESCOPE_F_TICK_STOPPED : 0);
}

#endif /* __TICK_BPF_H */
