// SPDX-License-Identifier: GPL-2.0
/* interval.c - a share and its interval in text and JSON (see interval.h). */
#include <math.h>
#include <stdio.h>
#include "report/interval.h"

void report_fmt_share(char *buf, size_t size, const struct ci_pct *r)
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

void report_json_ci(struct json *j, const char *key, const struct ci_pct *r)
{
	json_object(j, key, true);
	json_number(j, "pct", r->pct);
	json_number(j, "lo", r->lo);
	json_number(j, "hi", r->hi);
	json_object_end(j);
}
