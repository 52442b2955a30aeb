// SPDX-License-Identifier: GPL-2.0
/* numbers.c - the shared number formats (see numbers.h). */
#include <math.h>
#include <stdio.h>
#include "format/numbers.h"

void fmt_share(char *buf, size_t size, const struct ci_pct *r)
{
	if (isnan(r->pct))
		snprintf(buf, size, "-");
	else if (r->too_correlated)
		snprintf(buf, size, "%.1f ±?", r->pct);
	else if (isnan(r->half))
		snprintf(buf, size, "%.1f", r->pct);
	else
		snprintf(buf, size, "%.1f ±%.1f", r->pct, r->half);
}

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
