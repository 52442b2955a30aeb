// SPDX-License-Identifier: GPL-2.0
/*
 * idle - do nothing for -d seconds: the baseline.
 *
 * One sleep to the end of the run, so the only wake-ups are the kernel's
 * own (tick when not stopped, timers of other tasks, device interrupts).
 * The tag marks those periods, so the report can show how a governor does
 * on a quiet system next to the patterns that follow.
 */
#define _GNU_SOURCE
#include <errno.h>
#include "workload.h"

static __u64 slept_ns;

static const char argp_doc[] =
"Sleep until the end of the run: the kernel's own wake-ups only.\n"
"\n"
"Default tag: idle.\n"
"\n"
"EXAMPLES:\n"
"    idle -d 5                  # a quiet 5 s\n";

static int run(void)
{
	__u64 start_ns = wl_now_ns();
	int err;

	err = wl_sleep_until(wl_end_ns);
	slept_ns = wl_now_ns() - start_ns;
	return err == -EINTR ? 0 : err;
}

static int summary(void)
{
	wl_summary("slept %.3f s", (double)slept_ns / NSEC_PER_SEC);
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "idle",
	.doc = argp_doc,
	.run = run,
	.summary = summary,
};
