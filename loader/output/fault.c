// SPDX-License-Identifier: GPL-2.0
/* fault.c - the fault points of output/fault.h, in the test build only. */
#ifdef IDLESCOPE_FAULT_INJECTION
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/fault.h"

int fault_point(const char *what)
{
	static long count;
	const char *spec = getenv("IDLESCOPE_FAULT");
	char *action;
	long target;

	count++;
	if (!spec)
		return 0;
	target = strtol(spec, &action, 10);
	if (target != count || *action != ':')
		return 0;
	action++;
	fprintf(stderr, "idlescope: fault %ld: %s at %s\n", count, action, what);
	if (!strcmp(action, "int"))
		raise(SIGINT);
	else if (!strcmp(action, "kill"))
		raise(SIGKILL);
	else
		return -EIO;
	return 0;
}
#endif
