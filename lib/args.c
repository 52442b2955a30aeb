// SPDX-License-Identifier: GPL-2.0
/* Numbers on the command line; see args.h. */
#include <errno.h>
#include <stdlib.h>
#include "args.h"

long parse_long_arg(const char *arg, const char *what, long min, long max,
		    struct argp_state *state)
{
	char *end;
	long val;

	errno = 0;
	val = strtol(arg, &end, 10);
	if (errno || end == arg || *end || val < min || val > max)
		argp_error(state, "%s must be an integer from %ld to %ld, not '%s'",
			   what, min, max, arg);
	return val;
}
