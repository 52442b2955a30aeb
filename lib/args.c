// SPDX-License-Identifier: GPL-2.0
/* The command line of the small argp programs; see args.h. */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"

/* Most children a program's argp may have besides the one added here. */
#define ARGS_MAX_CHILDREN	4

void args_error(const struct argp_state *state, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", state->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(argp_err_exit_status);
}

/* Decimal digits, at least one: their count, or 0. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

int parse_decimal(const char *s, long long min, long long max, long long *val)
{
	const char *p = s + (*s == '-');
	size_t n = digits(p);
	long long v;
	char *end;

	if (!n || p[n] || (*s == '-' && strspn(p, "0") == n))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || v < min || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

int parse_decimal_fraction(const char *s, double max, double *val)
{
	size_t n = digits(s);
	double v;

	if (!n || (s[n] && (s[n] != '.' || !digits(s + n + 1) ||
			    s[n + 1 + digits(s + n + 1)])))
		return -EINVAL;
	v = strtod(s, NULL);
	if (v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

long parse_long_arg(const char *arg, const char *what, long min, long max,
		    struct argp_state *state)
{
	long long val;

	if (parse_decimal(arg, min, max, &val))
		args_error(state, "%s must be an integer from %ld to %ld, not '%s'",
			   what, min, max, arg);
	return val;
}

uint64_t parse_seed_arg(const char *arg, struct argp_state *state)
{
	unsigned long long seed;
	char *end;

	errno = 0;
	seed = strtoull(arg, &end, 0);
	/* strtoull() would take " -1" as 2^64 - 1 */
	if (!isdigit((unsigned char)*arg) || errno || *end)
		args_error(state, "seed must be an unsigned integer, not '%s'", arg);
	return seed;
}

void arg_value_options(const struct arg_value *values, struct argp_option *opts)
{
	int i;

	for (i = 0; values && values[i].key; i++) {
		assert(i < ARG_VALUES_MAX);
		opts[i] = (struct argp_option){
			.name = values[i].name,
			.key = values[i].key,
			.arg = values[i].arg,
			.doc = values[i].doc,
		};
	}
	opts[i] = (struct argp_option){};
}

bool arg_value_parse(const struct arg_value *values, int key, const char *arg,
		     struct argp_state *state)
{
	const struct arg_value *v;
	long len;

	for (v = values; v && v->key; v++) {
		if (v->key != key)
			continue;
		if (v->num) {
			*v->num = parse_long_arg(arg, v->what, v->min, v->max, state);
		} else if (v->str) {
			len = strlen(arg);
			if (len < v->min || len > v->max)
				args_error(state, "%s must be %ld to %ld characters, not '%s'",
					   v->what, v->min, v->max, arg);
			*v->str = arg;
		} else if (v->seed) {
			*v->seed = parse_seed_arg(arg, state);
		} else {
			*v->flag = true;
		}
		return true;
	}
	return false;
}

/* What every program takes besides its own options. */
static const struct argp_option std_opts[] = {
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show this help", 0 },
	{},
};

static error_t std_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		/*
		 * argp follows every error it prints on err_stream with a
		 * "Try --help" line; without the stream it prints nothing,
		 * getopt still names a bad option on stderr (one line) and
		 * args_parse() exits.
		 */
		state->err_stream = NULL;
		return 0;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		return 0;
	case ARGP_KEY_ARG:
		args_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp std_argp = { .options = std_opts, .parser = std_parse };

void args_parse(const struct argp *argp, int argc, char **argv)
{
	args_parse_input(argp, argc, argv, NULL);
}

void args_parse_input(const struct argp *argp, int argc, char **argv, void *input)
{
	struct argp_child children[ARGS_MAX_CHILDREN + 2] = {};
	struct argp root = *argp;
	char *slash;
	int n;

	for (n = 0; argp->children && argp->children[n].argp; n++) {
		assert(n < ARGS_MAX_CHILDREN);
		children[n] = argp->children[n];
	}
	children[n].argp = &std_argp;
	root.children = children;
	/* getopt names the program by argv[0], argp by its last component */
	if (argc > 0 && (slash = strrchr(argv[0], '/')))
		argv[0] = slash + 1;
	if (argp_parse(&root, argc, argv, 0, NULL, input))
		exit(argp_err_exit_status);
}
