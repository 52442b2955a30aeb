// SPDX-License-Identifier: GPL-2.0
/* cli.c - the command line every subcommand shares (see cmd/cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include "args.h"
#include "idlescope.h"
#include "cmd/cli.h"
#include "format/escape.h"

void cli_usage_error(const char *fmt, ...)
{
	char line[1024];
	const char *c;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* An argument may hold any byte: the line stays one line ('\' is the message's). */
	fputs("idlescope: error: ", stderr);
	for (c = line; *c; c++)
		if (escape_keeps(*c) || *c == '\\')
			fputc(*c, stderr);
		else
			fprintf(stderr, "\\x%02x", (unsigned char)*c);
	fputc('\n', stderr);
	exit(CLI_EXIT_USAGE);
}

static int stdout_error_status = CLI_EXIT_ERROR;

int cli_flush_stdout(void)
{
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	fprintf(stderr, "idlescope: error: writing to stdout: %s\n",
		errno ? strerror(errno) : "I/O error");
	clearerr(stdout);
	return -1;
}

/* What exit() leaves unchecked: --help's text (argp exits 0 after it). */
static void flush_at_exit(void)
{
	if (cli_flush_stdout())
		_exit(stdout_error_status);
}

void cli_check_stdout_at_exit(int error_status)
{
	stdout_error_status = error_status;
	atexit(flush_at_exit);
}

long long cli_parse_integer(const char *arg, const char *what, long long min, long long max)
{
	long long val;

	if (parse_decimal(arg, min, max, &val))
		cli_usage_error("%s must be an integer from %lld to %lld, not '%s'",
				what, min, max, arg);
	return val;
}

void cli_check_workload_name(const char *name)
{
	char shown[ESCAPE_SIZE(64)];
	size_t len = strlen(name), i;
	bool ok = len && len < IDLESCOPE_WORKLOAD_LEN;

	for (i = 0; i < len && ok; i++)
		ok = escape_keeps(name[i]);
	if (!ok)
		cli_usage_error("workload name must be 1 to %d printable ASCII characters "
				"other than '\\', not '%s'", IDLESCOPE_WORKLOAD_LEN - 1,
				escape_name(shown, sizeof(shown), name, 64));
}

void cli_parse(const struct argp *argp, const char *name, int argc, char **argv, void *input)
{
	char **args = name ? argv + 1 : argv;
	char *saved = args[0];
	char prog[64];

	/* getopt and --help name the program by argv[0]: "idlescope report". */
	argp_err_exit_status = CLI_EXIT_USAGE;
	snprintf(prog, sizeof(prog), "idlescope%s%s", name ? " " : "", name ? name : "");
	args[0] = prog;
	args_parse_input(argp, name ? argc - 1 : argc, args, input);
	args[0] = saved;
}
