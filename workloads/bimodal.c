// SPDX-License-Identifier: GPL-2.0
/*
 * bimodal - alternate a short and a long sleep: S, L, S, L, ...
 *
 * The idle periods come from two clusters with nothing in between, the case
 * where an average of recent periods predicts a duration that never occurs
 * and a per-bucket correction factor swings between the two.  Each deadline
 * is the previous one plus the next gap, so the alternation stays exact even
 * when a wake-up is late; a gap that has already passed when it is computed
 * is restarted from the wake-up time (an overrun).
 */
#define _GNU_SOURCE
#include "workload.h"

static struct env {
	long short_us;
	long long_us;
} env = {
	.short_us = 200,
	.long_us = 5000,
};

static __u64 nr_short, nr_long;		/* sleeps asked for */

static const char argp_doc[] =
"Alternate a short sleep of -S microseconds with a long one of -L microseconds.\n"
"\n"
"Default tag: bimodal.\n"
"\n"
"EXAMPLES:\n"
"    bimodal -d 5               # 200 us, 5 ms, 200 us, 5 ms, ...\n"
"    bimodal -S 50 -L 20000     # 50 us and 20 ms\n";

static const struct arg_value values[] = {
	ARG_NUM('S', "short", "USEC", "Short sleep in microseconds (default 200)",
		"short sleep", &env.short_us, 1, WL_MAX_USEC),
	ARG_NUM('L', "long", "USEC", "Long sleep in microseconds (default 5000)",
		"long sleep", &env.long_us, 1, WL_MAX_USEC),
	{},
};

static void check(struct argp_state *state)
{
	if (env.short_us >= env.long_us)
		args_error(state, "short sleep (%ld us) must be below long sleep (%ld us)",
			   env.short_us, env.long_us);
}

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	long gap_us;

	/* even wake-ups (the first included) sleep short, odd ones long */
	if (nr_short == nr_long) {
		gap_us = env.short_us;
		nr_short++;
	} else {
		gap_us = env.long_us;
		nr_long++;
	}
	wl_timer.overruns += wl_next_gap(&deadline_ns, gap_us * NSEC_PER_USEC, now_ns);
	return deadline_ns;
}

static int summary(void)
{
	wl_summary("short %ld us, long %ld us, %s", env.short_us, env.long_us,
		   wl_timer_summary());
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "bimodal",
	.doc = argp_doc,
	.values = values,
	.check = check,
	.pinnable = true,
	.next_deadline = next_deadline,
	.summary = summary,
};
