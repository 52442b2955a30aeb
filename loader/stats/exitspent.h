/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exitspent.h - the distribution of the exit an idle state spent after its
 * wake-ups, against the exit latency it declares.
 *
 * Every score judges a period by its wake-up (stats/period.h); what the
 * idle driver spends after it is kept apart, here, so that the report can
 * say how the exits really came out: their median, 99th percentile and
 * maximum per state beside the declared latency.  A log-linear histogram,
 * EXIT_SPENT_SUB slots per power of two, so that a percentile is good to
 * 1/EXIT_SPENT_SUB of its value (3%): values below EXIT_SPENT_SUB ns have
 * a slot each, then v with k = floor(log2(v)) >= 5 goes to slot
 * EXIT_SPENT_SUB * (k - 4) + the five bits after its leading one; the last
 * slot also holds everything larger.  The minimum and maximum are kept
 * exactly.
 */
#ifndef __IDLESCOPE_STATS_EXITSPENT_H
#define __IDLESCOPE_STATS_EXITSPENT_H

#include <linux/types.h>

#define EXIT_SPENT_SUB_BITS	5
#define EXIT_SPENT_SUB		(1U << EXIT_SPENT_SUB_BITS)
/* Up to 2^30 ns (1.07 s), far beyond any state's exit. */
#define EXIT_SPENT_SLOTS	(EXIT_SPENT_SUB * (30 - EXIT_SPENT_SUB_BITS + 1))

struct exit_spent {
	__u64 count;
	__u64 min_ns;			/* valid when count > 0 */
	__u64 max_ns;
	__u64 hist[EXIT_SPENT_SLOTS];
};

/**
 * exit_spent_add() - one exit into the histogram
 * @es: the histogram
 * @ns: the exit spent
 */
void exit_spent_add(struct exit_spent *es, __u64 ns);

/**
 * exit_spent_merge() - add one histogram to another
 * @dst: the sum
 * @src: what to add
 */
void exit_spent_merge(struct exit_spent *dst, const struct exit_spent *src);

/**
 * exit_spent_percentile_ns() - a percentile of the exits
 * @es: the histogram
 * @pct: which one, 0 < @pct <= 100
 *
 * Return: the middle of the slot that holds the @pct-th percentile, kept
 * within the minimum and the maximum (exact below EXIT_SPENT_SUB ns and
 * when every exit was the same, else good to half a slot); 0 when nothing
 * was counted.
 */
__u64 exit_spent_percentile_ns(const struct exit_spent *es, double pct);

#endif /* __IDLESCOPE_STATS_EXITSPENT_H */
