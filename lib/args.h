/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of the small argp programs (the workloads, bench/genrec,
 * bench/progstats), parsed the same way everywhere:
 *   - -h is --help (on stderr, as libbpf-tools do), a positional argument
 *     is an error;
 *   - a bad option or value is one line on stderr, "NAME: what is wrong",
 *     and exit status 64 (argp_err_exit_status), without argp's
 *     "Try `NAME --help'" second line;
 *   - options that only store a value (a number in a range, a string, a
 *     flag) are a table of struct arg_value, not parser code: the table
 *     gives argp its options and parses them.
 */
#ifndef __ARGS_H
#define __ARGS_H

#include <argp.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * An option that stores its value: into *num a decimal in [min, max], into
 * *str a string of min to max characters, into *seed a PRNG seed
 * (parse_seed_arg()), or (arg NULL) true into *flag.  A table ends with an
 * all-zero entry.
 */
struct arg_value {
	int key;
	const char *name;		/* --NAME */
	const char *arg;		/* the value in --help, e.g. "USEC" */
	const char *doc;
	const char *what;		/* the value in error messages, e.g. "period" */
	long *num;
	const char **str;
	uint64_t *seed;
	bool *flag;
	long min, max;
};

#define ARG_NUM(key, name, arg, doc, what, var, lo, hi) \
	{ key, name, arg, doc, what, .num = (var), .min = (lo), .max = (hi) }
#define ARG_STR(key, name, arg, doc, what, var, max_len) \
	{ key, name, arg, doc, what, .str = (var), .min = 1, .max = (max_len) }
#define ARG_SEED(key, name, doc, var) \
	{ key, name, "SEED", doc, "seed", .seed = (var) }
#define ARG_FLAG(key, name, doc, var) \
	{ key, name, NULL, doc, NULL, .flag = (var) }

/* Most entries a table may have (the argp options are built on the stack). */
#define ARG_VALUES_MAX	16

/*
 * Fill opts (ARG_VALUES_MAX + 1 entries) with the argp options of values
 * (may be NULL): what an argp's .options takes.
 */
void arg_value_options(const struct arg_value *values, struct argp_option *opts);

/*
 * Parse key's value if values (may be NULL) has it: true then, having
 * stored it or exited with one line; false for a key it does not have.
 */
bool arg_value_parse(const struct arg_value *values, int key, const char *arg,
		     struct argp_state *state);

/*
 * argp_parse() with the conventions above.  argp's own options and parser
 * are the program's; its children are kept.  Exits 64 after one line on
 * any bad option or value.
 */
void args_parse(const struct argp *argp, int argc, char **argv);
/*
 * The same with @input for the parsers (state->input), exiting with
 * argp_err_exit_status (the loader's subcommands set it to 2).
 */
void args_parse_input(const struct argp *argp, int argc, char **argv, void *input);

/* One line "NAME: <fmt>" on stderr and exit 64: a parser's bad value. */
void args_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * Numbers as people write them, and nothing else: strtol() and strtod()
 * also take leading blanks, a '+', "0x10", "1e3", "inf" and "-0", which a
 * command line should refuse rather than read as something else.
 *
 * parse_decimal(): an optional '-' and decimal digits ("-0" is not a
 * number), in [min, max].  parse_decimal_fraction(): digits, optionally a
 * '.' and more digits ("2", "2.5"; not ".5", "5.", "-1"), at most @max.
 * Both return 0 with *val set, -EINVAL (not such a number) or -ERANGE.
 */
int parse_decimal(const char *s, long long min, long long max, long long *val);
int parse_decimal_fraction(const char *s, double max, double *val);

/* A decimal in [min, max] (parse_decimal()), or args_error() naming what it is. */
long parse_long_arg(const char *arg, const char *what, long min, long max,
		    struct argp_state *state);

/* A PRNG seed: any unsigned 64-bit integer (decimal, 0x hex or 0 octal). */
uint64_t parse_seed_arg(const char *arg, struct argp_state *state);

#endif /* __ARGS_H */
