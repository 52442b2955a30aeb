/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - a small table of formatted cells, printed either as aligned
 * text columns (report.txt) or as a Markdown table (summary.md).
 *
 * The numbers of a table are computed once, by whoever fills the cells;
 * the two printers only lay them out, so the text and Markdown documents
 * can never disagree on a value.  Row 0 is the header, column 0 holds the
 * row labels; the other columns are right-aligned, as numbers are.
 */
#ifndef __IDLESCOPE_FORMAT_TABLE_H
#define __IDLESCOPE_FORMAT_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#define TABLE_MAX_ROWS		16
#define TABLE_MAX_COLS		16
#define TABLE_CELL_LEN		32	/* including the NUL; longer is cut */

struct table {
	int nr_rows;
	int nr_cols;
	char cell[TABLE_MAX_ROWS][TABLE_MAX_COLS][TABLE_CELL_LEN];
};

/* An empty table of nr_cols columns (at most TABLE_MAX_COLS). */
void table_init(struct table *t, int nr_cols);

/*
 * Append a row, its label in column 0; returns its index, or -1 when the
 * table is full (the callers' sizes are static, so that is a bug: the row
 * is lost rather than written out of bounds).
 */
int table_add_row(struct table *t, const char *label);

/* printf into one cell; out-of-range cells are ignored. */
void table_set(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* "" for cells never set or out of range. */
const char *table_cell(const struct table *t, int row, int col);

/*
 * Aligned columns, each line starting with @indent: column 0 left-aligned
 * and at least @label_width wide, the others right-aligned, at least
 * @min_width wide, one space apart.
 */
void table_print_text(FILE *f, const struct table *t, const char *indent,
		      int label_width, int min_width);

/* A GitHub-flavoured Markdown table, cells escaped. */
void table_print_markdown(FILE *f, const struct table *t);

/* Terminal columns of a UTF-8 string, and a cell padded to @width of them. */
int table_text_width(const char *s);
void table_print_cell(FILE *f, const char *s, int width, bool left);

/* Text with Markdown's special characters escaped (headings, lists). */
void table_print_markdown_text(FILE *f, const char *s);

#endif /* __IDLESCOPE_FORMAT_TABLE_H */
