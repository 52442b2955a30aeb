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

/**
 * table_init() - an empty table
 * @t: the table
 * @nr_cols: its columns, at most TABLE_MAX_COLS (more are cut to it)
 */
void table_init(struct table *t, int nr_cols);

/**
 * table_add_row() - append a row
 * @t: the table
 * @label: the row's label, in column 0
 *
 * Return: the row's index, or -1 when the table is full (the callers'
 * sizes are static, so that is a bug: the row is lost rather than
 * written out of bounds).
 */
int table_add_row(struct table *t, const char *label);

/**
 * table_set() - printf into one cell
 * @t: the table
 * @row: a row of table_add_row()'s
 * @col: a column of table_init()'s
 * @fmt: printf format; the text is cut to TABLE_CELL_LEN - 1 bytes
 * @...: its arguments
 *
 * Out-of-range cells are ignored.
 */
void table_set(struct table *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * table_cell() - the text of one cell
 * @t: the table
 * @row: a row added
 * @col: a column
 *
 * Return: the cell's text; "" for cells never set or out of range.
 */
const char *table_cell(const struct table *t, int row, int col);

/**
 * table_print_text() - print a table as aligned columns
 * @f: where to
 * @t: the table
 * @indent: the start of each line
 * @label_width: column 0's least width; it is left-aligned
 * @min_width: the other columns' least width; they are right-aligned
 *
 * Columns are one space apart and as wide as their widest cell.
 */
void table_print_text(FILE *f, const struct table *t, const char *indent,
		      int label_width, int min_width);

/**
 * table_print_markdown() - print a table as GitHub-flavoured Markdown
 * @f: where to
 * @t: the table
 *
 * Cells escaped (table_print_markdown_text()); labels left-aligned,
 * numbers right.
 */
void table_print_markdown(FILE *f, const struct table *t);

/**
 * table_text_width() - the terminal columns of a UTF-8 string
 * @s: the string
 *
 * Return: its code points ("±" is one).
 */
int table_text_width(const char *s);

/**
 * table_print_cell() - a cell padded to a width
 * @f: where to
 * @s: the text
 * @width: in terminal columns (table_text_width())
 * @left: left-aligned, else right-aligned
 */
void table_print_cell(FILE *f, const char *s, int width, bool left);

/**
 * table_print_markdown_text() - text with Markdown's special characters escaped
 * @f: where to
 * @s: the text
 *
 * Escapes what would make a heading, a '*' list, emphasis, code, a link,
 * HTML or a cell boundary (\`*_[]<>|#!); a control byte, which could end
 * the cell or the line, becomes '?'.
 */
void table_print_markdown_text(FILE *f, const char *s);

#endif /* __IDLESCOPE_FORMAT_TABLE_H */
