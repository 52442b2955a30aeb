/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idlescope_summary.h - what the BPF side can add up by itself, per
 * workload and CPU, without a record leaving the kernel: the live dashboard
 * of a light run and the whole result of a lean one (docs/bpf.md).  Like
 * libbpf-tools' cpudist, the histograms live in a map the loader reads
 * every interval.
 *
 * Shared by the BPF side, which adds each period it completes, and by user
 * space, which adds the same periods from their records with the same
 * function (`idlescope dump --summary`): a light run's two must be equal,
 * which tests/guest checks.  Also the checksum of a record, which the BPF
 * side keeps per CPU when asked to, so that a test can tell that the
 * records that reached the host are the ones it emitted.
 *
 * Plain C on both sides: no clz (the BPF target lacks one), no 128-bit
 * products, loops of constant count.
 */
#ifndef __IDLESCOPE_SUMMARY_H
#define __IDLESCOPE_SUMMARY_H

#include "idlescope.h"

/* Workload tags a run can tell apart; the later ones share the last slot. */
#define IDLESCOPE_SUMMARY_SLOTS		32
/* Log2 buckets of the actual duration in us: bucket k holds [2^k, 2^(k+1)). */
#define IDLESCOPE_SUMMARY_LOG2_SLOTS	28

/*
 * The seed's factors F, as exact rationals: X(num, den, label), F = num /
 * den, in increasing order.  The reports' within-F table is made from the
 * same list (loader/stats/buckets.h).
 */
#define IDLESCOPE_FACTORS(X)	\
	X(3, 2, "1.5x")		\
	X(2, 1, "2x")		\
	X(4, 1, "4x")		\
	X(10, 1, "10x")		\
	X(100, 1, "100x")
#define IDLESCOPE_NR_FACTORS	5

#define IDLESCOPE_FACTOR_NUM(num, den, label)	num,
#define IDLESCOPE_FACTOR_DEN(num, den, label)	den,
static const unsigned int idlescope_factor_num[IDLESCOPE_NR_FACTORS] = {
	IDLESCOPE_FACTORS(IDLESCOPE_FACTOR_NUM)
};
static const unsigned int idlescope_factor_den[IDLESCOPE_NR_FACTORS] = {
	IDLESCOPE_FACTORS(IDLESCOPE_FACTOR_DEN)
};
#undef IDLESCOPE_FACTOR_NUM
#undef IDLESCOPE_FACTOR_DEN

/*
 * The within-F test on values up to 2^56 ns (2.3 years), where a product
 * with num < 128 still fits 64 bits; larger values are taken as 2^56.
 */
#define IDLESCOPE_WITHIN_MAX_NS		(1ULL << 56)

/*
 * One workload's periods on one CPU.  The actual duration of a period is
 * its entry to its wake-up (idlescope_woke_ns()), as every score takes it.
 */
struct idlescope_summary {
	__u64 periods;
	__u64 woke_ns;				/* their actual durations, summed */
	__u64 miss_above;			/* cpu_idle_miss: state too deep */
	__u64 miss_below;			/* ... too shallow */
	__u64 predicted;			/* periods with the governor's prediction */
	__u64 within[IDLESCOPE_NR_FACTORS];	/* of them, within F of the actual */
	__u64 state_periods[IDLESCOPE_MAX_STATES];	/* by state entered */
	__u64 state_woke_ns[IDLESCOPE_MAX_STATES];
	__u64 woke_us_log2[IDLESCOPE_SUMMARY_LOG2_SLOTS];
};

/*
 * The workload tags of one CPU's summaries: slot i of the summaries map
 * holds names[i]'s periods on that CPU, for i < nr; the last slot holds
 * every tag that came after the others were taken, and its name is never
 * set (a whole power of two of names lets the BPF side's index be masked,
 * which its verifier needs).  Each CPU numbers its own, so none waits for
 * another.
 */
struct idlescope_summary_names {
	__u32 nr;
	__u32 pad;
	struct idlescope_tag names[IDLESCOPE_SUMMARY_SLOTS];
};

_Static_assert((IDLESCOPE_SUMMARY_SLOTS & (IDLESCOPE_SUMMARY_SLOTS - 1)) == 0,
	       "the slots are a power of two");

/**
 * idlescope_woke_ns() - how long a record's period lasted until its wake-up
 * @rec: the record
 * @untimed_exit_ns: per state, the exit an untimed record spent after its
 *	wake-up (loader/stats/period.h), or NULL for none; volatile, as the
 *	BPF side's is a constant set before load, which the compiler must
 *	not fold to its initial zeros
 *
 * Return: residency_ns less the exit the idle driver spent after the
 * wake-up: the one the BPF side timed (IDLESCOPE_F_EXIT_TIMED) when it fits
 * in the residency, else the state's untimed exit when the residency is
 * longer (a residency no longer than the exit never halted); else
 * residency_ns.
 */
static inline __u64 idlescope_woke_ns(const struct idlescope_record *rec,
				      const volatile __u64 *untimed_exit_ns)
{
	__u64 exit_ns = 0;

	if (rec->flags & IDLESCOPE_F_EXIT_TIMED)
		return rec->exit_ns <= rec->residency_ns ? rec->residency_ns - rec->exit_ns :
		       rec->residency_ns;
	if (untimed_exit_ns && rec->state >= 0 && rec->state < IDLESCOPE_MAX_STATES)
		exit_ns = untimed_exit_ns[rec->state];
	return exit_ns < rec->residency_ns ? rec->residency_ns - exit_ns : rec->residency_ns;
}

/**
 * idlescope_within_add() - count a prediction in every within-F it meets
 * @within: the counts, one per factor of IDLESCOPE_FACTORS()
 * @predicted_ns: the prediction
 * @actual_ns: the actual duration
 *
 * Within F: max(p, a) <= num / den * min(p, a); a zero is infinitely far
 * off, two zeros agree.  The operands are ordered and clamped once for all
 * the factors: on the BPF side this runs in every idle period.
 */
static inline void idlescope_within_add(__u64 *within, __u64 predicted_ns,
					__u64 actual_ns)
{
	__u64 larger, smaller;
	unsigned int i;

	if (predicted_ns == 0 || actual_ns == 0) {
		if (predicted_ns != actual_ns)
			return;
		larger = smaller = 1;
	} else if (predicted_ns > actual_ns) {
		larger = predicted_ns;
		smaller = actual_ns;
	} else {
		larger = actual_ns;
		smaller = predicted_ns;
	}
	if (larger > IDLESCOPE_WITHIN_MAX_NS)
		larger = IDLESCOPE_WITHIN_MAX_NS;
	if (smaller > IDLESCOPE_WITHIN_MAX_NS)
		smaller = IDLESCOPE_WITHIN_MAX_NS;
	for (i = 0; i < IDLESCOPE_NR_FACTORS; i++)
		within[i] += larger * idlescope_factor_den[i] <= smaller * idlescope_factor_num[i];
}

/* The log2 bucket of a duration in us: 0 and 1 us share bucket 0. */
static inline unsigned int idlescope_summary_log2_slot(__u64 ns)
{
	__u64 us = ns / 1000;
	unsigned int k = us ? idlescope_log2(us) : 0;

	return k < IDLESCOPE_SUMMARY_LOG2_SLOTS ? k : IDLESCOPE_SUMMARY_LOG2_SLOTS - 1;
}

/**
 * idlescope_summary_add() - one completed period into a summary
 * @s: the summary of the period's workload and CPU
 * @rec: its record, with the kernel's misses
 * @untimed_exit_ns: as idlescope_woke_ns()
 */
static inline void idlescope_summary_add(struct idlescope_summary *s,
					 const struct idlescope_record *rec,
					 const volatile __u64 *untimed_exit_ns)
{
	__u64 woke_ns = idlescope_woke_ns(rec, untimed_exit_ns);

	s->periods++;
	s->woke_ns += woke_ns;
	s->woke_us_log2[idlescope_summary_log2_slot(woke_ns)]++;
	if (rec->state >= 0 && rec->state < IDLESCOPE_MAX_STATES) {
		s->state_periods[rec->state]++;
		s->state_woke_ns[rec->state] += woke_ns;
	}
	if (rec->flags & IDLESCOPE_F_MISS_ABOVE)
		s->miss_above++;
	if (rec->flags & IDLESCOPE_F_MISS_BELOW)
		s->miss_below++;
	if (!(rec->flags & IDLESCOPE_F_PREDICTED))
		return;
	s->predicted++;
	idlescope_within_add(s->within, rec->predicted_ns, woke_ns);
}

/**
 * idlescope_record_sum() - a checksum of one record's bytes
 * @rec: the record as emitted
 *
 * Summed per CPU over the records emitted (the order of the sum does not
 * matter): the records read back must give the same sum.
 *
 * Return: an FNV-1a-like hash of its 64-bit words.
 */
static inline __u64 idlescope_record_sum(const struct idlescope_record *rec)
{
	const __u64 *words = (const __u64 *)rec;
	__u64 h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < sizeof(*rec) / sizeof(__u64); i++)
		h = (h ^ words[i]) * 0x100000001b3ULL;
	return h;
}

_Static_assert(sizeof(struct idlescope_record) % sizeof(__u64) == 0,
	       "idlescope_record_sum() reads whole words");
_Static_assert(sizeof(struct idlescope_summary) % sizeof(__u64) == 0,
	       "a summary is counters only: summed word by word");

#endif /* __IDLESCOPE_SUMMARY_H */
