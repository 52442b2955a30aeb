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

/**
 * cli_parse() - parse a subcommand's command line the shared way
 * @argp: the subcommand's options and arguments
 * @name: the subcommand ("report", ...), NULL for the live run
 * @argc: of the command line
 * @argv: the command line: argv[0] "idlescope", argv[1] @name (or, for
 *	the live run, the first option); restored before it returns
 * @input: handed to @argp's parser
 *
 * argp_parse() under the conventions above: getopt and --help name the
 * program "idlescope NAME", and a usage error exits CLI_EXIT_USAGE.
 * Exits on --help (0) and on a usage error; returns only when the whole
 * command line was taken.
 */
void cli_parse(const struct argp *argp, const char *name, int argc, char **argv, void *input);

/**
 * cli_usage_error() - refuse the command line, in one line
 * @fmt: printf format of what is wrong
 * @...: its arguments
 *
 * "idlescope: error: <what>" on stderr, any byte escape_keeps() would not
 * keep written as \xNN: an argument may hold any byte, the message stays
 * one line.  Does not return: exits CLI_EXIT_USAGE.
 */
void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/**
 * cli_flush_stdout() - make sure what went to stdout is all there
 *
 * A command that printed its report to stdout must not exit 0 when a full
 * disk or a closed pipe lost part of it: it calls this before it decides
 * its status.  On failure one line "idlescope: error: writing to stdout:
 * ..." goes to stderr and stdout's error is cleared.
 *
 * Return: 0, or -1 after the error line.
 */
int cli_flush_stdout(void);

/**
 * cli_check_stdout_at_exit() - check stdout when the process exits
 * @error_status: the exit status instead, when stdout was not all written
 *
 * For what exits without the command's own cli_flush_stdout(): argp's
 * --help exits 0 after printing.  From now on such an exit with stdout
 * unwritten prints one line and exits @error_status.
 */
void cli_check_stdout_at_exit(int error_status);

/**
 * cli_parse_integer() - an option's integer value, strictly
 * @arg: the option's text
 * @what: what the value is, as the error line names it ("duration")
 * @min: the least value taken
 * @max: the greatest value taken
 *
 * parse_decimal() (lib/args.h): a whole decimal integer, nothing after
 * it.  Anything else, or a value out of [@min, @max], is a usage error
 * saying the range (cli_usage_error(), which exits).
 *
 * Return: the value.
 */
long long cli_parse_integer(const char *arg, const char *what, long long min, long long max);

/**
 * cli_check_workload_name() - refuse a workload tag the reports would escape
 * @name: the tag given to -w or `idlescope tag`
 *
 * A tag is 1 to IDLESCOPE_WORKLOAD_LEN - 1 printable ASCII characters
 * other than '\': what every report prints as it is (format/escape.h), so
 * a tag means the same in every document.  Anything else is a usage error
 * (cli_usage_error(), which exits).
 */
void cli_check_workload_name(const char *name);

#endif /* __IDLESCOPE_CMD_CLI_H */
