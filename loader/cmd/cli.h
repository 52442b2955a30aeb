/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - the command line every idlescope subcommand shares: argp, with
 * --help (-h) on stdout and exit status 0, and the exit statuses listed
 * there; a usage error (an unknown option, a bad value, a missing or
 * extra argument) is one line on stderr and exit status CLI_EXIT_USAGE,
 * in every subcommand; numbers are read strictly (lib/args.h).
 *
 *	0	done (compare: no regression past --fail-above)
 *	1	an error: a bad or unreadable record file, a failed write, the
 *		BPF side (compare: only a regression past --fail-above)
 *	2	a usage error (compare: and every error, 1 being its verdict)
 */
#ifndef __IDLESCOPE_CMD_CLI_H
#define __IDLESCOPE_CMD_CLI_H

#include <argp.h>

#define CLI_EXIT_OK		0
#define CLI_EXIT_ERROR		1
#define CLI_EXIT_USAGE		2

/* The exit status lines of --help: argp's doc after "\v". */
#define CLI_EXIT_DOC \
	"Exit status: 0 done; 1 an error (a bad record file, the BPF side, a " \
	"failed write); 2 a usage error."

/*
 * argp_parse() of `idlescope NAME ARGS...` (argv[0] is "idlescope",
 * argv[1] NAME, or the first option for the live run, @name NULL) with
 * the conventions above; exits on --help and on a usage error.
 */
void cli_parse(const struct argp *argp, const char *name, int argc, char **argv, void *input);

/*
 * "idlescope: error: <fmt>" on stderr, its control bytes as \xNN (one
 * line, whatever the arguments hold), exit status CLI_EXIT_USAGE.
 */
void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Flush stdout: 0, or -1 after one error line when what was written there
 * is not all there (a full disk, a closed pipe).
 */
int cli_flush_stdout(void);

/*
 * From now on, a process that exits with stdout unwritten (argp's --help
 * exits 0 after printing) exits @error_status instead, after one line.
 */
void cli_check_stdout_at_exit(int error_status);

/* parse_decimal() of an option's value in [min, max], or cli_usage_error(). */
long long cli_parse_integer(const char *arg, const char *what, long long min, long long max);

/*
 * A workload tag given to -w or `idlescope tag`: 1 to 15 printable ASCII
 * characters but '\' (what every report prints as it is: format/escape.h),
 * or cli_usage_error().
 */
void cli_check_workload_name(const char *name);

#endif /* __IDLESCOPE_CMD_CLI_H */
