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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "workload.h"

static struct env {
	long mean_us;
} env = {
	.mean_us = 2000,
};

struct poisson_state {
	struct rng rng;
	__u64 gaps;
	double gap_sum_ns;
};

static const char argp_doc[] =
"Sleep exponentially distributed gaps with mean -m microseconds.\n"
"\n"
"Default tag: poisson<MEAN>, e.g. poisson2ms.\n"
"\n"
"EXAMPLES:\n"
"    poisson -d 5               # mean gap 2 ms, seed 1\n"
"    poisson -m 500 -s 7        # mean gap 500 us, seed 7\n";

static const struct argp_option opts[] = {
	{ "mean", 'm', "USEC", 0, "Mean gap in microseconds (default 2000)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'm':
		env.mean_us = parse_long_arg(arg, "mean gap", 1, WL_MAX_USEC, state);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static __u64 next_deadline(struct wl_timer_run *run, void *ctx, __u64 deadline_ns,
			   __u64 now_ns)
{
	struct poisson_state *ps = ctx;
	double gap_ns = rng_exp(&ps->rng, (double)env.mean_us * NSEC_PER_USEC);

	if (gap_ns < 1)
		gap_ns = 1;
	ps->gaps++;
	ps->gap_sum_ns += gap_ns;
	run->overruns += wl_next_gap(&deadline_ns, (__u64)gap_ns, now_ns);
	return deadline_ns;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &wl_argp, 0, "Common options:", 1 },
		{ &wl_cpu_argp, 0, NULL, 1 },
		{},
	};
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
		.children = children,
	};
	struct poisson_state ps = {};
	char summary[256];
	int err;

	wl_prog = "poisson";
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	wl_default_tag("poisson", env.mean_us);
	rng_seed(&ps.rng, wl_env.seed);

	err = wl_run_pattern(next_deadline, &ps, summary, sizeof(summary));
	if (err)
		goto cleanup;
	/* the gap drawn last ended after the run and was not slept */
	printf("poisson: mean %ld us, drawn mean %.1f us, %s, tag %s%s\n", env.mean_us,
	       ps.gaps ? ps.gap_sum_ns / ps.gaps / NSEC_PER_USEC : 0.0, summary,
	       wl_env.tag, wl_tag_note());

cleanup:
	return err ? 1 : 0;
}
