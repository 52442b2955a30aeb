/* SPDX-License-Identifier: GPL-2.0 */
/*
 * governors.bpf.h - what the idle entry reads of the governors' own per-CPU
 * data (menu, the 2010 menus, teo), what teo's reflect leaves in it, and
 * which governor is running.  Each reader says what it read in the
 * record's IDLESCOPE_F_HAS_* bits.  Included by idlescope.bpf.c; it needs
 * nothing of it but what struct gov_read hands over: one BPF object, one
 * file per concept.
 */
#ifndef __GOVERNORS_BPF_H
#define __GOVERNORS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "idlescope.h"

/* More selects than this between two idle entries: a counter that restarted. */
#define MAX_LOST_SELECTS	0xffff

/**
 * struct gov_read - what a governor reader fills, and what it needs of the
 * CPU's idle periods
 * @rec: the record of the period being entered
 * @prev: the previous period's record, still waiting for its misses; NULL
 *	when none waits
 * @nr_selects: the governor's count of selects at the previous entry,
 *	updated to the count at this one (note_selects())
 * @probed_selects: selects the select probes saw since the previous entry
 * @observe_predictions: read the governor's prediction and its inputs
 * @teo_reflect_read: teo's or teo70's reflect probe marked the previous
 *	record (read_teo_span(), read_teo70_reflect())
 */
struct gov_read {
	struct idlescope_record *rec;
	struct idlescope_record *prev;
	__u32 *nr_selects;
	__u32 probed_selects;
	bool observe_predictions;
	bool teo_reflect_read;
};

/*
 * The governor data this object reads, as CO-RE flavors: they match the
 * kernel's struct menu_device, struct menu2010_device, struct teo_cpu and
 * struct teo70_cpu by name, and let this object build and load whether or
 * not the kernel has the observation fields (kernel/patches), the 2010
 * governors or teo70 at all, on every kernel from 6.1 on.  What differs
 * between kernels is tested field by field (bpf_core_field_exists(),
 * bpf_core_field_size()), never by version: 6.12's menu has 6 buckets
 * where 6.1's has 12 and no longer counts I/O waiters, and a field that a
 * kernel lacks must not be read there, or the object does not load.  The
 * arrays here are as long as the longest a kernel has.
 */
struct menu_device___idlescope {
	int tick_wakeup;
	u64 next_timer_ns;
	unsigned int bucket;
	unsigned int correction_factor[IDLESCOPE_MENU_BUCKETS];
	unsigned int intervals[IDLESCOPE_MENU_INTERVALS];
	u64 predicted_ns;
	u64 tick_adjusted_ns;
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
	s64 time_span_ns;
	s64 sleep_length_ns;
	unsigned int total;
} __attribute__((preserve_access_index));

/* teo70 (kernel/patches/6.12): 7.0's teo, with per-CPU data of its own. */
struct teo70_cpu___idlescope {
	s64 sleep_length_ns;
	unsigned int total;
	bool tick_wakeup;
} __attribute__((preserve_access_index));

/* The sleep length a 6.12 governor did not ask for (include/linux/ktime.h). */
#define KTIME_MAX	((s64)~((u64)1 << 63))

extern const struct menu_device___idlescope menu_devices __ksym __weak;
extern const struct menu2010_device___idlescope menu2010_devices __ksym __weak;
extern const struct teo_cpu___idlescope teo_cpus __ksym __weak;
extern const struct teo70_cpu___idlescope teo70_cpus __ksym __weak;

/*
 * The governors, by address: which one cpuidle_curr_governor points at.
 * Typeless: 6.1's BTF has only per-CPU variables, so a typed ksym (a plain
 * load) of this global fails to load.  Each governor's struct is
 * <name>_governor; a kernel without it resolves the weak ksym to 0.
 */
extern const void cpuidle_curr_governor __ksym;
#define GOVERNOR_KSYM(id, name, select)	extern const void name##_governor __ksym __weak;
IDLESCOPE_CPUIDLE_GOVERNORS(GOVERNOR_KSYM)
#undef GOVERNOR_KSYM

static __always_inline int current_governor(void)
{
	const void *gov = NULL;

	bpf_probe_read_kernel(&gov, sizeof(gov), &cpuidle_curr_governor);
	if (!gov)
		return IDLESCOPE_GOV_NONE;
#define GOVERNOR_MATCH(id, name, select)	\
	if (gov == &name##_governor)		\
		return IDLESCOPE_GOV_##id;
	IDLESCOPE_CPUIDLE_GOVERNORS(GOVERNOR_MATCH)
#undef GOVERNOR_MATCH
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
 * coming online): a first select, a count that did not grow, or one no
 * larger than the selects the select probes saw since the last entry (all
 * of its selects came after that entry, the first ones entering no state)
 * marks the period where the governor's history starts again, after
 * count - 1 lost selects.  Without the select probes, a CPU whose first
 * entry since the load follows lost selects after ->enable() shows no
 * restart: there is no earlier count to compare with.
 */
static __always_inline void note_selects(struct gov_read *g, __u32 nr_selects,
					 __u64 update_residency_ns)
{
	struct idlescope_record *rec = g->rec, *prev = g->prev;
	__u32 lost = nr_selects - *g->nr_selects - 1;

	if (nr_selects == 1 || nr_selects <= *g->nr_selects ||
	    nr_selects <= g->probed_selects) {
		rec->flags |= IDLESCOPE_F_RESTARTED;
		if (nr_selects - 1 <= MAX_LOST_SELECTS)
			rec->lost_selects = nr_selects - 1;
	} else if (prev && (prev->flags & IDLESCOPE_F_REFLECTED) &&
		   prev->governor == rec->governor && lost <= MAX_LOST_SELECTS) {
		prev->kernel_residency_ns = update_residency_ns;
		rec->lost_selects = lost;
	}
	*g->nr_selects = nr_selects;
}

/*
 * menu's data as its ->enable() leaves it: every factor at unity, no
 * interval yet.  Only the first period after it looks so (its first
 * update moves a factor or fills an interval), unless that period's select
 * was not entered.
 */
static __always_inline bool menu_data_fresh(const unsigned int *factors,
					    unsigned int nr_buckets,
					    const __u32 *intervals_us)
{
	int i;

	for (i = 0; i < IDLESCOPE_MENU_BUCKETS; i++)
		if (i < nr_buckets && factors[i] != IDLESCOPE_MENU_FACTOR_UNITY)
			return false;
	for (i = 0; i < IDLESCOPE_MENU_INTERVALS; i++)
		if (intervals_us[i])
			return false;
	return true;
}

/*
 * One of menu's correction factors, by a literal index: a CO-RE relocation
 * of its own, which fails from index 6 on against 6.12's shorter array,
 * where the test of nr_buckets keeps the verifier off it.  A loop's
 * variable index would read the whole array through one relocation, and a
 * kernel whose array has another length refuses that load.
 */
#define READ_MENU_FACTOR(i)						\
	do {								\
		if ((i) < nr_buckets)					\
			factors[i] = data->correction_factor[i];	\
	} while (0)

/*
 * What select computed its prediction from, for the loader to rebuild it
 * where the kernel does not store it (loader/replay/reconstruct.c).  Read on every
 * kernel: where the kernel stores it too, the two are compared.  The
 * intervals are copied as they lie in the ring; their order does not
 * matter to the prediction.  Without the observation patch's count of
 * selects (note_selects()), fresh data is how a restart of menu's history
 * shows.
 */
static __always_inline void read_menu_data(struct idlescope_record *rec,
					   const struct menu_device___idlescope *data)
{
	unsigned int factors[IDLESCOPE_MENU_BUCKETS] = {};
	unsigned int nr_buckets, nr_intervals;
	__u32 bucket = rec->bucket;
	int i;

	if (!bpf_core_field_exists(data->correction_factor) ||
	    !bpf_core_field_exists(data->intervals))
		return;
	nr_buckets = bpf_core_field_size(data->correction_factor) / sizeof(factors[0]);
	nr_intervals = bpf_core_field_size(data->intervals) / sizeof(rec->intervals_us[0]);
	/* Fewer intervals than the record holds would make another average. */
	if (bucket >= nr_buckets || nr_intervals != IDLESCOPE_MENU_INTERVALS)
		return;
	_Static_assert(IDLESCOPE_MENU_BUCKETS == 12, "one READ_MENU_FACTOR() per bucket");
	READ_MENU_FACTOR(0);
	READ_MENU_FACTOR(1);
	READ_MENU_FACTOR(2);
	READ_MENU_FACTOR(3);
	READ_MENU_FACTOR(4);
	READ_MENU_FACTOR(5);
	READ_MENU_FACTOR(6);
	READ_MENU_FACTOR(7);
	READ_MENU_FACTOR(8);
	READ_MENU_FACTOR(9);
	READ_MENU_FACTOR(10);
	READ_MENU_FACTOR(11);
	/*
	 * Constant indices only: the verifier refuses a variable offset into
	 * kernel memory, and lost the bound of bucket as a stack offset.
	 */
#pragma unroll
	for (i = 0; i < IDLESCOPE_MENU_BUCKETS; i++)
		if (i == bucket)
			rec->correction_factor = factors[i];
#pragma unroll
	for (i = 0; i < IDLESCOPE_MENU_INTERVALS; i++)
		rec->intervals_us[i] = data->intervals[i];
	rec->flags |= IDLESCOPE_F_MENU_DATA;
	/* 6.1's buckets: the upper half is "I/O waiters", the rebuilt count */
	if (bpf_core_field_size(data->correction_factor) == sizeof(factors))
		rec->flags |= IDLESCOPE_F_HAS_IOWAITERS;
	if (!bpf_core_field_exists(data->nr_selects) &&
	    menu_data_fresh(factors, nr_buckets, rec->intervals_us))
		rec->flags |= IDLESCOPE_F_RESTARTED;
}

/*
 * bpf_this_cpu_ptr() of a typed per-CPU ksym is a pointer the verifier
 * knows the kernel type of: its fields are read with plain loads (CO-RE
 * relocated through the flavors above), each far cheaper than a
 * bpf_probe_read_kernel() call, on a path every idle period runs.
 */
static __always_inline void read_menu(struct gov_read *g)
{
	const struct menu_device___idlescope *data;
	struct idlescope_record *rec = g->rec;

	if (!&menu_devices)
		return;
	data = bpf_this_cpu_ptr(&menu_devices);
	/* menu_reflect() noted whether the tick ended the previous period. */
	if (g->prev && data->tick_wakeup)
		g->prev->flags |= IDLESCOPE_F_TICK_WAKEUP;
	rec->flags |= IDLESCOPE_F_HAS_TICK;
	rec->next_timer_ns = data->next_timer_ns;
	/* 6.12 asks for no next timer when a shallow state will do */
	if (data->next_timer_ns != KTIME_MAX)
		rec->flags |= IDLESCOPE_F_HAS_NEXT_TIMER;
	rec->bucket = data->bucket;
	if (bpf_core_field_exists(data->nr_selects))
		note_selects(g, data->nr_selects, data->update_residency_ns);
	if (!g->observe_predictions)
		return;
	read_menu_data(rec, data);
	if (bpf_core_field_exists(data->predicted_ns)) {
		rec->predicted_ns = data->predicted_ns;
		rec->typical_interval_us = data->typical_interval_us;
		rec->flags |= IDLESCOPE_F_PREDICTED;
	}
	if (bpf_core_field_exists(data->tick_adjusted_ns))
		rec->tick_adjusted_ns = data->tick_adjusted_ns;
	/* 6.12's menu counts no I/O waiters, so its patch stores none. */
	if (bpf_core_field_exists(data->nr_iowaiters)) {
		rec->nr_iowaiters = data->nr_iowaiters;
		rec->flags |= IDLESCOPE_F_HAS_IOWAITERS;
	}
}

static __always_inline void read_menu2010(struct gov_read *g)
{
	const struct menu2010_device___idlescope *data;
	struct idlescope_record *rec = g->rec;

	if (!&menu2010_devices)
		return;
	data = bpf_this_cpu_ptr(&menu2010_devices);
	if (!bpf_core_field_exists(data->predicted_ns))
		return;
	if (bpf_core_field_exists(data->nr_selects))
		note_selects(g, data->nr_selects, data->update_residency_ns);
	rec->next_timer_ns = data->next_timer_ns;
	rec->bucket = data->bucket;
	rec->load = data->load;
	rec->flags |= IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_LOAD;
	if (g->observe_predictions) {
		rec->predicted_ns = data->predicted_ns;
		rec->nr_iowaiters = data->nr_iowaiters;
		rec->typical_interval_us = data->typical_interval_us;
		rec->flags |= IDLESCOPE_F_PREDICTED | IDLESCOPE_F_HAS_IOWAITERS;
	}
}

/**
 * read_prediction() - the running governor's prediction alone
 * @governor: enum idlescope_governor, the running one
 * @predicted_ns: set when it has one
 *
 * For a lean run, which reads nothing else of the governor: a kernel
 * without the observation patch keeps no prediction to read.
 *
 * Return: whether @predicted_ns was set.
 */
static __always_inline bool read_prediction(int governor, __u64 *predicted_ns)
{
	const struct menu2010_device___idlescope *m2010;
	const struct menu_device___idlescope *menu;

	switch (governor) {
	case IDLESCOPE_GOV_MENU:
		if (!&menu_devices)
			return false;
		menu = bpf_this_cpu_ptr(&menu_devices);
		if (!bpf_core_field_exists(menu->predicted_ns))
			return false;
		*predicted_ns = menu->predicted_ns;
		return true;
	case IDLESCOPE_GOV_MENU2010:
	case IDLESCOPE_GOV_MENU2010FIX:
	case IDLESCOPE_GOV_MENU2010RPD:
	case IDLESCOPE_GOV_MENU2010MF2:
		if (!&menu2010_devices)
			return false;
		m2010 = bpf_this_cpu_ptr(&menu2010_devices);
		if (!bpf_core_field_exists(m2010->predicted_ns))
			return false;
		*predicted_ns = m2010->predicted_ns;
		return true;
	}
	return false;
}

/*
 * teo's ->enable() zeroes its data, and every update adds a PULSE to a
 * total whose bins never decay back to 0: a total of at most one PULSE is
 * a history that started again at this select or the one before.
 */
static __always_inline void read_teo(struct gov_read *g)
{
	const struct teo_cpu___idlescope *data;
	struct idlescope_record *rec = g->rec;

	if (!&teo_cpus)
		return;
	data = bpf_this_cpu_ptr(&teo_cpus);
	if (bpf_core_field_exists(data->sleep_length_ns)) {
		rec->next_timer_ns = data->sleep_length_ns;
		if (data->sleep_length_ns != KTIME_MAX)
			rec->flags |= IDLESCOPE_F_HAS_NEXT_TIMER;
	}
	if (g->teo_reflect_read)
		rec->flags |= IDLESCOPE_F_HAS_TEO_SPAN;
	if (bpf_core_field_exists(data->total) && data->total <= IDLESCOPE_TEO_PULSE)
		rec->flags |= IDLESCOPE_F_RESTARTED;
}

/**
 * read_teo_span() - after teo's reflect: did its span reach the sleep length?
 * @prev: the record of the period just reflected
 *
 * The next update takes the measured idle duration as unbounded when
 * time_span_ns >= sleep_length_ns; reflect's safety nets set the span to
 * the sleep length itself.
 */
static __always_inline void read_teo_span(struct idlescope_record *prev)
{
	const struct teo_cpu___idlescope *data;

	if (!&teo_cpus)
		return;
	data = bpf_this_cpu_ptr(&teo_cpus);
	if (!bpf_core_field_exists(data->time_span_ns) ||
	    !bpf_core_field_exists(data->sleep_length_ns))
		return;
	if (data->time_span_ns >= data->sleep_length_ns)
		prev->flags |= IDLESCOPE_F_TEO_SPAN_FULL;
	if (data->time_span_ns == data->sleep_length_ns)
		prev->flags |= IDLESCOPE_F_TEO_SAFETY_NET;
}

/*
 * teo70 as teo, but for what its update learns from the period before:
 * no time span, but whether the tick ended the period (its reflect keeps
 * tick_nohz_idle_got_tick(), which only one reader gets) and whether the
 * polling state gave up on its time limit (the next select's update reads
 * and clears dev->poll_time_limit, before the idle entry could).  The
 * reflect probe notes both on the previous record (read_teo70_reflect());
 * the record whose select follows says that they are known.
 */
static __always_inline void read_teo70(struct gov_read *g)
{
	const struct teo70_cpu___idlescope *data;
	struct idlescope_record *rec = g->rec;

	if (!&teo70_cpus)
		return;
	data = bpf_this_cpu_ptr(&teo70_cpus);
	rec->next_timer_ns = data->sleep_length_ns;
	if (data->sleep_length_ns != KTIME_MAX)
		rec->flags |= IDLESCOPE_F_HAS_NEXT_TIMER;
	if (g->teo_reflect_read)
		rec->flags |= IDLESCOPE_F_HAS_TICK;
	if (data->total <= IDLESCOPE_TEO_PULSE)
		rec->flags |= IDLESCOPE_F_RESTARTED;
}

/**
 * read_teo70_reflect() - after teo70's reflect: what its next update reads
 * @prev: the record of the period just reflected
 * @poll_time_limit: dev->poll_time_limit, the polling state's timeout
 */
static __always_inline void read_teo70_reflect(struct idlescope_record *prev,
					       bool poll_time_limit)
{
	const struct teo70_cpu___idlescope *data;

	if (!&teo70_cpus)
		return;
	data = bpf_this_cpu_ptr(&teo70_cpus);
	if (data->tick_wakeup)
		prev->flags |= IDLESCOPE_F_TICK_WAKEUP;
	if (poll_time_limit)
		prev->flags |= IDLESCOPE_F_POLL_LIMIT;
}

#endif /* __GOVERNORS_BPF_H */
