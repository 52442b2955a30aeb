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
#include "workload.h"

static struct env {
	long period_us;
	long jitter_us;			/* -1 until given: 20% of period */
} env = {
	.period_us = 1000,
	.jitter_us = -1,
};

static __u64 grid_ns;			/* the current grid point, noise-free */

static const char argp_doc[] =
"Wake up every -p microseconds plus or minus uniform noise of -j microseconds.\n"
"\n"
"Default tag: jitter<PERIOD>, e.g. jitter1ms.\n"
"\n"
"EXAMPLES:\n"
"    jitter -d 5                # 1 ms +- 200 us for 5 s\n"
"    jitter -p 10000 -j 5000    # 10 ms +- 5 ms, seed 1\n";

static const struct arg_value values[] = {
	ARG_NUM('p', "period", "USEC", "Mean period in microseconds (default 1000)",
		"period", &env.period_us, 1, WL_MAX_USEC),
	ARG_NUM('j', "jitter", "USEC",
		"Noise amplitude in microseconds, at most period/2 (default period/5)",
		"jitter", &env.jitter_us, 0, WL_MAX_USEC),
	{},
};

static void check(struct argp_state *state)
{
	if (env.jitter_us < 0)
		env.jitter_us = env.period_us / 5;
	if (env.jitter_us > env.period_us / 2)
		args_error(state, "jitter (%ld us) must be at most period/2 (%ld us)",
			   env.jitter_us, env.period_us);
}

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	__s64 jitter_ns = env.jitter_us * NSEC_PER_USEC;
	__s64 noise_ns;

	if (!grid_ns)			/* first call: deadline_ns is the start */
		grid_ns = deadline_ns;
	noise_ns = rng_range(&wl_rng, -jitter_ns, jitter_ns);
	/* noise may put a deadline just behind us; a passed grid point is skipped */
	wl_timer.overruns += wl_next_period(&grid_ns, env.period_us * NSEC_PER_USEC, now_ns);
	return grid_ns + noise_ns;
}

static int summary(void)
{
	wl_summary("period %ld +- %ld us, %s", env.period_us, env.jitter_us,
		   wl_timer_summary());
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "jitter",
	.doc = argp_doc,
	.values = values,
	.check = check,
	.pinnable = true,
	.tag_param_us = &env.period_us,
	.grid_period_us = &env.period_us,
	.next_deadline = next_deadline,
	.summary = summary,
};
