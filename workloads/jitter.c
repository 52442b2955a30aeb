// SPDX-License-Identifier: GPL-2.0
/*
 * jitter - a periodic pattern with noise: wake at start + k * period + n_k,
 * n_k uniform in [-jitter, +jitter] and drawn from the seeded PRNG.
 *
 * The grid keeps the mean period exact while each idle period varies, so a
 * predictor that learns "about one period" does well and one that expects
 * exact repetition does not.  jitter <= period / 2 keeps the wake-ups in
 * order (no negative gaps).  The noise sequence depends on -s only, so two
 * runs with the same seed ask for the same deadlines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "workload.h"

static struct env {
	long period_us;
	long jitter_us;			/* -1 until given: 20% of period */
} env = {
	.period_us = 1000,
	.jitter_us = -1,
};

struct jitter_state {
	struct rng rng;
	__u64 grid_ns;			/* the current grid point, noise-free */
};

static const char argp_doc[] =
"Wake up every -p microseconds plus or minus uniform noise of -j microseconds.\n"
"\n"
"Default tag: jitter<PERIOD>, e.g. jitter1ms.\n"
"\n"
"EXAMPLES:\n"
"    jitter -d 5                # 1 ms +- 200 us for 5 s\n"
"    jitter -p 10000 -j 5000    # 10 ms +- 5 ms, seed 1\n";

static const struct argp_option opts[] = {
	{ "period", 'p', "USEC", 0, "Mean period in microseconds (default 1000)", 0 },
	{ "jitter", 'j', "USEC", 0,
	  "Noise amplitude in microseconds, at most period/2 (default period/5)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'p':
		env.period_us = parse_long_arg(arg, "period", 1, WL_MAX_USEC, state);
		break;
	case 'j':
		env.jitter_us = parse_long_arg(arg, "jitter", 0, WL_MAX_USEC, state);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (env.jitter_us < 0)
			env.jitter_us = env.period_us / 5;
		if (env.jitter_us > env.period_us / 2)
			argp_error(state, "jitter (%ld us) must be at most period/2 (%ld us)",
				   env.jitter_us, env.period_us);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static __u64 next_deadline(struct wl_timer_run *run, void *ctx, __u64 deadline_ns,
			   __u64 now_ns)
{
	struct jitter_state *js = ctx;
	__s64 jitter_ns = env.jitter_us * NSEC_PER_USEC;
	__s64 noise_ns;

	if (!js->grid_ns)		/* first call: deadline_ns is the start */
		js->grid_ns = deadline_ns;
	noise_ns = rng_range(&js->rng, -jitter_ns, jitter_ns);
	/* noise may put a deadline just behind us; a passed grid point is skipped */
	run->overruns += wl_next_period(&js->grid_ns, env.period_us * NSEC_PER_USEC, now_ns);
	return js->grid_ns + noise_ns;
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
	struct jitter_state js = {};
	char summary[256];
	int err;

	wl_prog = "jitter";
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	wl_default_tag("jitter", env.period_us);
	rng_seed(&js.rng, wl_env.seed);

	err = wl_run_pattern(next_deadline, &js, summary, sizeof(summary));
	if (err)
		goto cleanup;
	printf("jitter: period %ld +- %ld us, %s, tag %s%s\n", env.period_us,
	       env.jitter_us, summary, wl_env.tag, wl_tag_note());

cleanup:
	return err ? 1 : 0;
}
