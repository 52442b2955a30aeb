// SPDX-License-Identifier: GPL-2.0
/* tag.c - `idlescope tag [NAME]`: its one argument, then live_retag(). */
#include <argp.h>
#include <stddef.h>
#include "cmd/cli.h"
#include "cmd/tag.h"
#include "live/run.h"

static error_t tag_parse(int key, char *arg, struct argp_state *state)
{
	const char **name = state->input;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	if (*name)
		cli_usage_error("usage: idlescope tag [NAME] (one name, not '%s' too)", arg);
	cli_check_workload_name(arg);
	*name = arg;
	return 0;
}

int tag_command(int argc, char **argv)
{
	static const struct argp argp = {
		.parser = tag_parse,
		.args_doc = "[NAME]",
		.doc = "Tag the idle periods of the running idlescope with workload NAME "
		       "from now on; without NAME, untag them.\v" CLI_EXIT_DOC,
	};
	const char *name = NULL;

	cli_parse(&argp, "tag", argc, argv, &name);
	return live_retag(name);
}
