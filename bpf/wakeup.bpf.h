/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakeup.bpf.h - what ended each idle period: the tick, another hrtimer
 * (which function), an IPI (which kind), a device interrupt (which IRQ), a
 * remote wake-up that needed no IPI, or nothing seen.
 *
 * Where the handlers run decides what to watch.  The synthetic states
 * (idlescope_states) halt with interrupts enabled (sti; hlt), and so does
 * the polling state: the interrupt that ends the halt is handled inside the
 * state's ->enter(), before cpuidle_enter_state() fires cpu_idle's exit
 * (docs/wakeup.md has the guest trace that shows it).  So the first
 * handler that runs on the CPU between its cpu_idle entry and exit is what
 * ended the period: irq_handler_entry, the timer interrupt (local_timer_entry,
 * then hrtimer_expire_entry for each timer it expires) and the IPI
 * vectors' tracepoints.  Softirqs run at the exit of that interrupt, never
 * first: they are not watched.  Two refinements: in the timer interrupt an
 * hrtimer other than the tick replaces the tick (they only shared the
 * interrupt, IDLESCOPE_F_WAKE_TICK_TOO says so), and in the polling state,
 * where an interrupt that wakes nobody does not end the period, the same
 * rule makes a later timer win over the tick.
 *
 * A state that halts is ended by its first interrupt, but idlescope_states
 * spends the exit latency after it halted again, handling the interrupts
 * that come meanwhile, its own exit timer's among them: in such a state
 * the next interrupt that enters settles the period, and nothing after it
 * counts (wake_watching()), unless the first one was a timer interrupt that
 * expired nothing, which the next timer interrupt explains.  The exit
 * timer's expiry never counts.
 *
 * A CPU that polls (the polling state, or the idle loop before the halt
 * clears TIF_POLLING_NRFLAG) is woken by setting need_resched, without an
 * IPI: sched_wake_idle_without_ipi fires on the waker's CPU, which notes the
 * time in the target's state; a period that saw no handler and ended after
 * such a wake-up since its CPU's last exit was ended by it.
 *
 * Included by idlescope.bpf.c, which calls wake_begin() at each cpu_idle
 * entry and wake_end() at each exit; the tracepoints are here.
 */
#ifndef __WAKEUP_BPF_H
#define __WAKEUP_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "idlescope.h"

/* x86's TIF_NEED_RESCHED: a #define, absent from BTF. */
#define WAKE_TIF_NEED_RESCHED	3

/* Set by the loader before load: record wake-up sources at all. */
const volatile bool observe_wakeups = true;

/* One CPU's watch over its current idle period. */
struct wake_state {
	__u64 fn;			/* the source's hrtimer function */
	__u64 last_exit_ns;		/* this CPU's previous cpu_idle exit */
	__u64 no_ipi_ns;		/* last wake-up without IPI, written by the waker */
	__u32 irq;
	__u16 source;			/* enum idlescope_wake_source */
	bool in_idle;
	bool tick_too;
	bool polling;			/* the entered state polls */
	bool settled;			/* a later interrupt came: nothing counts */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wake_state);
} wake_states SEC(".maps");

/* The tick's hrtimer function: tick_sched_timer up to 6.9, tick_nohz_handler since. */
extern const void tick_sched_timer __ksym __weak;
extern const void tick_nohz_handler __ksym __weak;
/* idlescope_states' exit timer, when the module was loaded before us. */
extern const void idlescope_exit_timer __ksym __weak;

static __always_inline bool is_tick_fn(const void *fn)
{
	return fn && ((&tick_sched_timer && fn == &tick_sched_timer) ||
		      (&tick_nohz_handler && fn == &tick_nohz_handler));
}

static __always_inline struct wake_state *this_wake_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&wake_states, &zero);
}

/* At the cpu_idle entry: a new period, nothing has ended it yet. */
static __always_inline void wake_begin(bool polling)
{
	struct wake_state *ws = this_wake_state();

	if (!ws)
		return;
	ws->source = IDLESCOPE_WAKE_UNKNOWN;
	ws->fn = 0;
	ws->irq = 0;
	ws->tick_too = false;
	ws->polling = polling;
	ws->settled = false;
	ws->in_idle = true;
}

/* Whether a handler running now on this CPU is inside its idle period's watch. */
static __always_inline bool wake_watching(void)
{
	struct wake_state *ws = this_wake_state();

	return ws && ws->in_idle && !ws->settled;
}

static __always_inline bool need_resched_now(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return task->thread_info.flags & (1UL << WAKE_TIF_NEED_RESCHED);
}

/* At the cpu_idle exit, @now_ns: what ended the period, into @rec. */
static __always_inline void wake_end(struct idlescope_record *rec, __u64 now_ns)
{
	struct wake_state *ws = this_wake_state();

	if (!ws || !observe_wakeups)
		return;
	if (ws->source == IDLESCOPE_WAKE_UNKNOWN && ws->no_ipi_ns > ws->last_exit_ns)
		ws->source = IDLESCOPE_WAKE_NO_IPI;
	ws->in_idle = false;
	ws->last_exit_ns = now_ns;
	rec->wake_source = ws->source;
	rec->wake_fn = ws->fn;
	rec->wake_irq = ws->irq;
	rec->flags |= IDLESCOPE_F_HAS_WAKE;
	if (ws->tick_too)
		rec->flags |= IDLESCOPE_F_WAKE_TICK_TOO;
	if (need_resched_now())
		rec->flags |= IDLESCOPE_F_WAKE_RESCHED;
}

/*
 * A handler ran on this CPU: the first of the period ends it, except that
 * an expired hrtimer says which timer the timer interrupt was for, and
 * one that is not the tick replaces the tick.
 */
static __always_inline void note_wake(__u16 source, __u64 fn, __u32 irq)
{
	struct wake_state *ws = this_wake_state();

	if (!ws || !ws->in_idle || ws->settled)
		return;
	/* Another interrupt entering a halting state's period: settled. */
	if (!ws->polling && ws->source != IDLESCOPE_WAKE_UNKNOWN &&
	    ws->source != IDLESCOPE_WAKE_TIMER &&
	    (source == IDLESCOPE_WAKE_TIMER || source == IDLESCOPE_WAKE_IRQ ||
	     source == IDLESCOPE_WAKE_IPI)) {
		ws->settled = true;
		return;
	}
	if (ws->source == IDLESCOPE_WAKE_TICK && source == IDLESCOPE_WAKE_TICK)
		return;
	if (ws->source == IDLESCOPE_WAKE_TICK && source == IDLESCOPE_WAKE_HRTIMER) {
		ws->tick_too = true;
	} else if (ws->source == IDLESCOPE_WAKE_HRTIMER && source == IDLESCOPE_WAKE_TICK) {
		ws->tick_too = true;
		return;
	} else if (ws->source != IDLESCOPE_WAKE_UNKNOWN &&
		   !(ws->source == IDLESCOPE_WAKE_TIMER &&
		     (source == IDLESCOPE_WAKE_TICK || source == IDLESCOPE_WAKE_HRTIMER))) {
		return;
	}
	ws->source = source;
	ws->fn = fn;
	ws->irq = irq;
}

/* From the lateness program on hrtimer_expire_entry (idlescope.bpf.c). */
static __always_inline void note_hrtimer_wake(const void *fn)
{
	if (!observe_wakeups || (&idlescope_exit_timer && fn == &idlescope_exit_timer))
		return;
	if (is_tick_fn(fn))
		note_wake(IDLESCOPE_WAKE_TICK, (__u64)fn, 0);
	else
		note_wake(IDLESCOPE_WAKE_HRTIMER, (__u64)fn, 0);
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(irq_handler_entry, int irq, struct irqaction *action)
{
	if (observe_wakeups)
		note_wake(IDLESCOPE_WAKE_IRQ, 0, irq);
	return 0;
}

SEC("tp_btf/local_timer_entry")
int BPF_PROG(local_timer_entry, int vector)
{
	if (observe_wakeups)
		note_wake(IDLESCOPE_WAKE_TIMER, 0, 0);
	return 0;
}

/* One program per IPI vector's tracepoint (IDLESCOPE_IPIS). */
#define IPI_PROBE(id, name, tp)						\
SEC("tp_btf/" #tp)							\
int BPF_PROG(name##_ipi, int vector)					\
{									\
	if (observe_wakeups)						\
		note_wake(IDLESCOPE_WAKE_IPI, 0, IDLESCOPE_IPI_##id);	\
	return 0;							\
}
IDLESCOPE_IPIS(IPI_PROBE)
#undef IPI_PROBE

/* On the waker's CPU: @cpu polled, so need_resched alone woke it. */
SEC("tp_btf/sched_wake_idle_without_ipi")
int BPF_PROG(wake_idle_without_ipi, int cpu)
{
	struct wake_state *ws;
	__u32 zero = 0;

	if (!observe_wakeups)
		return 0;
	ws = bpf_map_lookup_percpu_elem(&wake_states, &zero, cpu);
	if (ws)
		ws->no_ipi_ns = bpf_ktime_get_ns();
	return 0;
}

#endif /* __WAKEUP_BPF_H */
