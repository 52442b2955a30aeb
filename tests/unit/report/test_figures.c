// SPDX-License-Identifier: GPL-2.0
/*
 * test_figures - the figures file reader and its two documents
 * (loader/report/figures.c): known files in, exact values and text out;
 * every way a file can break the format is one error line naming the file
 * and line, and the figures read so far stay as they were.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "report/figures.h"

static char dir[] = "/tmp/test_figures.XXXXXX";

/* Write @text as the figures file of record file @rec (in dir). */
static void write_figures(const char *rec, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s", dir, rec, FIGURES_FILE_SUFFIX);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* figures_read_beside() on dir/@rec with stderr caught into @err. */
static int read_beside(struct figures *fig, const char *rec, char *err, size_t size)
{
	char path[512], errpath[512];
	int saved, ret;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rec);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	f = freopen(errpath, "w", stderr);
	ret = figures_read_beside(fig, path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	(void)f;
	f = fopen(errpath, "r");
	err[0] = 0;
	if (f) {
		size_t n = fread(err, 1, size - 1, f);

		err[n] = 0;
		fclose(f);
	}
	return ret;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int count_entries(const char *json)
{
	int n = 0;

	for (const char *p = json; (p = strstr(p, "{\"workload\": ")); p++)
		n++;
	return n;
}

static void test_two_runs(void)
{
	static struct figures fig;
	char err[1024], *text = NULL, *json = NULL;
	size_t len;
	struct json j;
	FILE *f;

	write_figures("a.rec", "# idlescope figures 1\n"
		      "menu cyclictest latency_avg_us 53.6 us\n"
		      "# a comment\n\n"
		      "teo cyclictest latency_avg_us 60 us\n"
		      "menu cyclictest latency_max_us 72 us\n"
		      "menu fio-qd1 read_iops 1234.5 IO/s\n");
	write_figures("b.rec", "# idlescope figures 1\nmenu cyclictest latency_avg_us 55.6 us\n");
	check(read_beside(&fig, "a.rec", err, sizeof(err)) == 0 && !err[0],
	      "figures: a good file reads without a word", "%s", err);
	check(read_beside(&fig, "b.rec", err, sizeof(err)) == 0, "figures: a second run reads", "%s", err);
	check(read_beside(&fig, "none.rec", err, sizeof(err)) == 0 && fig.nr_files == 2,
	      "figures: a record file without figures adds nothing", "%d files", fig.nr_files);
	CHECK_EQ("figures: four cells", fig.nr_cells, 4);
	check(fig.cells[0].nr_values == 2 && fig.cells[0].values[0] == 53.6 &&
	      fig.cells[0].values[1] == 55.6, "figures: one value per run, in order",
	      "%d values", fig.cells[0].nr_values);

	f = open_memstream(&text, &len);
	figures_fprint_text(f, &fig);
	fclose(f);
	check(!strcmp(text,
		      "\n== the workloads' own figures (from their programs' output; the unit ends "
		      "each name; mean of (N) runs) ==\n"
		      "cyclictest               menu      teo\n"
		      "  latency_avg_us     54.6 (2)     60.0\n"
		      "  latency_max_us         72.0         \n"
		      "fio-qd1                  menu\n"
		      "  read_iops              1234\n"),
	      "figures: report.txt's table, a column per governor", "got:\n%s", text);

	f = open_memstream(&json, &len);
	j = (struct json){ .f = f };
	json_object(&j, NULL, false);
	figures_json(&j, &fig);
	json_object_end(&j);
	fclose(f);
	check(strstr(json, "{\"workload\": \"cyclictest\", \"governor\": \"menu\", \"figure\": "
		     "\"latency_avg_us\", \"unit\": \"us\", \"runs\": 2, \"mean\": 54.6, "
		     "\"values\": [53.6, 55.6]}") != NULL,
	      "figures: report.json keeps every run's value", "got:\n%s", json);
	check(count_entries(json) == 4, "figures: report.json has an entry per cell", "got:\n%s", json);
	free(text);
	free(json);
	figures_free(&fig);
}

/* What a report of one figures document says: its text and JSON in @text, @json. */
static void print_both(const struct figures *fig, char **text, char **json)
{
	size_t len;
	struct json j;
	FILE *f;

	f = open_memstream(text, &len);
	figures_fprint_text(f, fig);
	fclose(f);
	f = open_memstream(json, &len);
	j = (struct json){ .f = f };
	json_object(&j, NULL, false);
	figures_json(&j, fig);
	json_object_end(&j);
	fclose(f);
}

/* Issue 39's fuzzing: values JSON cannot hold, control bytes, many runs. */
static void test_hostile(void)
{
	static struct figures fig;
	char err[1024], name[32], *text, *json;
	bool ok = true;
	int i;

	write_figures("big1.rec", "# idlescope figures 1\nmenu w big 1.7e308 us\n");
	write_figures("big2.rec", "# idlescope figures 1\nmenu w big 1.7e308 us\n");
	read_beside(&fig, "big1.rec", err, sizeof(err));
	read_beside(&fig, "big2.rec", err, sizeof(err));
	print_both(&fig, &text, &json);
	check(strstr(json, "\"runs\": 2, \"mean\": 1.7e+308,") && !strstr(json, "inf"),
	      "figures: two values of 1.7e308 have the mean 1.7e308, not inf", "got:\n%s", json);
	free(text);
	free(json);
	figures_free(&fig);

	write_figures("esc.rec", "# idlescope figures 1\nmenu w\033[2J f\033]0;t\007 1 u\033\n");
	check(!read_beside(&fig, "esc.rec", err, sizeof(err)) && fig.nr_cells == 1,
	      "figures: names with control bytes read", "%s", err);
	print_both(&fig, &text, &json);
	check(strstr(text, "w\\x1b[2J ") && strstr(text, "  f\\x1b]0;t\\x07") &&
	      !strpbrk(text, "\033\007") && !strpbrk(json, "\033\007"),
	      "figures: ... and reach the report escaped", "got:\n%s%s", text, json);
	free(text);
	free(json);
	figures_free(&fig);

	for (i = 0; i < 40 && ok; i++) {
		snprintf(name, sizeof(name), "run%d.rec", i);
		write_figures(name, "# idlescope figures 1\nmenu w f 1 us\n");
		ok = !read_beside(&fig, name, err, sizeof(err));
	}
	check(ok && fig.cells[0].nr_values == 40, "figures: 40 runs of one figure read (more than 32)",
	      "run %d: %s", i, err);
	figures_free(&fig);
}

static void test_bad_files(void)
{
	static const struct {
		const char *name, *text, *error;
	} cases[] = {
		{ "figures: a file without the header is one error",
		  "menu w f 1 us\n", "bad.rec.figures:1: not an idlescope figures file" },
		{ "figures: an empty file is one error", "", "bad.rec.figures:0: empty" },
		{ "figures: four fields are one error",
		  "# idlescope figures 1\nmenu w f 1\n", "bad.rec.figures:2: expected GOVERNOR" },
		{ "figures: an unknown governor is one error",
		  "# idlescope figures 1\nfrob w f 1 us\n", "bad.rec.figures:2: an unknown governor" },
		{ "figures: a value that is not a number is one error",
		  "# idlescope figures 1\nmenu w f 1.2.3 us\n", "bad.rec.figures:2: the value is not" },
		{ "figures: an infinite value is one error",
		  "# idlescope figures 1\nmenu w f inf us\n", "bad.rec.figures:2: the value is not" },
		{ "figures: a figure twice in one file is one error",
		  "# idlescope figures 1\nmenu w f 1 us\nmenu w f 2 us\n", "given twice" },
		{ "figures: a unit that changes is one error",
		  "# idlescope figures 1\nmenu cyclictest latency_avg_us 5 ms\n",
		  "bad.rec.figures:2: the figure's unit differs" },
		{ "figures: a workload name too long is one error",
		  "# idlescope figures 1\nmenu workloadnamefarmorethan15 f 1 us\n",
		  "bad.rec.figures:2: a name too long" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		static struct figures fig;
		char err[1024];
		int ret;

		figures_free(&fig);
		write_figures("good.rec", "# idlescope figures 1\nmenu cyclictest latency_avg_us 1 us\n");
		read_beside(&fig, "good.rec", err, sizeof(err));
		write_figures("bad.rec", cases[i].text);
		ret = read_beside(&fig, "bad.rec", err, sizeof(err));
		check(ret == -EINVAL && count_lines(err) == 1 && strstr(err, cases[i].error) &&
		      !strncmp(err, "idlescope: error: ", 18),
		      cases[i].name, "ret %d, stderr: %s", ret, err);
	}
}

int main(void)
{
	int status;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_two_runs();
	test_hostile();
	test_bad_files();
	status = check_done();
	/* The plan is out, and stdout flushed: the child repeats nothing. */
	if (!fork())
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	return status;
}
