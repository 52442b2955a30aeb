/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.bpf.h - the summaries of idlescope_summary.h, kept by the BPF side: per
 * CPU and workload tag, what the live dashboard of a light run shows and
 * all that a lean run keeps.  Each completed period is added once, when it
 * is sent (or would be): with its misses, as its record has them.
 *
 * A CPU's periods carry the tag its last exit copied; the slot of that tag
 * is looked up only when it changes (a workload starting), so a period
 * costs a comparison of 16 bytes and the additions.  Included by
 * idlescope.bpf.c, which calls summarize().
 */
#ifndef __SUMMARY_BPF_H
#define __SUMMARY_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "idlescope.h"
#include "idlescope_summary.h"

/* Set by the loader before load: keep the summaries at all. */
const volatile bool keep_summary = false;
/*
 * The exit an untimed period spent after its wake-up, per state
 * (loader/stats/period.h): what a summary takes off its residency.
 */
const volatile __u64 untimed_exit_ns[IDLESCOPE_MAX_STATES];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, IDLESCOPE_SUMMARY_SLOTS);
	__type(key, __u32);
	__type(value, struct idlescope_summary);
} summaries SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idlescope_summary_names);
} summary_names SEC(".maps");

/* Which slot a CPU's current tag has: looked up when the tag changes. */
struct summary_cache {
	__u32 tag[IDLESCOPE_WORKLOAD_LEN / sizeof(__u32)];
	__u32 slot;
	bool valid;
};

static __always_inline bool same_tag(const __u32 *a, const __u32 *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/**
 * summary_slot_of() - the slot of a tag on this CPU, taken if it has none
 * @t0: the tag's first word (record's workload, 4-byte aligned)
 * @t1: its second
 * @t2: its third
 * @t3: its fourth
 *
 * A function of its own, not inlined: inlined, each slot the search could
 * return went on through the rest of its caller as a path of its own,
 * with the search's registers live, and the lean run's entry program
 * passed the verifier's million instructions.  A call leaves only the
 * returned slot, which no later check depends on, so the paths merge.
 *
 * Return: the slot; the last when all are taken.
 */
static __noinline __u32 summary_slot_of(__u32 t0, __u32 t1, __u32 t2, __u32 t3)
{
	const __u32 tag[4] = { t0, t1, t2, t3 };
	struct idlescope_summary_names *sn;
	__u32 zero = 0, i, nr;
	__u32 *name;

	sn = bpf_map_lookup_elem(&summary_names, &zero);
	if (!sn)
		return IDLESCOPE_SUMMARY_SLOTS - 1;
	nr = sn->nr;
	for (i = 0; i < IDLESCOPE_SUMMARY_SLOTS - 1 && i < nr; i++)
		if (same_tag((const __u32 *)sn->names[i].name, tag))
			return i;
	if (nr >= IDLESCOPE_SUMMARY_SLOTS - 1)
		return IDLESCOPE_SUMMARY_SLOTS - 1;
	/*
	 * The compiler indexed with a copy of nr that the test above did
	 * not bound for the verifier: a mask it cannot drop bounds it.
	 */
	barrier_var(nr);
	nr &= IDLESCOPE_SUMMARY_SLOTS - 1;
	name = (__u32 *)sn->names[nr].name;
	name[0] = tag[0];
	name[1] = tag[1];
	name[2] = tag[2];
	name[3] = tag[3];
	sn->nr = nr + 1;
	return nr;
}

/* Add a completed period (its record, misses included) to its summary. */
static __always_inline void summarize(struct summary_cache *cache,
				      const struct idlescope_record *rec)
{
	/* The tag sits 4-byte aligned in the record: word compares. */
	const __u32 *tag = (const __u32 *)rec->workload;
	struct idlescope_summary *s;

	if (!cache->valid || !same_tag(cache->tag, tag)) {
		cache->tag[0] = tag[0];
		cache->tag[1] = tag[1];
		cache->tag[2] = tag[2];
		cache->tag[3] = tag[3];
		cache->slot = summary_slot_of(tag[0], tag[1], tag[2], tag[3]);
		cache->valid = true;
	}
	s = bpf_map_lookup_elem(&summaries, &cache->slot);
	if (s)
		idlescope_summary_add(s, rec, untimed_exit_ns);
}

#endif /* __SUMMARY_BPF_H */
