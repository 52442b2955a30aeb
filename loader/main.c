// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope - measure how well cpuidle governors predict idle durations.
 *
 * The command line's first word picks the subcommand, each a file of
 * cmd/ that parses its options and calls down: `tag` retags a running
 * live run (cmd/tag.c); `dump`, `report`, `compare` and `extract` read
 * record files off-line (cmd/dump.c, cmd/report.c, cmd/compare.c,
 * cmd/extract.c); anything else is the live run's options (cmd/live.c).
 */
#include <string.h>
#include "cmd/cli.h"
#include "cmd/compare.h"
#include "cmd/dump.h"
#include "cmd/extract.h"
#include "cmd/live.h"
#include "cmd/report.h"
#include "cmd/tag.h"

const char *argp_program_version = "idlescope 0.1";

int main(int argc, char **argv)
{
	/* compare's 1 is its verdict: its errors are 2. */
	int error_status = argc > 1 && !strcmp(argv[1], "compare") ? CLI_EXIT_USAGE :
			   CLI_EXIT_ERROR;
	int ret;

	cli_check_stdout_at_exit(error_status);
	if (argc > 1 && !strcmp(argv[1], "tag")) {
		ret = tag_command(argc, argv);
	} else if (argc > 1 && !strcmp(argv[1], "dump")) {
		ret = dump_command(argc, argv);
	} else if (argc > 1 && !strcmp(argv[1], "report")) {
		ret = report_command(argc, argv);
	} else if (argc > 1 && !strcmp(argv[1], "compare")) {
		ret = compare_command(argc, argv);
	} else if (argc > 1 && !strcmp(argv[1], "extract")) {
		ret = extract_command(argc, argv);
	} else {
		ret = live_run_command(argc, argv);
	}
	/* A full disk or a closed pipe: the output is not all there. */
	return cli_flush_stdout() ? error_status : ret;
}
