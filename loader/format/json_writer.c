// SPDX-License-Identifier: GPL-2.0
/*
 * json_writer.c - the streaming JSON writer of report.json and compare's -j.
 */
#include <math.h>
#include <stdio.h>
#include "format/json_writer.h"

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		const char *short_escape = NULL;

		switch (*p) {
		case '"':
			short_escape = "\\\"";
			break;
		case '\\':
			short_escape = "\\\\";
			break;
		case '\n':
			short_escape = "\\n";
			break;
		case '\r':
			short_escape = "\\r";
			break;
		case '\t':
			short_escape = "\\t";
			break;
		}
		/*
		 * Other control bytes and non-ASCII (names are raw bytes, not
		 * known to be UTF-8) as \u00XX: always valid JSON.
		 */
		if (short_escape)
			fputs(short_escape, f);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Separator, indentation and "key": before a value at the current level. */
static void json_prefix(struct json *j, const char *key)
{
	int d = j->depth;

	if (j->need_comma[d])
		fputc(',', j->f);
	if (j->one_line[d]) {
		if (j->need_comma[d])
			fputc(' ', j->f);
	} else if (d > 0 || j->need_comma[d]) {
		fprintf(j->f, "\n%*s", 2 * d, "");
	}
	j->need_comma[d] = true;
	if (key) {
		json_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char bracket,
		      bool one_line)
{
	if (j->depth > 0 || j->need_comma[0])
		json_prefix(j, key);
	fputc(bracket, j->f);
	j->depth++;
	j->need_comma[j->depth] = false;
	j->one_line[j->depth] = one_line || j->one_line[j->depth - 1];
}

static void json_close(struct json *j, char bracket)
{
	bool had_items = j->need_comma[j->depth];
	bool one_line = j->one_line[j->depth];

	j->depth--;
	if (had_items && !one_line)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(bracket, j->f);
}

void json_object(struct json *j, const char *key, bool one_line)
{
	json_open(j, key, '{', one_line);
}

void json_object_end(struct json *j)
{
	json_close(j, '}');
}

void json_array(struct json *j, const char *key, bool one_line)
{
	json_open(j, key, '[', one_line);
}

void json_array_end(struct json *j)
{
	json_close(j, ']');
}

void json_u64(struct json *j, const char *key, __u64 val)
{
	json_prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void json_int(struct json *j, const char *key, int val)
{
	json_prefix(j, key);
	fprintf(j->f, "%d", val);
}

/* NaN and infinities are no JSON numbers: null (the reader refuses them). */
void json_double(struct json *j, const char *key, const char *fmt,
		 double val)
{
	json_prefix(j, key);
	if (isfinite(val))
		fprintf(j->f, fmt, val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_prefix(j, key);
	json_string(j->f, val);
}


/* A number, or null for NaN (a share or bound nobody can know). */
void json_null(struct json *j, const char *key)
{
	json_prefix(j, key);
	fputs("null", j->f);
}

void json_number(struct json *j, const char *key, double val)
{
	json_prefix(j, key);
	if (!isfinite(val))
		fputs("null", j->f);
	else
		fprintf(j->f, "%.6g", val);
}
