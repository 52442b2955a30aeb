/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idlescope.h - what the BPF side and user space share: the record of one
 * completed idle period and the constants that describe it.  This is the one
 * place the record layout is defined; the record file format (loader) and the
 * ring buffer carry exactly this struct.
 */
#ifndef __IDLESCOPE_H
#define __IDLESCOPE_H

#define IDLESCOPE_MAX_CPUS		8
#define IDLESCOPE_WORKLOAD_LEN		16
#define IDLESCOPE_MAX_STATES		10	/* CPUIDLE_STATE_MAX */

/* Default ring buffer size (bytes); a power of two, -b overrides it. */
#define IDLESCOPE_RINGBUF_DEFAULT	(4U << 20)

/* Pinned path of the one-entry map that holds the current workload tag. */
#define IDLESCOPE_PIN_DIR		"/sys/fs/bpf/idlescope"
#define IDLESCOPE_TAG_PIN		IDLESCOPE_PIN_DIR "/workload"

/* latency_req_ns when the PM QoS limit is not known to the BPF side. */
#define IDLESCOPE_LATENCY_REQ_UNKNOWN	(-1LL)

/* predicted_ns when the governor's prediction could not be read. */
#define IDLESCOPE_UNKNOWN_NS		(~0ULL)

/* Which governor's select chose the state of a period. */
enum idlescope_governor {
	IDLESCOPE_GOV_NONE = 0,		/* no select seen: no cpuidle driver */
	IDLESCOPE_GOV_MENU,
	IDLESCOPE_GOV_TEO,
	IDLESCOPE_GOV_LADDER,
	IDLESCOPE_GOV_MENU2010,
	IDLESCOPE_GOV_MENU2010FIX,
	IDLESCOPE_GOV_MENU2010RPD,
	IDLESCOPE_NR_GOVERNORS,
};

/* idlescope_record.flags */
#define IDLESCOPE_F_SELECTED	(1U << 0)	/* a governor select preceded it */
#define IDLESCOPE_F_PREDICTED	(1U << 1)	/* predicted_ns is the governor's */
#define IDLESCOPE_F_MISS_ABOVE	(1U << 2)	/* cpu_idle_miss: state too deep */
#define IDLESCOPE_F_MISS_BELOW	(1U << 3)	/* cpu_idle_miss: state too shallow */
#define IDLESCOPE_F_REFLECTED	(1U << 4)	/* kernel_residency_ns is valid */
#define IDLESCOPE_F_TICK_WAKEUP	(1U << 5)	/* menu: the tick ended the period */
#define IDLESCOPE_F_POLL_LIMIT	(1U << 6)	/* polling ended on its time limit */
#define IDLESCOPE_F_RESTARTED	(1U << 7)	/* the governor's ->enable() ran before it */

/* Per-CPU counters the BPF side keeps; records + dropped = periods seen. */
struct idlescope_counters {
	__u64 entries;			/* cpu_idle entries */
	__u64 exits;			/* cpu_idle exits */
	__u64 records;			/* periods sent through the ring buffer */
	__u64 dropped;			/* periods lost: ring buffer full */
	__u64 unpaired;			/* exits without an entry (attach, hotplug) */
};

/* The workload tag: a NUL-padded name, empty when no workload runs. */
struct idlescope_tag {
	char name[IDLESCOPE_WORKLOAD_LEN];
};

/* One completed idle period on one CPU. */
struct idlescope_record {
	__u64 enter_ns;			/* bpf_ktime_get_ns() at cpu_idle entry */
	__u64 residency_ns;		/* cpu_idle exit minus entry */
	__u64 kernel_residency_ns;	/* dev->last_residency_ns: what governors learn from */
	__u64 predicted_ns;		/* governor's prediction, or UNKNOWN */
	__u64 next_timer_ns;		/* sleep length the governor was given */
	__s64 latency_req_ns;		/* PM QoS latency limit at select */
	__u32 exit_latency_ns;		/* of the state entered */
	__u32 target_residency_ns;	/* of the state entered */
	__u32 cpu;
	__u32 seq;			/* per-CPU period number: a gap means drops */
	__s32 state;			/* state index entered */
	__s32 chosen_state;		/* select's return value, -1 if none */
	__u32 bucket;			/* menu family: correction bucket */
	__u32 nr_iowaiters;
	__u32 typical_interval_us;	/* menu family: pattern detector */
	__u32 load;			/* menu2010: loadavg input (x10) */
	__u16 governor;			/* enum idlescope_governor */
	__u16 flags;			/* IDLESCOPE_F_* */
	__u16 lost_selects;		/* menu family: selects entering no state */
	__u16 pad;
	char workload[IDLESCOPE_WORKLOAD_LEN];
};

#endif /* __IDLESCOPE_H */
