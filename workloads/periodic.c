// SPDX-License-Identifier: GPL-2.0
/*
 * periodic - wake up at a fixed interval: the seed's "repeating pattern".
 *
 * Every idle period ends at the next grid point start + k * period, so the
 * governor's next-timer input alone predicts each period exactly and any
 * misprediction is the governor's own.  Deadlines are absolute, so lateness
 * never accumulates into drift; a wake-up so late that the next grid point
 * has passed skips to the first one still ahead (an overrun) instead of
 * catching up with zero-length sleeps.  The lateness of every wake-up (time
 * woken minus deadline) is measured, for the overhead benchmarks.
 */
#define _GNU_SOURCE
#include "workload.h"

static struct env {
	long period_us;
} env = {
	.period_us = 1000,
};

static const char argp_doc[] =
"Wake up every -p microseconds at absolute deadlines and measure lateness.\n"
"\n"
"Default tag: periodic<PERIOD>, e.g. periodic1ms, periodic100us.\n"
"\n"
"EXAMPLES:\n"
"    periodic -d 5            # 1 ms period for 5 s, tag periodic1ms\n"
"    periodic -p 10000 -c 1   # 10 ms period on CPU 1, tag periodic10ms\n";

static const struct arg_value values[] = {
	ARG_NUM('p', "period", "USEC", "Wake every USEC microseconds (default 1000)",
		"period", &env.period_us, 1, WL_MAX_USEC),
	{},
};

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	wl_timer.overruns += wl_next_period(&deadline_ns, env.period_us * NSEC_PER_USEC,
					    now_ns);
	return deadline_ns;
}

static int summary(void)
{
	wl_summary("period %ld us, %s", env.period_us, wl_timer_summary());
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "periodic",
	.doc = argp_doc,
	.values = values,
	.pinnable = true,
	.tag_param_us = &env.period_us,
	.grid_period_us = &env.period_us,
	.next_deadline = next_deadline,
	.summary = summary,
};
