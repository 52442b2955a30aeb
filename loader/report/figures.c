// SPDX-License-Identifier: GPL-2.0
/*
 * figures.c - the workloads' own figures: read from the figures files
 * beside the record files, printed beside the idle scores (figures.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/figures.h"
#include "format/table.h"
#include "stats/aggregate.h"
#include "governors.h"
#include "infile.h"

#define FIGURES_LINE_LEN	512

/* The cell of (governor, workload, figure), or NULL. */
static struct figure_cell *find_cell(struct figures *fig, const char *governor,
				     const char *workload, const char *figure)
{
	int i;

	for (i = 0; i < fig->nr_cells; i++) {
		struct figure_cell *c = &fig->cells[i];

		if (!strcmp(c->governor, governor) && !strcmp(c->workload, workload) &&
		    !strcmp(c->figure, figure))
			return c;
	}
	return NULL;
}

/* A whole field as a finite number. */
static bool parse_value(const char *s, double *val)
{
	char *end;

	errno = 0;
	*val = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*val);
}

/* A field escaped into dst[size] (format/escape.h); false when it does not fit. */
static bool copy_field(char *dst, size_t size, const char *src)
{
	char escaped[ESCAPE_SIZE(FIGURES_LINE_LEN)];

	escape_name(escaped, sizeof(escaped), src, SIZE_MAX);
	if (strlen(escaped) >= size)
		return false;
	strcpy(dst, escaped);
	return true;
}

/* One more value of @c; false when out of memory. */
static bool add_value(struct figure_cell *c, double val)
{
	double *grown;

	if (c->nr_values == c->nr_alloc) {
		grown = realloc(c->values, (c->nr_alloc ? 2 * c->nr_alloc : 4) * sizeof(*grown));
		if (!grown)
			return false;
		c->values = grown;
		c->nr_alloc = c->nr_alloc ? 2 * c->nr_alloc : 4;
	}
	c->values[c->nr_values++] = val;
	return true;
}

/*
 * One data line "GOVERNOR WORKLOAD FIGURE VALUE UNIT" into @fig: one more
 * value of its cell.  NULL, or what is wrong with it.
 */
static const char *add_line(struct figures *fig, char *line)
{
	char *field[6], *save = NULL;
	struct figure_cell *c, cell = {};
	double val;
	int n = 0;

	for (char *tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		field[n < 6 ? n++ : 5] = tok;
	if (n != 5)
		return "expected GOVERNOR WORKLOAD FIGURE VALUE UNIT";
	if (governor_id(field[0]) < 0)
		return "an unknown governor";
	if (!copy_field(cell.governor, sizeof(cell.governor), field[0]) ||
	    strlen(field[1]) > IDLESCOPE_WORKLOAD_LEN ||
	    !copy_field(cell.workload, sizeof(cell.workload), field[1]) ||
	    !copy_field(cell.figure, sizeof(cell.figure), field[2]) ||
	    !copy_field(cell.unit, sizeof(cell.unit), field[4]))
		return "a name too long";
	if (!parse_value(field[3], &val))
		return "the value is not a number";
	c = find_cell(fig, cell.governor, cell.workload, cell.figure);
	if (c && strcmp(c->unit, cell.unit))
		return "the figure's unit differs from an earlier file's";
	if (!c) {
		if (fig->nr_cells == FIGURES_MAX_CELLS)
			return "more figures than a report holds";
		c = &fig->cells[fig->nr_cells++];
		*c = cell;
	}
	return add_value(c, val) ? NULL : strerror(ENOMEM);
}

/* Each line of @f into @fig; NULL, or what is wrong and *@lineno where. */
static const char *read_lines(struct figures *fig, FILE *f, int *lineno)
{
	char line[FIGURES_LINE_LEN];
	const char *err = NULL;
	bool header = false;

	while (!err && fgets(line, sizeof(line), f)) {
		++*lineno;
		if (!strchr(line, '\n') && !feof(f)) {
			err = "line too long";
		} else if (!header) {
			header = true;
			if (strcmp(strtok(line, "\n") ?: "", FIGURES_FILE_HEADER))
				err = "not an idlescope figures file (its first line is not \""
				      FIGURES_FILE_HEADER "\")";
		} else if (line[0] != '#' && strspn(line, " \t\n") != strlen(line)) {
			err = add_line(fig, line);
		}
	}
	if (!err && ferror(f))
		err = strerror(errno);
	if (!err && !header)
		err = "empty: no header line";
	return err;
}

int figures_read_beside(struct figures *fig, const char *recfile_path)
{
	char path[PATH_MAX], shown[ESCAPE_SIZE(256)];
	const char *err;
	int lineno = 0, i, old_nr_cells = fig->nr_cells;
	int before[FIGURES_MAX_CELLS];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s%s", recfile_path, FIGURES_FILE_SUFFIX) >=
	    (int)sizeof(path)) {
		fprintf(stderr, "idlescope: error: %s: path too long\n",
			escape_name(shown, sizeof(shown), recfile_path, SIZE_MAX));
		return -ENAMETOOLONG;
	}
	escape_name(shown, sizeof(shown), path, SIZE_MAX);
	f = infile_open(path, NULL, &err);
	if (!f) {
		if (errno == ENOENT)
			return 0;
		i = -errno;
		fprintf(stderr, "idlescope: error: %s: %s\n", shown, err);
		return i;
	}
	for (i = 0; i < old_nr_cells; i++)
		before[i] = fig->cells[i].nr_values;
	err = read_lines(fig, f, &lineno);
	fclose(f);
	if (err) {
		fprintf(stderr, "idlescope: error: %s:%d: %s\n", shown, lineno, err);
		return -EINVAL;
	}
	/* A figure this file gave twice shows as two values added now. */
	for (i = 0; i < fig->nr_cells; i++) {
		int added = fig->cells[i].nr_values - (i < old_nr_cells ? before[i] : 0);

		if (added > 1) {
			fprintf(stderr, "idlescope: error: %s: figure %s of %s under %s given twice\n",
				shown, fig->cells[i].figure, fig->cells[i].workload,
				fig->cells[i].governor);
			return -EINVAL;
		}
	}
	fig->nr_files++;
	return 0;
}

void figures_free(struct figures *fig)
{
	int i;

	for (i = 0; i < fig->nr_cells; i++)
		free(fig->cells[i].values);
	memset(fig, 0, sizeof(*fig));
}

/*
 * The mean of a cell's values: each divided first, so that values near
 * DBL_MAX average to what they are, not to an infinity JSON cannot say.
 */
static double cell_mean(const struct figure_cell *c)
{
	double mean = 0;
	int i;

	for (i = 0; i < c->nr_values; i++)
		mean += c->values[i] / c->nr_values;
	return c->nr_values ? mean : NAN;
}

/* Whether cell @i is the first of its workload (resp. figure of it). */
static bool first_of_workload(const struct figures *fig, int i)
{
	int k;

	for (k = 0; k < i; k++)
		if (!strcmp(fig->cells[k].workload, fig->cells[i].workload))
			return false;
	return true;
}

static bool first_of_figure(const struct figures *fig, int i)
{
	int k;

	for (k = 0; k < i; k++)
		if (!strcmp(fig->cells[k].workload, fig->cells[i].workload) &&
		    !strcmp(fig->cells[k].figure, fig->cells[i].figure))
			return false;
	return true;
}

/* A value in about four significant digits, never in exponent form. */
static void format_value(char *buf, size_t size, double v)
{
	double a = fabs(v);

	snprintf(buf, size, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", v);
}

/* The governors (IDLESCOPE_GOVERNORS order) with a figure of @workload. */
static int workload_governors(const struct figures *fig, const char *workload, int *ids)
{
	int g, i, n = 0;

	for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++)
		for (i = 0; i < fig->nr_cells; i++)
			if (!strcmp(fig->cells[i].workload, workload) &&
			    governor_id(fig->cells[i].governor) == g) {
				ids[n++] = g;
				break;
			}
	return n;
}

static void print_workload(FILE *f, const struct figures *fig, const char *workload)
{
	int ids[IDLESCOPE_NR_GOVERNORS], nr_govs, i, g, row;
	char label[FIGURES_NAME_LEN + FIGURES_UNIT_LEN + 4], val[32];
	struct table t;

	nr_govs = workload_governors(fig, workload, ids);
	if (nr_govs >= TABLE_MAX_COLS)
		nr_govs = TABLE_MAX_COLS - 1;
	table_init(&t, nr_govs + 1);
	row = table_add_row(&t, workload);
	for (g = 0; g < nr_govs; g++)
		table_set(&t, row, g + 1, "%s", governor_name(ids[g]));
	for (i = 0; i < fig->nr_cells; i++) {
		const struct figure_cell *c = &fig->cells[i];

		if (strcmp(c->workload, workload) || !first_of_figure(fig, i))
			continue;
		snprintf(label, sizeof(label), "  %s", c->figure);
		row = table_add_row(&t, label);
		for (g = 0; g < nr_govs; g++) {
			const struct figure_cell *gc;

			gc = find_cell((struct figures *)fig, governor_name(ids[g]), workload,
				       c->figure);
			if (!gc)
				continue;
			format_value(val, sizeof(val), cell_mean(gc));
			table_set(&t, row, g + 1, gc->nr_values > 1 ? "%s (%d)" : "%s", val,
				  gc->nr_values);
		}
	}
	table_print_text(f, &t, "", 20, 8);
}

const char *figures_first(const struct figures *fig, const char *workload)
{
	int i;

	for (i = 0; fig && i < fig->nr_cells; i++)
		if (!strcmp(fig->cells[i].workload, workload))
			return fig->cells[i].figure;
	return NULL;
}

bool figures_format_mean(char *buf, size_t size, const struct figures *fig,
			 const char *governor, const char *workload, const char *figure)
{
	const struct figure_cell *c = NULL;

	if (fig && figure)
		c = find_cell((struct figures *)fig, governor, workload, figure);
	if (!c || !c->nr_values) {
		snprintf(buf, size, "-");
		return false;
	}
	format_value(buf, size, cell_mean(c));
	return true;
}

void figures_fprint_text(FILE *f, const struct figures *fig)
{
	int i;

	if (!fig || !fig->nr_cells)
		return;
	fprintf(f, "\n== the workloads' own figures (from their programs' output; "
		"the unit ends each name; mean of (N) runs) ==\n");
	for (i = 0; i < fig->nr_cells; i++)
		if (first_of_workload(fig, i))
			print_workload(f, fig, fig->cells[i].workload);
}

void figures_json(struct json *j, const struct figures *fig)
{
	int i, k, g;

	json_array(j, "workload_figures", false);
	for (i = 0; fig && i < fig->nr_cells; i++) {
		if (!first_of_figure(fig, i))
			continue;
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			const struct figure_cell *c;

			c = find_cell((struct figures *)fig, governor_name(g),
				      fig->cells[i].workload, fig->cells[i].figure);
			if (!c)
				continue;
			json_object(j, NULL, true);
			json_str(j, "workload", c->workload);
			json_str(j, "governor", c->governor);
			json_str(j, "figure", c->figure);
			json_str(j, "unit", c->unit);
			json_int(j, "runs", c->nr_values);
			json_number(j, "mean", cell_mean(c));
			json_array(j, "values", true);
			for (k = 0; k < c->nr_values; k++)
				json_number(j, NULL, c->values[k]);
			json_array_end(j);
			json_object_end(j);
		}
	}
	json_array_end(j);
}
