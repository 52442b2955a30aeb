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

#define JSON_MAX_DEPTH	16

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool one_line[JSON_MAX_DEPTH];
};

/*
 * A document starts from struct json j = { .f = FILE }, and its top level
 * with json_object(&j, NULL, false).  @key is NULL for a value inside an
 * array (and for the top level), the member's name inside an object.
 */

/**
 * json_object() - open an object
 * @j: the writer
 * @key: its name in the enclosing object, NULL in an array
 * @one_line: write it, and everything inside it, on one line
 */
void json_object(struct json *j, const char *key, bool one_line);

/**
 * json_object_end() - close the object opened last
 * @j: the writer
 */
void json_object_end(struct json *j);

/**
 * json_array() - open an array
 * @j: the writer
 * @key: its name in the enclosing object, NULL in an array
 * @one_line: write it, and everything inside it, on one line
 */
void json_array(struct json *j, const char *key, bool one_line);

/**
 * json_array_end() - close the array opened last
 * @j: the writer
 */
void json_array_end(struct json *j);

/**
 * json_u64() - an unsigned integer
 * @j: the writer
 * @key: its name, NULL in an array
 * @val: the value
 */
void json_u64(struct json *j, const char *key, __u64 val);

/**
 * json_int() - a signed integer
 * @j: the writer
 * @key: its name, NULL in an array
 * @val: the value
 */
void json_int(struct json *j, const char *key, int val);

/**
 * json_double() - a number in a printf format of the caller's
 * @j: the writer
 * @key: its name, NULL in an array
 * @fmt: e.g. "%.3f"
 * @val: the value; NaN and infinities are no JSON numbers: null
 */
void json_double(struct json *j, const char *key, const char *fmt,
		 double val);

/**
 * json_bool() - true or false
 * @j: the writer
 * @key: its name, NULL in an array
 * @val: the value
 */
void json_bool(struct json *j, const char *key, bool val);

/**
 * json_str() - a string
 * @j: the writer
 * @key: its name, NULL in an array
 * @val: the text, escaped: quotes, backslashes, \n, \r and \t as such,
 *	other control bytes and non-ASCII (names are raw bytes) as \u00XX
 */
void json_str(struct json *j, const char *key, const char *val);

/**
 * json_null() - null: a value that is not known
 * @j: the writer
 * @key: its name, NULL in an array
 */
void json_null(struct json *j, const char *key);

/**
 * json_number() - a number with %.6g
 * @j: the writer
 * @key: its name, NULL in an array
 * @val: the value; NaN (a share or bound nobody can know) is null, and so
 *	is an infinity, which JSON cannot write either
 */
void json_number(struct json *j, const char *key, double val);

#endif /* __IDLESCOPE_FORMAT_JSON_WRITER_H */
