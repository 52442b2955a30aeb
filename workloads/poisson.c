// SPDX-License-Identifier: GPL-2.0
/*
 * poisson - random arrivals: exponentially distributed gaps with mean -m.
 *
 * A Poisson process is memoryless: the time since the last wake-up says
 * nothing about the next one, so no history-based predictor can beat the
 * next-timer value, and a governor that learns from history should at least
 * not do worse.  The gaps come from the seeded PRNG, so a seed is one fixed
 * sequence of requested sleeps.  Each deadline is the previous one plus the
 * next gap; a gap that has already passed restarts from the wake-up time.
 */
#define _GNU_SOURCE
#include "workload.h"

static struct env {
	long mean_us;
} env = {
	.mean_us = 2000,
};

/* The gaps drawn, to show the draws' mean beside the asked one. */
static __u64 gaps;
static double gap_sum_ns;

static const char argp_doc[] =
"Sleep exponentially distributed gaps with mean -m microseconds.\n"
"\n"
"Default tag: poisson<MEAN>, e.g. poisson2ms.\n"
"\n"
"EXAMPLES:\n"
"    poisson -d 5               # mean gap 2 ms, seed 1\n"
"    poisson -m 500 -s 7        # mean gap 500 us, seed 7\n";

static const struct arg_value values[] = {
	ARG_NUM('m', "mean", "USEC", "Mean gap in microseconds (default 2000)",
		"mean gap", &env.mean_us, 1, WL_MAX_USEC),
	{},
};

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	double gap_ns = rng_exp(&wl_rng, (double)env.mean_us * NSEC_PER_USEC);

	if (gap_ns < 1)
		gap_ns = 1;
	gaps++;
	gap_sum_ns += gap_ns;
	wl_timer.overruns += wl_next_gap(&deadline_ns, (__u64)gap_ns, now_ns);
	return deadline_ns;
}

static int summary(void)
{
	/* the gap drawn last ended after the run and was not slept */
	wl_summary("mean %ld us, drawn mean %.1f us, %s", env.mean_us,
		   gaps ? gap_sum_ns / gaps / NSEC_PER_USEC : 0.0, wl_timer_summary());
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "poisson",
	.doc = argp_doc,
	.values = values,
	.pinnable = true,
	.tag_param_us = &env.mean_us,
	.next_deadline = next_deadline,
	.summary = summary,
};
