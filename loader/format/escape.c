// SPDX-License-Identifier: GPL-2.0
/* escape.c - untrusted names as printable, reversible ASCII (see escape.h). */
#include <stdio.h>
#include <string.h>
#include "format/escape.h"

char *escape_name(char *buf, size_t size, const char *s, size_t max_len)
{
	size_t len = strnlen(s, max_len), out = 0, i;

	if (!size)
		return buf;
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (escape_keeps(c)) {
			if (out + 1 >= size)
				break;
			buf[out++] = c;
		} else {
			if (out + 4 >= size)
				break;
			snprintf(buf + out, 5, "\\x%02x", c);
			out += 4;
		}
	}
	buf[out] = '\0';
	return buf;
}

void escape_fputs(FILE *f, const char *s, size_t max_len)
{
	size_t len = strnlen(s, max_len), i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (escape_keeps(c))
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
}
