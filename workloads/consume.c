// SPDX-License-Identifier: GPL-2.0
/*
 * consume - a periodic load: busy -b microseconds every period, -f times
 * a second.
 *
 * Doug Smythies' "consume" loads in his menu and teo test reports: a CPU
 * that works a fixed time at a fixed rate and idles the rest of each
 * period.  Each idle period ends at the next grid point, which the next
 * timer announces exactly; what the governor must get right is that the
 * idle time is the period minus the work, at rates (73 to 401 Hz) whose
 * periods are no whole number of ticks, so the tick falls at a different
 * place in each period.  The work is a spin on CLOCK_MONOTONIC, started at
 * each wake-up: a late wake-up shortens the idle time that follows, it
 * does not move the grid.
 */
#define _GNU_SOURCE
#include "workload.h"

static struct env {
	long rate_hz;
	long busy_us;
	long period_us;			/* 1e6 / rate_hz, rounded */
} env = {
	.rate_hz = 73,
	.busy_us = 1000,
};

static const char argp_doc[] =
"Busy -b microseconds at each of -f wake-ups a second, on a grid.\n"
"\n"
"Default tag: consume.\n"
"\n"
"EXAMPLES:\n"
"    consume -f 73 -b 1000      # 1 ms of work every 13.7 ms\n"
"    consume -f 401 -b 500 -c 1 # 0.5 ms every 2.49 ms on CPU 1\n";

static const struct arg_value values[] = {
	ARG_NUM('f', "rate", "HZ", "Wake HZ times a second (default 73)",
		"rate", &env.rate_hz, 1, 100000),
	ARG_NUM('b', "busy", "USEC", "Spin USEC microseconds after each wake-up (default 1000)",
		"busy", &env.busy_us, 0, WL_MAX_USEC),
	{},
};

static void check(struct argp_state *state)
{
	env.period_us = (1000000 + env.rate_hz / 2) / env.rate_hz;
	if (env.busy_us >= env.period_us)
		args_error(state, "-b %ld us leaves no idle time in a %ld us period (-f %ld)",
			   env.busy_us, env.period_us, env.rate_hz);
}

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	wl_timer.overruns += wl_next_period(&deadline_ns, env.period_us * NSEC_PER_USEC,
					    now_ns);
	return deadline_ns;
}

/* The work of one period: spin -b microseconds. */
static int wakeup(void)
{
	return wl_spin_us(env.busy_us) ? 0 : -EINTR;
}

static int summary(void)
{
	wl_summary("rate %ld Hz, period %ld us, busy %ld us, %s", env.rate_hz, env.period_us,
		   env.busy_us, wl_timer_summary());
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "consume",
	.doc = argp_doc,
	.values = values,
	.check = check,
	.pinnable = true,
	.grid_period_us = &env.period_us,
	.next_deadline = next_deadline,
	.wakeup = wakeup,
	.summary = summary,
};
