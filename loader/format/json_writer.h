/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json_writer.h - the JSON writer of report.json and `idlescope compare -j`: a
 * minimal streaming writer that tracks, per nesting level, whether a comma
 * is due and whether the level is written on one line.  Keys come in the
 * order the code emits them, which is the documented order.
 */

#ifndef __IDLESCOPE_FORMAT_JSON_WRITER_H
#define __IDLESCOPE_FORMAT_JSON_WRITER_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "stats/ci.h"

#define JSON_MAX_DEPTH	16

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool one_line[JSON_MAX_DEPTH];
};

void json_object(struct json *j, const char *key, bool one_line);
void json_object_end(struct json *j);
void json_array(struct json *j, const char *key, bool one_line);
void json_array_end(struct json *j);
void json_u64(struct json *j, const char *key, __u64 val);
void json_int(struct json *j, const char *key, int val);
void json_double(struct json *j, const char *key, const char *fmt,
		 double val);
void json_bool(struct json *j, const char *key, bool val);
void json_str(struct json *j, const char *key, const char *val);
/* null: a value that is not known. */
void json_null(struct json *j, const char *key);
/* A number with %.6g, null for NaN. */
void json_number(struct json *j, const char *key, double val);
/* {"pct": .., "lo": .., "hi": ..}: a share and its 95% interval, in %. */
void json_ci(struct json *j, const char *key, const struct ci_pct *r);

#endif /* __IDLESCOPE_FORMAT_JSON_WRITER_H */
