// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope.bpf.c - watch cpuidle governors from the outside.
 *
 * An idle period on a CPU goes: the governor's select picks a state (and,
 * for the menu family, predicts how long the CPU will sleep), cpu_idle fires
 * with the state index, the CPU sleeps, cpu_idle fires with PWR_EVENT_EXIT,
 * and cpu_idle_miss may fire when the state was too deep or too shallow for
 * the sleep that happened.
 *
 * So: fexit on each governor's select stores its choice and prediction in
 * per-CPU state; the cpu_idle entry/exit pair times the period and turns it
 * into a record; cpu_idle_miss marks that record.  Since the miss comes
 * after the exit, a record is sent through the ring buffer when the next
 * period on that CPU begins.  Nothing here changes what the governors do.
 *
 * The per-CPU governor data is read through typed, weak ksyms with CO-RE
 * guards, so a kernel without the observation patch (or without the 2010
 * governors) still loads this object: the loader switches off the programs
 * whose attach targets are missing, and predictions are marked unknown.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "idlescope.h"

#define PWR_EVENT_EXIT	((unsigned int)-1)

/* Set by the loader before load: collect predictions at all. */
const volatile bool observe_predictions = true;

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
	struct idlescope_record select;	/* what the last select decided */
	struct idlescope_record pending;	/* completed, waiting for misses */
	__u64 enter_ns;
	__s32 state;
	__u64 sleep_length_ns;		/* last tick_nohz_get_sleep_length() */
	__s64 latency_req_ns;		/* last cpuidle_governor_latency_req() */
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
 * kernel's struct menu_device and struct menu2010_device by name, and let
 * this object build and load whether or not the kernel has the observation
 * fields (kernel/patches) or the 2010 governors at all.
 */
struct menu_device___idlescope {
	u64 next_timer_ns;
	unsigned int bucket;
	u64 predicted_ns;
	unsigned int nr_iowaiters;
	unsigned int typical_interval_us;
} __attribute__((preserve_access_index));

struct menu2010_device___idlescope {
	u64 next_timer_ns;
	u64 predicted_ns;
	unsigned int bucket;
	unsigned int nr_iowaiters;
	unsigned int typical_interval_us;
	unsigned int load;
} __attribute__((preserve_access_index));

extern const struct menu_device___idlescope menu_devices __ksym __weak;
extern const struct menu2010_device___idlescope menu2010_devices __ksym __weak;

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

/* Common part of every select: which governor chose which state. */
static __always_inline struct idlescope_record *
record_select(struct cpu_state *cs, int governor, int chosen)
{
	struct idlescope_record *sel = &cs->select;

	sel->governor = governor;
	sel->chosen_state = chosen;
	sel->flags = IDLESCOPE_F_SELECTED;
	sel->predicted_ns = IDLESCOPE_UNKNOWN_NS;
	sel->next_timer_ns = cs->sleep_length_ns;
	sel->latency_req_ns = cs->latency_req_ns;
	sel->bucket = 0;
	sel->nr_iowaiters = 0;
	sel->typical_interval_us = 0;
	sel->load = 0;
	return sel;
}

SEC("fexit/tick_nohz_get_sleep_length")
int BPF_PROG(sleep_length_exit, ktime_t *delta_next, ktime_t ret)
{
	struct cpu_state *cs = this_cpu_state();

	if (cs)
		cs->sleep_length_ns = ret < 0 ? 0 : ret;
	return 0;
}

SEC("fexit/cpuidle_governor_latency_req")
int BPF_PROG(latency_req_exit, unsigned int cpu, s64 ret)
{
	struct cpu_state *cs = this_cpu_state();

	if (cs)
		cs->latency_req_ns = ret;
	return 0;
}

SEC("fexit/menu_select")
int BPF_PROG(menu_select_exit, struct cpuidle_driver *drv,
	     struct cpuidle_device *dev, bool *stop_tick, int ret)
{
	struct cpu_state *cs = this_cpu_state();
	const struct menu_device___idlescope *data;
	struct idlescope_record *sel;

	if (!cs)
		return 0;
	sel = record_select(cs, IDLESCOPE_GOV_MENU, ret);
	data = bpf_this_cpu_ptr(&menu_devices);
	if (!observe_predictions || !data)
		return 0;
	sel->next_timer_ns = BPF_CORE_READ(data, next_timer_ns);
	sel->bucket = BPF_CORE_READ(data, bucket);
	if (bpf_core_field_exists(data->predicted_ns)) {
		sel->predicted_ns = BPF_CORE_READ(data, predicted_ns);
		sel->nr_iowaiters = BPF_CORE_READ(data, nr_iowaiters);
		sel->typical_interval_us = BPF_CORE_READ(data, typical_interval_us);
		sel->flags |= IDLESCOPE_F_PREDICTED;
	}
	return 0;
}

static __always_inline int menu2010_select_exit(int governor, int ret)
{
	struct cpu_state *cs = this_cpu_state();
	const struct menu2010_device___idlescope *data;
	struct idlescope_record *sel;

	if (!cs)
		return 0;
	sel = record_select(cs, governor, ret);
	data = bpf_this_cpu_ptr(&menu2010_devices);
	if (!observe_predictions || !data)
		return 0;
	if (bpf_core_field_exists(data->predicted_ns)) {
		sel->next_timer_ns = BPF_CORE_READ(data, next_timer_ns);
		sel->predicted_ns = BPF_CORE_READ(data, predicted_ns);
		sel->bucket = BPF_CORE_READ(data, bucket);
		sel->nr_iowaiters = BPF_CORE_READ(data, nr_iowaiters);
		sel->typical_interval_us = BPF_CORE_READ(data, typical_interval_us);
		sel->load = BPF_CORE_READ(data, load);
		sel->flags |= IDLESCOPE_F_PREDICTED;
	}
	return 0;
}

SEC("fexit/menu2010_select")
int BPF_PROG(menu2010_select_exit_prog, struct cpuidle_driver *drv,
	     struct cpuidle_device *dev, bool *stop_tick, int ret)
{
	return menu2010_select_exit(IDLESCOPE_GOV_MENU2010, ret);
}

SEC("fexit/menu2010fix_select")
int BPF_PROG(menu2010fix_select_exit, struct cpuidle_driver *drv,
	     struct cpuidle_device *dev, bool *stop_tick, int ret)
{
	return menu2010_select_exit(IDLESCOPE_GOV_MENU2010FIX, ret);
}

SEC("fexit/menu2010rpd_select")
int BPF_PROG(menu2010rpd_select_exit, struct cpuidle_driver *drv,
	     struct cpuidle_device *dev, bool *stop_tick, int ret)
{
	return menu2010_select_exit(IDLESCOPE_GOV_MENU2010RPD, ret);
}

SEC("fexit/teo_select")
int BPF_PROG(teo_select_exit, struct cpuidle_driver *drv,
	     struct cpuidle_device *dev, bool *stop_tick, int ret)
{
	struct cpu_state *cs = this_cpu_state();

	if (cs)
		record_select(cs, IDLESCOPE_GOV_TEO, ret);
	return 0;
}

SEC("fexit/ladder_select_state")
int BPF_PROG(ladder_select_exit, struct cpuidle_driver *drv,
	     struct cpuidle_device *dev, bool *dummy, int ret)
{
	struct cpu_state *cs = this_cpu_state();

	if (cs)
		record_select(cs, IDLESCOPE_GOV_LADDER, ret);
	return 0;
}

/* Send the completed period of this CPU, if any, to user space. */
static __always_inline void flush_pending(struct cpu_state *cs,
					  struct idlescope_counters *cnt)
{
	if (!cs->has_pending)
		return;
	cs->has_pending = false;
	if (bpf_ringbuf_output(&records, &cs->pending, sizeof(cs->pending), 0))
		cnt->dropped++;
	else
		cnt->records++;
}

static __always_inline void idle_enter(struct cpu_state *cs,
				       struct idlescope_counters *cnt,
				       unsigned int state)
{
	cnt->entries++;
	flush_pending(cs, cnt);
	cs->enter_ns = bpf_ktime_get_ns();
	cs->state = state;
	cs->in_idle = true;
}

static __always_inline void idle_exit(struct cpu_state *cs,
				      struct idlescope_counters *cnt,
				      unsigned int cpu)
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

	*rec = cs->select;
	rec->enter_ns = cs->enter_ns;
	rec->residency_ns = bpf_ktime_get_ns() - cs->enter_ns;
	rec->cpu = cpu;
	rec->state = cs->state;
	if (!(rec->flags & IDLESCOPE_F_SELECTED)) {
		rec->chosen_state = -1;
		rec->predicted_ns = IDLESCOPE_UNKNOWN_NS;
	}
	tag = bpf_map_lookup_elem(&workload, &zero);
	if (tag)
		__builtin_memcpy(rec->workload, tag->name, sizeof(rec->workload));
	cs->has_pending = true;

	/* The next period needs a select of its own to count as selected. */
	cs->select.flags = 0;
	cs->select.governor = IDLESCOPE_GOV_NONE;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(cpu_idle, unsigned int state, unsigned int cpu)
{
	struct cpu_state *cs = this_cpu_state();
	struct idlescope_counters *cnt = this_cpu_counters();

	if (!cs || !cnt)
		return 0;
	if (state == PWR_EVENT_EXIT)
		idle_exit(cs, cnt, cpu);
	else
		idle_enter(cs, cnt, state);
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
