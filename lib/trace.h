/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sleep trace: what `idlescope extract` writes from a run's records and
 * the replay workload plays back in the guest (docs/trace-format.md).
 *
 * A sleep is the time a CPU had nothing to run: from the start of an idle
 * period to the wake-up that ended the first one after it whose wake-up
 * had a task to run (the idle periods in between, a tick that woke nobody,
 * belong to it), and what ended it: the tick, another timer, another CPU's
 * wake-up (an IPI), a device, a remote wake-up of a polling CPU, or
 * nothing known.  It ends at the wake-up, not at the idle exit: when the
 * idle states spent their exit latency, that came after the wake-up and is
 * not in the sleep, so that a replay under any exit cost wakes the CPU
 * when the recording's woke.  Times are
 * from the trace's origin, the earliest idle entry extracted, whose
 * CLOCK_MONOTONIC value is kept so that a replay keeps its phase against
 * the tick.
 *
 * Text, one line each, '#' to the end of a line is a comment:
 *	idlescope-trace 2
 *	tick_ns 1000000
 *	origin_ns 40079804541
 *	cpus 2
 *	sleep CPU START_NS LENGTH_NS KIND [WHAT]
 *	...
 * KIND is one of tick, timer, ipi, device, polled, unknown; WHAT is the
 * reports' label of the source ("hrtimer hrtimer_wakeup"), to read.
 * Version 1 had no tick (it was a timer) and ended a sleep at the idle
 * exit: it is refused.
 */
#ifndef __TRACE_H
#define __TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_VERSION		2
#define TRACE_MAX_CPUS		8
#define TRACE_WHAT_LEN		48	/* with its NUL */

/* What ended a sleep: X(ID, name), name as the trace spells it. */
#define TRACE_KINDS(X)							\
	X(TICK,		tick)		/* the scheduler tick */	\
	X(TIMER,	timer)		/* an hrtimer, the timer interrupt */ \
	X(IPI,		ipi)		/* another CPU woke it */	\
	X(DEVICE,	device)		/* a device interrupt */	\
	X(POLLED,	polled)		/* another CPU, without an IPI */ \
	X(UNKNOWN,	unknown)

#define TRACE_KIND_ENUM(id, name)	TRACE_##id,
enum trace_kind {
	TRACE_KINDS(TRACE_KIND_ENUM)
	TRACE_NR_KINDS,
};
#undef TRACE_KIND_ENUM

struct trace_sleep {
	uint64_t start_ns;		/* from the origin */
	uint64_t length_ns;
	int cpu;
	enum trace_kind kind;
	char what[TRACE_WHAT_LEN];	/* "" when not given */
};

struct trace {
	uint64_t tick_ns;		/* 0: unknown */
	uint64_t origin_ns;		/* CLOCK_MONOTONIC of time 0 when recorded */
	int nr_cpus;
	size_t nr, alloc;
	struct trace_sleep *sleeps;	/* by start, then CPU */
};

/* "timer", "ipi", ...; NULL for an unknown kind. */
const char *trace_kind_name(enum trace_kind kind);

/* Append a sleep; 0 or -ENOMEM. */
int trace_add(struct trace *t, const struct trace_sleep *sleep);

/* Sort the sleeps by start, then CPU (what trace_write() needs). */
void trace_sort(struct trace *t);

/*
 * Write @t to @f after "# " + each line of @comment (may be NULL).  0, or
 * -EIO when writing failed.
 */
int trace_write(FILE *f, const struct trace *t, const char *comment);

/*
 * Read a trace; on failure -EINVAL (or -ENOMEM, -EIO) with "line N: what
 * is wrong" in @err.  Checked: the version line first, each keyword once
 * before the sleeps, CPUs below cpus (1..TRACE_MAX_CPUS), sleeps in order
 * of start and, on one CPU, not overlapping.
 */
int trace_read(FILE *f, struct trace *t, char *err, size_t err_size);

void trace_free(struct trace *t);

#endif /* __TRACE_H */
