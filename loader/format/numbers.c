// SPDX-License-Identifier: GPL-2.0
/* numbers.c - the shared number formats (see numbers.h). */
#include <stdio.h>
#include "format/numbers.h"

const char *fmt_workload_label(const char *name)
{
	return name && name[0] ? name : "(none)";
}

void fmt_utc(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!t || !gmtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "unknown");
}
