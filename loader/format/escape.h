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

/* A byte that stands for itself in an escaped name. */
static inline bool escape_keeps(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/*
 * @s up to its NUL or @max_len bytes, whichever comes first (a field of a
 * record file need not hold a NUL), escaped into buf[@size], cut at a
 * whole escape if it does not fit.  Returns buf.
 */
char *escape_name(char *buf, size_t size, const char *s, size_t max_len);

/* The same to @f, never cut. */
void escape_fputs(FILE *f, const char *s, size_t max_len);

#endif /* __IDLESCOPE_FORMAT_ESCAPE_H */
