// SPDX-License-Identifier: GPL-2.0
/*
 * cli_stub - the idlescope command line (loader/main.c, loader/cmd/live.c)
 * with a live run that only says what it would have run: tests/cli/cli.sh
 * checks the live run's options on the host, where nothing may be loaded
 * into the kernel.  `tag` is the real loader's (tests/cli/cli.sh runs it there).
 */
#include <stdio.h>
#include "live/run.h"

int live_command(const struct live_cmd_opts *o)
{
	printf("live run: -d %ld -i %ld -b %ld -w %s\n", o->duration_s, o->interval_s,
	       o->bpf.ringbuf_bytes, o->workload ? o->workload : "(none)");
	return 0;
}

int tag_command(int argc, char **argv)
{
	fprintf(stderr, "cli_stub: tag is the real loader's\n");
	return 3;
}
