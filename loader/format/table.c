// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - lay out a struct table as text or Markdown (see table.h).
 */
#include <stdarg.h>
#include <string.h>
#include "format/table.h"

void table_init(struct table *t, int nr_cols)
{
	memset(t, 0, sizeof(*t));
	t->nr_cols = nr_cols < TABLE_MAX_COLS ? nr_cols : TABLE_MAX_COLS;
}

int table_add_row(struct table *t, const char *label)
{
	if (t->nr_rows == TABLE_MAX_ROWS)
		return -1;
	table_set(t, t->nr_rows, 0, "%s", label);
	return t->nr_rows++;
}

void table_set(struct table *t, int row, int col, const char *fmt, ...)
{
	va_list ap;

	if (row < 0 || row >= TABLE_MAX_ROWS || col < 0 || col >= t->nr_cols)
		return;
	va_start(ap, fmt);
	vsnprintf(t->cell[row][col], TABLE_CELL_LEN, fmt, ap);
	va_end(ap);
}

const char *table_cell(const struct table *t, int row, int col)
{
	if (row < 0 || row >= t->nr_rows || col < 0 || col >= t->nr_cols)
		return "";
	return t->cell[row][col];
}

/* Columns a cell takes on a terminal: UTF-8 code points ("±" is one). */
int table_text_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* @s in @width columns, right-aligned (left-aligned if @left). */
void table_print_cell(FILE *f, const char *s, int width, bool left)
{
	int pad = width - table_text_width(s);

	if (!left && pad > 0)
		fprintf(f, "%*s", pad, "");
	fputs(s, f);
	if (left && pad > 0)
		fprintf(f, "%*s", pad, "");
}

static int column_width(const struct table *t, int col, int min_width)
{
	int width = min_width, row, len;

	for (row = 0; row < t->nr_rows; row++) {
		len = table_text_width(t->cell[row][col]);
		if (len > width)
			width = len;
	}
	return width;
}

void table_print_text(FILE *f, const struct table *t, const char *indent,
		      int label_width, int min_width)
{
	int width[TABLE_MAX_COLS];
	int row, col;

	width[0] = column_width(t, 0, label_width);
	for (col = 1; col < t->nr_cols; col++)
		width[col] = column_width(t, col, min_width);

	for (row = 0; row < t->nr_rows; row++) {
		fputs(indent, f);
		table_print_cell(f, t->cell[row][0], width[0], true);
		for (col = 1; col < t->nr_cols; col++) {
			fputc(' ', f);
			table_print_cell(f, t->cell[row][col], width[col], false);
		}
		fputc('\n', f);
	}
}

void table_print_markdown_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* A control byte could end the cell or the line: never raw. */
		if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else if (strchr("\\`*_[]<>|#!", c))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}

void table_print_markdown(FILE *f, const struct table *t)
{
	int row, col;

	for (row = 0; row < t->nr_rows; row++) {
		fputc('|', f);
		for (col = 0; col < t->nr_cols; col++) {
			fputc(' ', f);
			table_print_markdown_text(f, t->cell[row][col]);
			fputs(" |", f);
		}
		fputc('\n', f);
		if (row)
			continue;
		/* Under the header: labels left, numbers right. */
		fputc('|', f);
		for (col = 0; col < t->nr_cols; col++)
			fputs(col ? " ---: |" : " :--- |", f);
		fputc('\n', f);
	}
}
