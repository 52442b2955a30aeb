// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope.bpf.c - watch cpuidle governors from the outside.
 *
 * An idle period on a CPU goes: the current governor's select picks a state
 * (and, for the menu family, predicts how long the CPU will sleep, leaving
 * the prediction and its inputs in its per-CPU data), cpu_idle fires with
 * the state index, the CPU sleeps, cpu_idle fires with PWR_EVENT_EXIT, and
 * cpu_idle_miss may fire when the state was too deep or too shallow for the
 * sleep that happened.
 *
 * So the cpu_idle entry reads what select just decided: which governor is
 * current, and from its per-CPU data the prediction and the inputs it used,
 * the residency its update learnt from and its count of selects (see
 * note_selects()); from the CPU's cpuidle device the rest of what the
 * governor learnt about the previous period (the poll time limit).  The exit
 * times the period and turns it into a record; cpu_idle_miss marks it.
 * Since the miss comes after the exit, a record is sent through the ring
 * buffer when the next period on that CPU begins.
 *
 * Only tracepoints: no trampoline and no code patching in the idle path.
 * fexit programs on the governors' select functions (and on
 * tick_nohz_get_sleep_length, cpuidle_reflect, ...) hung the 6.1 guest
 * under TCG within 1 to 13 attach/detach cycles once a cpuidle driver made
 * the governors run; tracepoints survived every cycle.  Reading the same
 * per-CPU data at the next tracepoint sees exactly what select stored.
 *
 * The governor data is read through weak ksyms with CO-RE guards, so a
 * kernel without the observation patch (or without the 2010 governors)
 * still loads this object, with predictions marked unknown.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "idlescope.h"

#define PWR_EVENT_EXIT	((unsigned int)-1)
/* More selects than this between two idle entries: a counter that restarted. */
#define MAX_LOST_SELECTS	0xffff

/* Set by the loader before load: read the governors' predictions at all. */
const volatile bool observe_predictions = true;
/*
 * Wake the loader only when this much data waits.  Waking it per record
 * would make every idle period end in another wake-up of the loader's CPU:
 * the observer would create the idle periods it observes.  The loader polls
 * with a timeout, so nothing waits long below the threshold.
 */
const volatile __u64 wakeup_bytes = IDLESCOPE_RINGBUF_DEFAULT / 4;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, IDLESCOPE_RINGBUF_DEFAULT);	/* loader resizes */
} records SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idlescope_counters);
} counters SEC(".maps");

/* The current workload tag, pinned by the loader, written by workloads. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idlescope_tag);
} workload SEC(".maps");

/* Where one CPU is in its idle period. */
struct cpu_state {
	struct idlescope_record current;	/* the period in progress */
	struct idlescope_record pending;	/* completed, waiting for misses */
	__u32 seq;				/* periods completed on this CPU */
	__u32 nr_selects;			/* the governor's count at the pending entry */
	bool in_idle;
	bool has_pending;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

/*
 * The governor data this object reads, as CO-RE flavors: they match the
 * kernel's struct menu_device, struct menu2010_device and struct teo_cpu by
 * name, and let this object build and load whether or not the kernel has
 * the observation fields (kernel/patches) or the 2010 governors at all.
 */
struct menu_device___idlescope {
	int tick_wakeup;
	u64 next_timer_ns;
	unsigned int bucket;
	u64 predicted_ns;
	u64 update_residency_ns;
	unsigned int nr_iowaiters;
	unsigned int typical_interval_us;
	unsigned int nr_selects;
} __attribute__((preserve_access_index));

struct menu2010_device___idlescope {
	u64 next_timer_ns;
	u64 predicted_ns;
	u64 update_residency_ns;
	unsigned int bucket;
	unsigned int nr_iowaiters;
	unsigned int typical_interval_us;
	unsigned int load;
	unsigned int nr_selects;
} __attribute__((preserve_access_index));

struct teo_cpu___idlescope {
	s64 sleep_length_ns;
} __attribute__((preserve_access_index));

/* cpuidle_enter_state() points it at the state it enters; default idle does not. */
struct rq___idlescope {
	struct cpuidle_state *idle_state;
} __attribute__((preserve_access_index));

extern struct cpuidle_device *cpuidle_devices __ksym;
extern const struct rq___idlescope runqueues __ksym;
extern const struct menu_device___idlescope menu_devices __ksym __weak;
extern const struct menu2010_device___idlescope menu2010_devices __ksym __weak;
extern const struct teo_cpu___idlescope teo_cpus __ksym __weak;

/* The governors, by address: which one cpuidle_curr_governor points at. */
extern const void cpuidle_curr_governor __ksym;
extern const void menu_governor __ksym __weak;
extern const void teo_governor __ksym __weak;
extern const void ladder_governor __ksym __weak;
extern const void menu2010_governor __ksym __weak;
extern const void menu2010fix_governor __ksym __weak;
extern const void menu2010rpd_governor __ksym __weak;

static __always_inline struct cpu_state *this_cpu_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_states, &zero);
}

static __always_inline struct idlescope_counters *this_cpu_counters(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

static __always_inline int current_governor(void)
{
	const void *gov = NULL;

	bpf_probe_read_kernel(&gov, sizeof(gov), &cpuidle_curr_governor);
	if (!gov)
		return IDLESCOPE_GOV_NONE;
	if (gov == &menu_governor)
		return IDLESCOPE_GOV_MENU;
	if (gov == &teo_governor)
		return IDLESCOPE_GOV_TEO;
	if (gov == &ladder_governor)
		return IDLESCOPE_GOV_LADDER;
	if (gov == &menu2010_governor)
		return IDLESCOPE_GOV_MENU2010;
	if (gov == &menu2010fix_governor)
		return IDLESCOPE_GOV_MENU2010FIX;
	if (gov == &menu2010rpd_governor)
		return IDLESCOPE_GOV_MENU2010RPD;
	return IDLESCOPE_GOV_NONE;
}

/*
 * A wakeup between select and the idle entry makes call_cpuidle() return
 * -EBUSY: no tracepoint, and dev->last_residency_ns set to 0 after that
 * select's update has learnt from it.  The observation patch keeps what the
 * update read, and a count of selects, so the previous period's record gets
 * the residency its governor really learnt from, and this one the number of
 * selects in between that entered no state.  Both only hold when the same
 * governor selected the previous period and its count went on from there.
 *
 * ->enable() clears the count with the rest of the governor's data (a switch
 * to it, even by way of another governor with no period on this CPU; a CPU
 * coming online): a first select, or a count that did not grow, marks the
 * period where the governor's history starts again.
 */
static __always_inline void note_selects(struct cpu_state *cs,
					 struct idlescope_record *rec,
					 __u32 nr_selects, __u64 update_residency_ns)
{
	__u32 lost = nr_selects - cs->nr_selects - 1;

	if (nr_selects == 1 || nr_selects <= cs->nr_selects)
		rec->flags |= IDLESCOPE_F_RESTARTED;
	else if (cs->has_pending && (cs->pending.flags & IDLESCOPE_F_REFLECTED) &&
		 cs->pending.governor == rec->governor && lost <= MAX_LOST_SELECTS) {
		cs->pending.kernel_residency_ns = update_residency_ns;
		rec->lost_selects = lost;
	}
	cs->nr_selects = nr_selects;
}

static __always_inline void read_menu(struct idlescope_record *rec, struct cpu_state *cs)
{
	const struct menu_device___idlescope *data;

	/* A weak ksym the kernel lacks is 0: the verifier drops what follows. */
	if (!&menu_devices)
		return;
	data = bpf_this_cpu_ptr(&menu_devices);

	if (!data)
		return;
	/* menu_reflect() noted whether the tick ended the previous period. */
	if (cs->has_pending && BPF_CORE_READ(data, tick_wakeup))
		cs->pending.flags |= IDLESCOPE_F_TICK_WAKEUP;
	rec->next_timer_ns = BPF_CORE_READ(data, next_timer_ns);
	rec->bucket = BPF_CORE_READ(data, bucket);
	if (bpf_core_field_exists(data->nr_selects))
		note_selects(cs, rec, BPF_CORE_READ(data, nr_selects),
			     BPF_CORE_READ(data, update_residency_ns));
	if (observe_predictions && bpf_core_field_exists(data->predicted_ns)) {
		rec->predicted_ns = BPF_CORE_READ(data, predicted_ns);
		rec->nr_iowaiters = BPF_CORE_READ(data, nr_iowaiters);
		rec->typical_interval_us = BPF_CORE_READ(data, typical_interval_us);
		rec->flags |= IDLESCOPE_F_PREDICTED;
	}
}

static __always_inline void read_menu2010(struct idlescope_record *rec, struct cpu_state *cs)
{
	const struct menu2010_device___idlescope *data;

	if (!&menu2010_devices)
		return;
	data = bpf_this_cpu_ptr(&menu2010_devices);

	if (!data || !bpf_core_field_exists(data->predicted_ns))
		return;
	if (bpf_core_field_exists(data->nr_selects))
		note_selects(cs, rec, BPF_CORE_READ(data, nr_selects),
			     BPF_CORE_READ(data, update_residency_ns));
	rec->next_timer_ns = BPF_CORE_READ(data, next_timer_ns);
	rec->bucket = BPF_CORE_READ(data, bucket);
	rec->load = BPF_CORE_READ(data, load);
	if (observe_predictions) {
		rec->predicted_ns = BPF_CORE_READ(data, predicted_ns);
		rec->nr_iowaiters = BPF_CORE_READ(data, nr_iowaiters);
		rec->typical_interval_us = BPF_CORE_READ(data, typical_interval_us);
		rec->flags |= IDLESCOPE_F_PREDICTED;
	}
}

static __always_inline void read_teo(struct idlescope_record *rec)
{
	const struct teo_cpu___idlescope *data;

	if (!&teo_cpus)
		return;
	data = bpf_this_cpu_ptr(&teo_cpus);

	if (data)
		rec->next_timer_ns = BPF_CORE_READ(data, sleep_length_ns);
}

/*
 * What select decided for the period beginning now.  The cpuidle device
 * still describes the previous period, whose record is pending: what the
 * governor just learnt from (dev->last_residency_ns, dev->poll_time_limit)
 * belongs to that record.
 */
static __always_inline void read_selection(struct cpu_state *cs, unsigned int state)
{
	struct idlescope_record *rec = &cs->current;
	struct cpuidle_device **devp = bpf_this_cpu_ptr(&cpuidle_devices);
	struct cpuidle_device *dev = devp ? *devp : NULL;
	const struct rq___idlescope *rq = bpf_this_cpu_ptr(&runqueues);

	__builtin_memset(rec, 0, sizeof(*rec));
	rec->predicted_ns = IDLESCOPE_UNKNOWN_NS;
	rec->latency_req_ns = IDLESCOPE_LATENCY_REQ_UNKNOWN;
	rec->state = state;
	rec->chosen_state = -1;
	/*
	 * No governor chose this period when there is no enabled cpuidle
	 * device, or when idle went through default_idle_call() (as it does
	 * while a governor switch has cpuidle paused): only
	 * cpuidle_enter_state() sets the runqueue's idle state.
	 */
	if (!dev || !BPF_CORE_READ_BITFIELD_PROBED(dev, enabled) ||
	    !rq || !BPF_CORE_READ(rq, idle_state))
		return;
	/* Only a period a governor chose is reflected back to it. */
	if (cs->has_pending && (cs->pending.flags & IDLESCOPE_F_SELECTED)) {
		cs->pending.kernel_residency_ns = BPF_CORE_READ(dev, last_residency_ns);
		cs->pending.flags |= IDLESCOPE_F_REFLECTED;
		if (BPF_CORE_READ_BITFIELD_PROBED(dev, poll_time_limit))
			cs->pending.flags |= IDLESCOPE_F_POLL_LIMIT;
	}

	rec->governor = current_governor();
	if (rec->governor == IDLESCOPE_GOV_NONE)
		return;
	rec->flags = IDLESCOPE_F_SELECTED;
	rec->chosen_state = state;
	switch (rec->governor) {
	case IDLESCOPE_GOV_MENU:
		read_menu(rec, cs);
		break;
	case IDLESCOPE_GOV_MENU2010:
	case IDLESCOPE_GOV_MENU2010FIX:
	case IDLESCOPE_GOV_MENU2010RPD:
		read_menu2010(rec, cs);
		break;
	case IDLESCOPE_GOV_TEO:
		read_teo(rec);
		break;
	}
	/* The observation patch stores 0 when select returned before predicting. */
	if ((rec->flags & IDLESCOPE_F_PREDICTED) && !rec->predicted_ns) {
		rec->predicted_ns = IDLESCOPE_UNKNOWN_NS;
		rec->flags &= ~IDLESCOPE_F_PREDICTED;
	}
}

/* Send the completed period of this CPU, if any, to user space. */
static __always_inline void flush_pending(struct cpu_state *cs,
					  struct idlescope_counters *cnt)
{
	__u64 flags;

	if (!cs->has_pending)
		return;
	cs->has_pending = false;
	flags = bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA) >= wakeup_bytes ?
		BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
	if (bpf_ringbuf_output(&records, &cs->pending, sizeof(cs->pending), flags))
		cnt->dropped++;
	else
		cnt->records++;
}

static __always_inline void idle_enter(struct cpu_state *cs,
				       struct idlescope_counters *cnt,
				       unsigned int state, unsigned int cpu)
{
	cnt->entries++;
	read_selection(cs, state);
	flush_pending(cs, cnt);
	cs->current.cpu = cpu;
	cs->current.enter_ns = bpf_ktime_get_ns();
	cs->in_idle = true;
}

static __always_inline void idle_exit(struct cpu_state *cs,
				      struct idlescope_counters *cnt)
{
	struct idlescope_record *rec = &cs->pending;
	struct idlescope_tag *tag;
	__u32 zero = 0;

	cnt->exits++;
	if (!cs->in_idle) {
		/* An exit without its entry: we attached mid-period. */
		cnt->unpaired++;
		return;
	}
	cs->in_idle = false;

	*rec = cs->current;
	rec->residency_ns = bpf_ktime_get_ns() - rec->enter_ns;
	rec->seq = cs->seq++;
	tag = bpf_map_lookup_elem(&workload, &zero);
	if (tag)
		__builtin_memcpy(rec->workload, tag->name, sizeof(rec->workload));
	cs->has_pending = true;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(cpu_idle, unsigned int state, unsigned int cpu)
{
	struct cpu_state *cs = this_cpu_state();
	struct idlescope_counters *cnt = this_cpu_counters();

	if (!cs || !cnt)
		return 0;
	if (state == PWR_EVENT_EXIT)
		idle_exit(cs, cnt);
	else
		idle_enter(cs, cnt, state, cpu);
	return 0;
}

SEC("tp_btf/cpu_idle_miss")
int BPF_PROG(cpu_idle_miss, unsigned int cpu, unsigned int state, bool below)
{
	struct cpu_state *cs = this_cpu_state();

	if (!cs || !cs->has_pending)
		return 0;
	cs->pending.flags |= below ? IDLESCOPE_F_MISS_BELOW : IDLESCOPE_F_MISS_ABOVE;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
