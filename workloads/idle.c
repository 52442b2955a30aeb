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
#include <stdio.h>
#include <string.h>
#include "workload.h"

static const char argp_doc[] =
"Sleep until the end of the run: the kernel's own wake-ups only.\n"
"\n"
"Default tag: idle.\n"
"\n"
"EXAMPLES:\n"
"    idle -d 5                  # a quiet 5 s\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &wl_argp, 0, "Common options:", 1 },
		{},
	};
	static const struct argp argp = {
		.parser = parse_arg,
		.doc = argp_doc,
		.children = children,
	};
	__u64 start_ns;
	int err;

	wl_prog = "idle";
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	wl_default_tag("idle", -1);

	err = wl_start();
	if (err)
		goto cleanup;
	start_ns = wl_now_ns();
	err = wl_sleep_until(wl_end_ns);
	wl_stop();
	if (err == -EINTR) {
		err = 0;
	} else if (err) {
		fprintf(stderr, "idle: clock_nanosleep: %s\n", strerror(-err));
		goto cleanup;
	}

	printf("idle: slept %.3f s, tag %s%s\n",
	       (double)(wl_now_ns() - start_ns) / NSEC_PER_SEC, wl_env.tag, wl_tag_note());

cleanup:
	wl_stop();
	return err ? 1 : 0;
}
