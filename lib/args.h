/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers on the command line of the small argp programs (the workloads,
 * bench/genrec): a bad value is one argp_error() line that names the
 * option's meaning and the range, and exit status 64.
 */
#ifndef __ARGS_H
#define __ARGS_H

#include <argp.h>

/* A decimal in [min, max], or argp_error() naming what it is. */
long parse_long_arg(const char *arg, const char *what, long min, long max,
		    struct argp_state *state);

#endif /* __ARGS_H */
