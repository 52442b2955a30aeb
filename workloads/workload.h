/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every idlescope workload shares.
 *
 * A workload makes one known idle pattern for -d seconds and, while it runs,
 * names that pattern in the loader's pinned tag map so every idle period the
 * BPF side records carries the workload's name.  The pieces here are the
 * ones each pattern needs and that must behave the same everywhere: the
 * common options (-d, -s, -t, -c), the tag, a seeded PRNG (so a pattern is
 * the same sequence of sleeps on every run; lib/rng.h), absolute-deadline
 * sleeps on CLOCK_MONOTONIC (so lateness does not accumulate into drift), CPU
 * pinning, and the lateness statistics the summaries print (lib/stats.h).
 */
#ifndef __WORKLOAD_H
#define __WORKLOAD_H

#include <argp.h>
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

/* What the common options set; programs read it after argp_parse(). */
struct wl_env {
	long duration_s;		/* -d */
	__u64 seed;			/* -s */
	char tag[IDLESCOPE_WORKLOAD_LEN];	/* -t, or the program's default */
	bool tag_given;			/* -t was on the command line */
	int cpu;			/* -c, -1 = not pinned */
};

extern struct wl_env wl_env;
extern const char *wl_prog;		/* program name, prefixes every message */
extern volatile sig_atomic_t wl_exiting;	/* SIGINT or SIGTERM arrived */

/*
 * argp children: -d/-s/-t (and -h) for every workload, -c for those that run
 * on one CPU.  Use as { &wl_argp, 0, "Common options:", 1 }.
 */
extern const struct argp wl_argp;
extern const struct argp wl_cpu_argp;

/* "1ms", "100us", "2s": the compact duration used in default tags. */
void wl_fmt_usec(char *buf, size_t size, long usec);

/*
 * Default tag = base followed by the compact form of usec (usec < 0: base
 * alone), unless -t was given.  A name that would not fit
 * IDLESCOPE_WORKLOAD_LEN - 1 characters falls back to base alone.
 */
void wl_default_tag(const char *base, long usec);

/*
 * What any program sleeping to deadlines needs: SIGINT/SIGTERM handlers
 * without SA_RESTART (blocking calls return EINTR and loops see
 * wl_exiting) and a timer slack of 1 ns (exact deadlines).
 */
void wl_prepare(void);

/*
 * Start a run: wl_prepare(), -c pinning, the tag, and wl_end_ns.  Returns 0
 * or a negative errno when pinning failed (already reported).
 */
int wl_start(void);

/* End a run: clear the tag (all-zero name) and close the map. */
void wl_stop(void);

/* True once the tag is in the loader's map; summaries say so. */
bool wl_tagged(void);

/* " (not set)" when the tag could not be written, "" otherwise. */
const char *wl_tag_note(void);

/* CLOCK_MONOTONIC in ns; the run's end (start + -d) once wl_start() ran. */
__u64 wl_now_ns(void);
extern __u64 wl_end_ns;

/*
 * Sleep until the absolute CLOCK_MONOTONIC time deadline_ns.  Returns 0 on
 * time, -EINTR when a signal asked the run to stop.
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

/* One run of a timer pattern: wake-ups at absolute deadlines. */
struct wl_timer_run {
	__u64 wakeups;
	__u64 overruns;			/* deadlines already past when computed */
	struct duration_stats lateness;	/* wake-up time minus deadline */
};

/*
 * A pattern's rule for its next deadline, given the one just slept to (the
 * start time before the first) and the time now; counts an overrun in run
 * when it had to skip or rebase.
 */
typedef __u64 (*wl_next_deadline_fn)(struct wl_timer_run *run, void *ctx,
				     __u64 deadline_ns, __u64 now_ns);

/*
 * The loop every timer pattern shares: next deadline, sleep until it,
 * record the lateness; until the next deadline falls after the end of the
 * run or a signal arrives.  Returns 0 or a negative errno.
 */
int wl_run_timer(wl_next_deadline_fn next, void *ctx, struct wl_timer_run *run);

/* "4999 wakeups, lateness mean ... max 812.0 us[, 3 overruns]" */
void wl_timer_fmt(struct wl_timer_run *run, char *buf, size_t size);

/*
 * A whole timer pattern: tag, wl_run_timer(), untag, and its summary line
 * (wl_timer_fmt()) in summary[].  Returns 0 or a negative errno.
 */
int wl_run_pattern(wl_next_deadline_fn next, void *ctx, char *summary, size_t size);

#endif /* __WORKLOAD_H */
