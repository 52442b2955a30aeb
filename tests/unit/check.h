/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h - the host unit tests' one way to report: a line "PASS: name" or
 * "FAIL: name (why)" per check, as tests/run.sh counts them, and at the end
 * the plan, "PLAN: N", N the checks the program ran: main() ends with
 * `return check_done();`.  Adding a check is one edit, the check itself;
 * the wrapper script (tests/unit/FOLDER/NAME.sh) declares no plan of its own.
 * A program that dies on the way (a crash, an early exit) prints no plan,
 * and the runner counts that as a failed suite.  Included once by each
 * test program.
 */
#ifndef __IDLESCOPE_TEST_CHECK_H
#define __IDLESCOPE_TEST_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int nr_passed, nr_failed;

static void check(bool ok, const char *name, const char *why_fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS: %s\n", name);
		nr_passed++;
		return;
	}
	printf("FAIL: %s (", name);
	va_start(ap, why_fmt);
	vprintf(why_fmt, ap);
	va_end(ap);
	printf(")\n");
	nr_failed++;
}

/*
 * The end of main(): the plan, the number of checks run, then the exit
 * status, 1 when a check failed.  Called once, as the last thing printed.
 */
static int check_done(void)
{
	printf("PLAN: %d\n", nr_passed + nr_failed);
	fflush(stdout);
	return nr_failed ? 1 : 0;
}

#define CHECK_EQ(name, got, want)					\
	do {								\
		unsigned long long _g = (got), _w = (want);		\
		check(_g == _w, name, "got %llu, want %llu", _g, _w);	\
	} while (0)

#define CHECK_EQ_INT(name, got, want)					\
	do {								\
		long long _g = (got), _w = (want);			\
		check(_g == _w, name, "got %lld, want %lld", _g, _w);	\
	} while (0)

#define CHECK_NE(name, got, unwanted)					\
	do {								\
		unsigned long long _g = (got), _u = (unwanted);		\
		check(_g != _u, name, "got %llu", _g);			\
	} while (0)

#endif /* __IDLESCOPE_TEST_CHECK_H */
