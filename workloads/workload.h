/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every idlescope workload shares.
 *
 * A workload makes one known idle pattern for -d seconds and, while it runs,
 * names that pattern in the loader's pinned tag map so every idle period the
 * BPF side records carries the workload's name.  Every program has the same
 * life, so it is written once, as the main() of workload.c: parse the
 * options (the pattern's own and the common -d, -s, -t, -c, -P), choose the
 * default tag, open what the run needs, tag, run until the end of -d or a
 * signal, untag, print one summary line, close, exit 0 or 1 (64 for bad
 * options).  A program only describes its pattern, in the struct wl_pattern
 * it defines as wl_pattern: its options (a table, lib/args.h), its run (or,
 * for a timer pattern, its rule for the next deadline) and its summary.
 *
 * The pieces the patterns build on must behave the same everywhere:
 * absolute-deadline sleeps on CLOCK_MONOTONIC (lateness does not accumulate
 * into drift), the seeded PRNG (lib/rng.h: a pattern is the same sequence of
 * sleeps on every run), CPU pinning, and the duration statistics the
 * summaries print (lib/stats.h).
 */
#ifndef __WORKLOAD_H
#define __WORKLOAD_H

#include <argp.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "args.h"
#include "idlescope.h"
#include "rng.h"
#include "stats.h"

#define WL_DEFAULT_DURATION_S	10
#define WL_DEFAULT_SEED		1
#define WL_MAX_USEC		10000000L	/* 10 s: longest gap any option takes */

#define NSEC_PER_USEC		1000ULL
#define NSEC_PER_SEC		1000000000ULL

/* What the common options set; patterns read it from open() on. */
struct wl_env {
	long duration_s;		/* -d */
	__u64 seed;			/* -s */
	char tag[IDLESCOPE_WORKLOAD_LEN];	/* -t, or the default tag */
	bool tag_given;			/* -t was on the command line */
	int cpu;			/* -c, -1 = not pinned */
	long phase_us;			/* -P, or drawn: a grid pattern's phase */
};

extern struct wl_env wl_env;
extern volatile sig_atomic_t wl_exiting;	/* SIGINT or SIGTERM arrived */
extern __u64 wl_end_ns;		/* CLOCK_MONOTONIC end of the run (start + -d) */
extern struct rng wl_rng;	/* the pattern's random draws, seeded with -s */

/* One run of a timer pattern: wake-ups at absolute deadlines. */
struct wl_timer_run {
	__u64 wakeups;
	__u64 overruns;			/* deadlines already past when computed */
	struct duration_stats lateness;	/* wake-up time minus deadline */
};

/* A timer pattern's run, for its summary. */
extern struct wl_timer_run wl_timer;

/*
 * A timer pattern's rule for its next deadline, given the one just slept to
 * (the start time before the first) and the time now; counts an overrun in
 * wl_timer when it had to skip or rebase.
 */
typedef __u64 (*wl_next_deadline_fn)(__u64 deadline_ns, __u64 now_ns);

/* One workload program: its pattern, for main(). */
struct wl_pattern {
	const char *name;		/* program name, message prefix, default tag */
	const char *doc;		/* argp doc: what it does, default tag, EXAMPLES */
	const struct arg_value *values;	/* the pattern's own options, or NULL */
	/* Optional: after parsing, check the values against each other,
	 * set defaults that depend on others; args_error() on a bad one. */
	void (*check)(struct argp_state *state);
	bool pinnable;			/* takes -c CPU */
	bool untagged;			/* host side (irqfeed): no tag, no -s/-t */
	/*
	 * A grid pattern: its deadlines lie on a grid of this period whose
	 * phase main() sets (-P, or drawn from the seed) and the summary
	 * prints.  The phase is the grid's offset from whole periods of
	 * CLOCK_MONOTONIC.  The tick runs on whole ticks of CLOCK_MONOTONIC
	 * (tick_init_jiffy_update() aligns it), so for a period of whole
	 * ticks this is the phase against the tick, which a governor's
	 * choice may depend on; were it left to when the program starts,
	 * two runs with one seed could differ by it.
	 */
	const long *grid_period_us;
	/* The default tag is name + this parameter in compact units, if > 0. */
	const long *tag_param_us;

	/* Optional: what the run needs (device, pipes), opened untagged.
	 * Returns 0 or a negative errno, having said what failed. */
	int (*open)(void);
	/* Either a timer pattern: wake-ups at the deadlines this gives ... */
	wl_next_deadline_fn next_deadline;
	/* ... optionally acting on each: 0 counts it, 1 skips it (not a
	 * wake-up of the pattern), a negative errno ends the run. */
	int (*wakeup)(void);
	/* ... or the whole run, until wl_end_ns or wl_exiting.  Returns 0 or
	 * a negative errno, having said what failed. */
	int (*run)(void);
	/* Print the summary line with wl_summary().  Returns 0, or a negative
	 * errno when the run, though complete, did not make its pattern. */
	int (*summary)(void);
	/* Optional: undo open(), also after it failed part way. */
	void (*close)(void);
};

/* Each program's one definition: what main() runs (see the top of this file). */
extern const struct wl_pattern wl_pattern;

/* "NAME: <fmt>, tag TAG[ (not set)]\n" on stdout: the summary line. */
void wl_summary(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * "[phase 437 us, ]4999 wakeups, lateness mean ... max 812.0 us[, 3
 * overruns]" of wl_timer; the phase for a grid pattern.
 */
const char *wl_timer_summary(void);

/* CLOCK_MONOTONIC in ns. */
__u64 wl_now_ns(void);

/*
 * Work: spin on CLOCK_MONOTONIC for usec microseconds, or until a signal
 * asks the run to stop.  Returns false then.
 */
bool wl_spin_us(long usec);

/*
 * Sleep until the absolute CLOCK_MONOTONIC time deadline_ns.  Returns 0 on
 * time, -EINTR when a signal asked the run to stop, another negative errno
 * (reported) when the clock failed.
 */
int wl_sleep_until(__u64 deadline_ns);

/*
 * Next slot of a fixed grid: advance *deadline_ns by period_ns and, when
 * that is already past now_ns, by as many whole periods as needed so that no
 * burst of zero-length sleeps follows a late wake-up.  Returns the number of
 * periods skipped.
 */
__u64 wl_next_period(__u64 *deadline_ns, __u64 period_ns, __u64 now_ns);

/*
 * Next deadline of a random sequence: *deadline_ns + gap_ns, or now_ns +
 * gap_ns when that is already past (the gap is kept, the phase is not).
 * Returns true when it rebased.
 */
bool wl_next_gap(__u64 *deadline_ns, __u64 gap_ns, __u64 now_ns);

/* CPUs this process may run on, in order; returns how many (<= max). */
int wl_usable_cpus(int *cpus, int max);

/* Pin the calling thread to cpu; reports failure and returns -errno. */
int wl_pin_cpu(int cpu);

#endif /* __WORKLOAD_H */
