/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idlescope.h - what the BPF side and user space share: the record of one
 * completed idle period and everything that describes it.  This is the one
 * place for the record layout, the record flags, the governors idlescope
 * knows, an idle state's table entry, the per-CPU counters and the timer
 * lateness histogram; the BPF programs, the loader, the replay, the bench
 * tools and the tests all include it.
 */
#ifndef __IDLESCOPE_H
#define __IDLESCOPE_H

#define IDLESCOPE_MAX_CPUS		8
#define IDLESCOPE_WORKLOAD_LEN		16
#define IDLESCOPE_MAX_STATES		10	/* CPUIDLE_STATE_MAX */
#define IDLESCOPE_MENU_INTERVALS	8	/* menu.c: INTERVALS */
#define IDLESCOPE_MENU_BUCKETS		12	/* menu.c: BUCKETS */
#define IDLESCOPE_MENU_FACTOR_UNITY	8192	/* menu.c: RESOLUTION * DECAY */
#define IDLESCOPE_TEO_PULSE		1024	/* teo.c: PULSE */

/*
 * Default size (bytes) of each ring buffer; a power of two, -b overrides it.
 * Seconds of the busiest pattern's records, for a loader that shares the
 * single host thread of the virtual clock (docs/bpf.md).
 */
#define IDLESCOPE_RINGBUF_DEFAULT	(16U << 20)

/* Pinned path of the one-entry map that holds the current workload tag. */
#define IDLESCOPE_PIN_DIR		"/sys/fs/bpf/idlescope"
#define IDLESCOPE_TAG_PIN		IDLESCOPE_PIN_DIR "/workload"

/* latency_req_ns when the PM QoS limit is not known to the BPF side. */
#define IDLESCOPE_LATENCY_REQ_UNKNOWN	(-1LL)

/* predicted_ns when the governor's prediction could not be read. */
#define IDLESCOPE_UNKNOWN_NS		(~0ULL)

/*
 * The governors idlescope knows, in id order: X(ID, name, select), name as
 * in /sys/devices/system/cpu/cpuidle (stringify it with #name), select the
 * function its struct cpuidle_governor's .select points at.  Every list of
 * governors (the enum below, the loader's names, the BPF side's address
 * checks and select probes, the Makefile's default set) is made from this
 * one.  NONE is no governor: no select was seen (no cpuidle driver); the
 * cpuidle governors follow it.  Not every kernel has every governor: those
 * a patch series adds (kernel/patches/VERSION) exist only on kernels of
 * that series, and the BPF side and `make run` leave out those a kernel
 * lacks (docs/howto.md).
 */
#define IDLESCOPE_CPUIDLE_GOVERNORS(X)				\
	X(MENU,		menu,		menu_select)		\
	X(TEO,		teo,		teo_select)		\
	X(LADDER,	ladder,		ladder_select_state)	\
	X(MENU2010,	menu2010,	menu2010_select)	\
	X(MENU2010FIX,	menu2010fix,	menu2010fix_select)	\
	X(MENU2010RPD,	menu2010rpd,	menu2010rpd_select)	\
	X(MENU615,	menu615,	menu615_select)		\
	X(TEO70,	teo70,		teo70_select)		\
	X(MENU2010MF2,	menu2010mf2,	menu2010mf2_select)

#define IDLESCOPE_GOVERNORS(X)					\
	X(NONE,		none,		none)			\
	IDLESCOPE_CPUIDLE_GOVERNORS(X)

#define IDLESCOPE_GOV_ENUM(id, name, select)	IDLESCOPE_GOV_##id,
enum idlescope_governor {
	IDLESCOPE_GOVERNORS(IDLESCOPE_GOV_ENUM)
	IDLESCOPE_NR_GOVERNORS,
};
#undef IDLESCOPE_GOV_ENUM

/* idlescope_record.flags: what the BPF side saw of the period. */
#define IDLESCOPE_F_SELECTED	(1U << 0)	/* a governor select preceded it */
#define IDLESCOPE_F_PREDICTED	(1U << 1)	/* predicted_ns is the governor's */
#define IDLESCOPE_F_MISS_ABOVE	(1U << 2)	/* cpu_idle_miss: state too deep */
#define IDLESCOPE_F_MISS_BELOW	(1U << 3)	/* cpu_idle_miss: state too shallow */
#define IDLESCOPE_F_REFLECTED	(1U << 4)	/* kernel_residency_ns is valid */
#define IDLESCOPE_F_TICK_WAKEUP	(1U << 5)	/* menu, teo70: the tick ended the period */
#define IDLESCOPE_F_POLL_LIMIT	(1U << 6)	/* polling ended on its time limit */
#define IDLESCOPE_F_RESTARTED	(1U << 7)	/* the governor's ->enable() ran before it */
#define IDLESCOPE_F_STOP_TICK	(1U << 8)	/* select asked to stop the tick */
#define IDLESCOPE_F_SELECT_PROBED (1U << 9)	/* the select probe filled chosen_state,
						 * latency_req_ns, exit_latency_ns,
						 * target_residency_ns, STOP_TICK */
#define IDLESCOPE_F_RECONSTRUCTED (1U << 10)	/* predicted_ns rebuilt by the loader
						 * from the governor's data */
#define IDLESCOPE_F_MENU_DATA	(1U << 11)	/* correction_factor, intervals_us valid */
/* Inputs a replayed model needs, set when the BPF side really read them. */
#define IDLESCOPE_F_HAS_NEXT_TIMER (1U << 12)	/* next_timer_ns */
#define IDLESCOPE_F_HAS_IOWAITERS (1U << 13)	/* nr_iowaiters */
#define IDLESCOPE_F_HAS_LOAD	(1U << 14)	/* load (menu2010's loadavg) */
#define IDLESCOPE_F_HAS_TICK	(1U << 15)	/* TICK_WAKEUP is known either way */
#define IDLESCOPE_F_TICK_STOPPED (1U << 16)	/* the tick was stopped when select ran */
/*
 * teo: the time from select to its reflect reached the sleep length
 * (SPAN_FULL), maybe because reflect took the sleep length as that time
 * (SAFETY_NET: the poll time limit, or the tick beyond the sleep length).
 */
#define IDLESCOPE_F_TEO_SPAN_FULL (1U << 17)
#define IDLESCOPE_F_TEO_SAFETY_NET (1U << 18)
#define IDLESCOPE_F_HAS_TICK_STATE (1U << 19)	/* TICK_STOPPED, delta_tick_ns */
#define IDLESCOPE_F_HAS_TEO_SPAN (1U << 20)	/* the previous record's TEO_ flags */
#define IDLESCOPE_F_EXIT_TIMED	(1U << 21)	/* exit_ns was measured */
#define IDLESCOPE_F_SLEEP_WOKE	(1U << 22)	/* a sleep's timer fired in the period:
						 * sleep_late_ns is valid */
#define IDLESCOPE_F_TICK_ENDED	(1U << 23)	/* the tick's hrtimer fired in the period */
#define IDLESCOPE_F_IDLE_CONTINUED (1U << 24)	/* no task ran on the CPU since the
						 * previous period ended */
/*
 * A timer_list timer expired in the period: the tick's hrtimer, when it
 * fired too, fired (also) to run it, so the tick did not end the period
 * alone (a stopped tick is programmed for the next timer_list expiry).
 */
#define IDLESCOPE_F_TIMER_LIST	(1U << 25)
/*
 * What ended the period (wake_source, wake_fn, wake_irq), from the top bit
 * down: the bits from 0 up are the governors' inputs and the exit's timings.
 */
#define IDLESCOPE_F_HAS_WAKE	(1U << 31)	/* wake_source says what ended it */
#define IDLESCOPE_F_WAKE_RESCHED (1U << 30)	/* need_resched at the exit: a task
						 * was woken, the CPU leaves idle */
#define IDLESCOPE_F_WAKE_TICK_TOO (1U << 29)	/* the tick expired too, besides
						 * the hrtimer of wake_fn */

/*
 * What ended an idle period: idlescope_record.wake_source, valid with
 * IDLESCOPE_F_HAS_WAKE.  X(ID, name): the first interrupt handler that ran
 * on the CPU between its cpu_idle entry and exit (the synthetic states
 * halt with interrupts enabled, so the handler runs before the exit;
 * docs/wakeup.md), a later hrtimer of the same interrupt taking the place
 * of the tick (the tick only shares the interrupt); in a state that halts,
 * the interrupts after the next one (the exit's) do not count.  Append
 * only: record files store the ids.
 */
#define IDLESCOPE_WAKE_SOURCES(X)					\
	X(UNKNOWN,	unknown)	/* no handler ran */		\
	X(TICK,		tick)		/* tick_sched_timer expired */	\
	X(HRTIMER,	hrtimer)	/* another hrtimer: wake_fn */	\
	X(TIMER,	timer)		/* timer interrupt, nothing expired */ \
	X(IPI,		ipi)		/* wake_irq: enum idlescope_ipi */ \
	X(IRQ,		irq)		/* a device interrupt: wake_irq */ \
	X(NO_IPI,	polled)		/* a remote wake-up of a polling CPU, no IPI */

#define IDLESCOPE_WAKE_ENUM(id, name)	IDLESCOPE_WAKE_##id,
enum idlescope_wake_source {
	IDLESCOPE_WAKE_SOURCES(IDLESCOPE_WAKE_ENUM)
	IDLESCOPE_NR_WAKE_SOURCES,
};
#undef IDLESCOPE_WAKE_ENUM

/*
 * The x86 IPIs, IPI(ID, name, tracepoint): wake_irq of an IPI wake-up.
 * Each is its irq_vectors tracepoint; a kernel without it loses only that
 * kind (its wake-ups show as unknown).  Append only.  Not X: the
 * Makefile and the tests find the governors as the X( lines.
 */
#define IDLESCOPE_IPIS(IPI)						\
	IPI(RESCHEDULE,	reschedule,	reschedule_entry)		\
	IPI(CALL_FUNCTION, call_function,	call_function_entry)		\
	IPI(CALL_FUNCTION_SINGLE, call_function_single, call_function_single_entry) \
	IPI(IRQ_WORK,	irq_work,	irq_work_entry)			\
	IPI(PLATFORM,	x86_platform,	x86_platform_ipi_entry)

#define IDLESCOPE_IPI_ENUM(id, name, tp)	IDLESCOPE_IPI_##id,
enum idlescope_ipi {
	IDLESCOPE_IPIS(IDLESCOPE_IPI_ENUM)
	IDLESCOPE_NR_IPIS,
};
#undef IDLESCOPE_IPI_ENUM

/* Per-CPU counters the BPF side keeps; records + dropped = periods seen. */
struct idlescope_counters {
	__u64 entries;			/* cpu_idle entries */
	__u64 exits;			/* cpu_idle exits */
	__u64 records;			/* periods sent through a ring buffer */
	__u64 dropped;			/* periods lost: ring buffer full */
	__u64 unpaired;			/* exits without an entry (attach, hotplug) */
	__u64 selects;			/* governor selects the select probes saw */
	__u64 lost_selects;		/* of them, followed by another select, not idle */
	/* idlescope_record_sum() of every record sent, when asked (idlescope_summary.h) */
	__u64 record_sum;
};

/* The workload tag: a NUL-padded name, empty when no workload runs. */
struct idlescope_tag {
	char name[IDLESCOPE_WORKLOAD_LEN];
};

/*
 * One cpuidle state as the governors see it (drv->states[] and the
 * disable attribute): the record file's state table, the cross-check,
 * the ideal-state scoring and the replayed models all use this entry.
 */
struct idlescope_state {
	__u64 target_residency_ns;
	__u64 exit_latency_ns;
	__u32 disabled;
	__u32 polling;			/* CPUIDLE_FLAG_POLLING: the core's POLL */
};

/* One completed idle period on one CPU. */
struct idlescope_record {
	__u64 enter_ns;			/* bpf_ktime_get_ns() at cpu_idle entry */
	__u64 residency_ns;		/* cpu_idle exit minus entry */
	__u64 kernel_residency_ns;	/* dev->last_residency_ns: what governors learn from */
	__u64 predicted_ns;		/* governor's prediction, or UNKNOWN */
	__u64 next_timer_ns;		/* sleep length the governor was given */
	__s64 latency_req_ns;		/* PM QoS limit select used, or UNKNOWN */
	__u32 exit_latency_ns;		/* of the chosen state */
	__u32 target_residency_ns;	/* of the chosen state */
	__u32 cpu;
	__u32 seq;			/* per-CPU period number: a gap means drops */
	__s32 state;			/* state index entered */
	__s32 chosen_state;		/* select's return value, -1 if unknown */
	__u32 bucket;			/* menu family: correction bucket */
	__u32 nr_iowaiters;
	__u32 typical_interval_us;	/* menu family: pattern detector */
	__u32 load;			/* menu2010: loadavg input (x10) */
	__u32 correction_factor;	/* menu: correction_factor[bucket] at select */
	__u32 intervals_us[IDLESCOPE_MENU_INTERVALS];	/* menu: intervals at select */
	__u32 flags;			/* IDLESCOPE_F_* */
	__u16 governor;			/* enum idlescope_governor */
	__u16 lost_selects;		/* selects entering no state since the last period */
	char workload[IDLESCOPE_WORKLOAD_LEN];
	/*
	 * With IDLESCOPE_F_HAS_TICK_STATE: the tick device's next event
	 * less the idle entry time at select, as tick_nohz_get_sleep_length()
	 * returns it in *delta_next, saturated to the s32 range.
	 */
	__s32 delta_tick_ns;
	/* menu: the prediction after its adjustment for a stopped tick, or UNKNOWN */
	__u64 tick_adjusted_ns;
	/*
	 * The idle driver's exit: from the return of its halt to the end of
	 * its exit-latency wait (idlescope_states' idlescope_exit_wait()).
	 */
	__u32 exit_ns;
	/*
	 * How late the latest sleep timer (hrtimer_wakeup) that fired while the
	 * CPU was idle expired, capped at ~0U: the timer that woke it.
	 */
	__u32 sleep_late_ns;
	/* With IDLESCOPE_F_HAS_WAKE: what ended the period. */
	__u64 wake_fn;			/* TICK, HRTIMER: the hrtimer's function */
	__u32 wake_irq;			/* IRQ: its number; IPI: enum idlescope_ipi */
	__u16 wake_source;		/* enum idlescope_wake_source */
	__u16 wake_pad;
};

/*
 * What the loader found the kernel able to do (record file header,
 * report header): a stock distribution kernel has no observation fields
 * and no 2010 governors, and trampolines may be unavailable.
 */
#define IDLESCOPE_CAP_OBSERVATION	(1U << 0)	/* patch 0004's fields */
#define IDLESCOPE_CAP_GOV2010		(1U << 1)	/* menu2010* governors */
#define IDLESCOPE_CAP_SELECT_PROBES	(1U << 2)	/* fentry/fexit on select attached */
#define IDLESCOPE_CAP_MISS_TP		(1U << 3)	/* cpu_idle_miss tracepoint */
#define IDLESCOPE_CAP_LATENESS		(1U << 4)	/* timer lateness measured */
#define IDLESCOPE_CAP_WAKEUP		(1U << 5)	/* wake-up sources recorded */

/*
 * Timer lateness: how late hrtimer_wakeup() timers (the sleeps of user
 * space) expire after their soft expiry time.  A log-linear histogram with
 * IDLESCOPE_LATENESS_SUB sub-buckets per power of two, so percentiles are
 * good to 25%: values 0..3 ns have a slot each, then value v with
 * k = floor(log2(v)) >= 2 goes to slot 4 * (k - 1) + the two bits after
 * its leading one.  The last slot also holds everything larger.
 */
#define IDLESCOPE_LATENESS_SUB		4
#define IDLESCOPE_LATENESS_SLOTS	128	/* up to 2^33 ns: 8.6 s */

struct idlescope_lateness {
	__u64 count;
	__u64 sum_ns;
	__u64 max_ns;
	__u64 hist[IDLESCOPE_LATENESS_SLOTS];
};

/* floor(log2(v)) for v >= 1, without a clz the BPF target may lack. */
static inline unsigned int idlescope_log2(__u64 v)
{
	unsigned int k = 0;

	if (v >> 32) {
		v >>= 32;
		k += 32;
	}
	if (v >> 16) {
		v >>= 16;
		k += 16;
	}
	if (v >> 8) {
		v >>= 8;
		k += 8;
	}
	if (v >> 4) {
		v >>= 4;
		k += 4;
	}
	if (v >> 2) {
		v >>= 2;
		k += 2;
	}
	if (v >> 1)
		k += 1;
	return k;
}

static inline unsigned int idlescope_lateness_slot(__u64 ns)
{
	unsigned int k, slot;

	if (ns < IDLESCOPE_LATENESS_SUB)
		return ns;
	k = idlescope_log2(ns);
	slot = IDLESCOPE_LATENESS_SUB * (k - 1) + ((ns >> (k - 2)) & 3);
	return slot < IDLESCOPE_LATENESS_SLOTS ? slot : IDLESCOPE_LATENESS_SLOTS - 1;
}

/* The smallest value of a slot (its range ends where the next begins). */
static inline __u64 idlescope_lateness_slot_low(unsigned int slot)
{
	unsigned int k;

	if (slot < IDLESCOPE_LATENESS_SUB)
		return slot;
	k = slot / IDLESCOPE_LATENESS_SUB + 1;
	return (__u64)(IDLESCOPE_LATENESS_SUB + slot % IDLESCOPE_LATENESS_SUB) << (k - 2);
}

#endif /* __IDLESCOPE_H */
