// SPDX-License-Identifier: GPL-2.0
/*
 * bgtimers - a background population of timers, as a desktop of 2010 had:
 * periodic timers seconds apart, each on a grid of its own, so that an idle
 * CPU nearly always has a timer due within seconds.
 *
 * A guest as quiet as idlescope's often has no timer at all on a CPU (the
 * sleep length the governor is given is then the ~4.4e13 ns of "none"),
 * which the 2010 menu governors, casting it to 32 bits of ns as 2.6.34 did,
 * turn into a pseudo-random expected duration.  With bgtimers running, the
 * next timer stays below the longest period.  It tags nothing: its periods
 * count towards whatever workload runs beside it.
 *
 * One sleeper stands for the whole population: it wakes at the earliest
 * next grid point of the timers of -p, which is the next timer a CPU with
 * those timers would have.  Each grid's phase is drawn from a fixed seed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workload.h"

#define MAX_TIMERS	8
#define MAX_PERIOD_MS	60000

static struct env {
	const char *periods;
} env = {
	.periods = "250,1000,2000",
};

static int nr_timers;
static __u64 period_ns[MAX_TIMERS];
static __u64 next_ns[MAX_TIMERS];	/* each timer's next grid point */

static const char argp_doc[] =
"Keep a population of periodic timers (-p, milliseconds, comma separated)\n"
"due on this CPU, so that the next timer is never further than the longest\n"
"period: a desktop's background.  Tags nothing.\n"
"\n"
"EXAMPLES:\n"
"    bgtimers -d 60 -c 0          # timers of 250 ms, 1 s and 2 s on CPU 0\n"
"    bgtimers -d 60 -p 1000       # one timer a second\n";

static const struct arg_value values[] = {
	ARG_STR('p', "periods", "MS,...", "Timer periods in ms (default 250,1000,2000)",
		"periods", &env.periods, 255),
	{},
};

/* -p: 1 to MAX_TIMERS whole numbers of ms, 1 to MAX_PERIOD_MS each. */
static void check(struct argp_state *state)
{
	const char *p = env.periods;
	char *end;
	long ms;

	for (nr_timers = 0; *p; nr_timers++) {
		errno = 0;
		ms = strtol(p, &end, 10);
		if (end == p || errno || ms < 1 || ms > MAX_PERIOD_MS ||
		    (*end && *end != ',') || nr_timers == MAX_TIMERS)
			args_error(state, "periods must be 1 to %d numbers from 1 to %d ms, "
				   "comma separated, not '%s'", MAX_TIMERS, MAX_PERIOD_MS,
				   env.periods);
		period_ns[nr_timers] = ms * 1000000ULL;
		p = *end ? end + 1 : end;
	}
	if (!nr_timers)
		args_error(state, "periods must not be empty");
}

/* Each grid's first point: now plus a phase drawn within its period. */
static int open_timers(void)
{
	__u64 now_ns = wl_now_ns();
	int i;

	for (i = 0; i < nr_timers; i++)
		next_ns[i] = now_ns + rng_range(&wl_rng, 1, period_ns[i]);
	return 0;
}

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	__u64 earliest = ~0ULL;
	int i;

	for (i = 0; i < nr_timers; i++) {
		while (next_ns[i] <= deadline_ns)
			next_ns[i] += period_ns[i];
		if (next_ns[i] <= now_ns)
			wl_timer.overruns += wl_next_period(&next_ns[i], period_ns[i], now_ns);
		if (next_ns[i] < earliest)
			earliest = next_ns[i];
	}
	return earliest;
}

static int summary(void)
{
	wl_summary("periods %s ms, %s", env.periods, wl_timer_summary());
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "bgtimers",
	.doc = argp_doc,
	.values = values,
	.check = check,
	.pinnable = true,
	.untagged = true,
	.open = open_timers,
	.next_deadline = next_deadline,
	.summary = summary,
};
