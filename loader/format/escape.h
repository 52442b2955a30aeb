/* SPDX-License-Identifier: GPL-2.0 */
/*
 * escape.h - a name idlescope did not choose (a record's workload tag, a
 * record file header's clock mode or cpuidle driver, a skipped program's
 * name, a file name found in a directory) as printable ASCII: printable
 * bytes stay, '\' and every other byte become "\xNN".  The result is one
 * line on any terminal, carries no escape sequence, and is reversible, so
 * two names that differ in a control byte stay two names.  `idlescope
 * dump` writes tags the same way (docs/record-file.md).
 */
#ifndef __IDLESCOPE_FORMAT_ESCAPE_H
#define __IDLESCOPE_FORMAT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Bytes of the escaped form of a name of @len bytes, with its NUL. */
#define ESCAPE_SIZE(len)	(4 * (len) + 1)

/**
 * escape_keeps() - whether a byte stands for itself in an escaped name
 * @c: the byte
 *
 * Printable ASCII but '\', which an escape begins with: a name made of
 * such bytes prints the same everywhere (the workload tags the command
 * line takes are made of them, cmd/cli.h).
 *
 * Return: true when @c is printed as it is, false when as \xNN.
 */
static inline bool escape_keeps(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/**
 * escape_name() - a name from an untrusted source, made printable
 * @buf: the escaped name, NUL-terminated
 * @size: @buf's size (ESCAPE_SIZE() of the name's length never cuts)
 * @s: the name
 * @max_len: the most bytes of @s to read: a field of a record file need
 *	not hold a NUL
 *
 * @s up to its NUL or @max_len bytes, whichever comes first, each byte
 * escape_keeps() does not keep written as \xNN; cut at a whole escape if
 * it does not fit.
 *
 * Return: @buf, for use in a printf argument list.
 */
char *escape_name(char *buf, size_t size, const char *s, size_t max_len);

/**
 * escape_fputs() - escape_name() to a stream, never cut
 * @f: the stream
 * @s: the name
 * @max_len: the most bytes of @s to read
 */
void escape_fputs(FILE *f, const char *s, size_t max_len);

#endif /* __IDLESCOPE_FORMAT_ESCAPE_H */
