// SPDX-License-Identifier: GPL-2.0
/*
 * test_report_views.c - host unit tests of the views across governors:
 * report.txt's first sections, report.json's across_governors, summary.md
 * (loader/report/summary.c) and the per-workload SVG (loader/report/plot.c).  Records
 * are made by hand for 2 workloads x 3 governors and every number below is
 * computed by hand from them.
 *
 * Run it with tests/unit/report/report_views.sh.  Output: one "PASS: <name>" or
 * "FAIL: <name> (<why>)" line per check; exit status 1 if any failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "stats/aggregate.h"
#include "replay/inputs.h"
#include "report/headline.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary.h"
#include "check.h"
#include "fixtures.h"

#define MENU		IDLESCOPE_GOV_MENU
#define TEO		IDLESCOPE_GOV_TEO
#define MENU2010	IDLESCOPE_GOV_MENU2010

/* Two models; "menu2010" and "menu" are also governors of the runs. */
static const char *const models[] = { "menu2010", "menu" };
static const unsigned int models_inputs[] = { MODEL_INPUTS_MENU2010, MODEL_INPUTS_MENU };

static const struct agg_state_info states[] = {
	{ .target_residency_ns = 0 },
	{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
	{ .target_residency_ns = 500 * US, .exit_latency_ns = 100 * US },
};

/*
 * Add @rec with both models' scores: "menu2010" predicts the actual
 * duration exactly, "menu" predicts 4x the actual, except on teo's periods
 * where it predicts nothing (0).  @agree is the running model's agreement
 * with the kernel (-1: not checked).
 */
static void add(struct agg *agg, struct idlescope_record rec, int agree)
{
	bool teo = rec.governor == TEO;

	agg_add(agg, &rec);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, rec.residency_ns,
		       rec.governor == MENU2010 ? agree : -1);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, teo ? 0 : 4 * rec.residency_ns,
		       rec.governor == MENU ? agree : -1);
}

/*
 * steady: 11 periods.
 *	menu, CPU 0: 4 periods of 1000 us, predictions 1000 (1x), 1800
 *		(1.8x), 3000 (3x), 50 us (1/20): within 1.5x 1 of 4, 2x 2,
 *		4x 3, 10x 3, 100x 4; one flagged too deep.  All in state 1.
 *	teo, CPU 1: 5 periods without predictions, 3 x 100 us in state 0
 *		and 2 x 700 us in state 2: 300 of 1700 us = 17.6% in
 *		state 0, 82.4% in state 2; 2 of 5 flagged too shallow.
 *	menu2010, CPU 0: 2 periods of 1000 us, predictions 2000 (2x, the
 *		boundary) and 1000: within 1.5x 1 of 2, 2x and above 2 of 2.
 * The "menu" model agrees with all 4 menu periods, "menu2010" with 1 of 2.
 *
 * bursty: 4 periods.
 *	menu: 10 us for 1000 (1/100: only within 100x), 4000 for 1000
 *		(4x): within 1.5x 0 of 2, 2x 0, 4x 1, 10x 1, 100x 2.
 *	teo: 1 period of 50 us in state 0.
 *	menu2010: 1500 for 1000 (1.5x, the boundary): within every F.
 */
static struct agg *make_runs(void)
{
	static const __u64 steady_menu_us[] = { 1000, 1800, 3000, 50 };
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	unsigned int i;

	agg_set_states(agg, states, ARRAY_SIZE(states));
	agg_set_shadows(agg, models, models_inputs, ARRAY_SIZE(models));

	for (i = 0; i < ARRAY_SIZE(steady_menu_us); i++) {
		rec = make_prediction("steady", MENU, 0, steady_menu_us[i] * US,
				      1000 * US);
		if (i == 3)
			rec.flags |= IDLESCOPE_F_MISS_ABOVE;
		add(agg, rec, 1);
	}
	for (i = 0; i < 5; i++) {
		rec = make_record("steady", TEO, 1, i < 3 ? 0 : 2,
				  i < 3 ? 100 * US : 700 * US);
		if (i >= 3)
			rec.flags |= IDLESCOPE_F_MISS_BELOW;
		add(agg, rec, -1);
	}
	add(agg, make_prediction("steady", MENU2010, 0, 2000 * US, 1000 * US), 0);
	add(agg, make_prediction("steady", MENU2010, 0, 1000 * US, 1000 * US), 1);

	add(agg, make_prediction("bursty", MENU, 0, 10 * US, 1000 * US), -1);
	add(agg, make_prediction("bursty", MENU, 0, 4000 * US, 1000 * US), -1);
	add(agg, make_record("bursty", TEO, 0, 0, 50 * US), -1);
	add(agg, make_prediction("bursty", MENU2010, 1, 1500 * US, 1000 * US), -1);
	return agg;
}

static void make_meta(struct run_meta *meta)
{
	run_meta_init(meta);
	meta->start_time = 1700000000;
	meta->nr_cpus = 2;
	meta->records_produced[0] = 11;
	meta->records_produced[1] = 4;
	run_meta_add_governor(meta, "menu");
	run_meta_add_governor(meta, "teo");
	run_meta_add_governor(meta, "menu2010");
	run_meta_add_workload(meta, "steady");
	run_meta_add_workload(meta, "bursty");
	meta->predictions_available = true;
}

/* A table row as "cell|cell|...", to compare with one string. */
static const char *row_of(const struct table *t, int row)
{
	static char buf[TABLE_MAX_COLS * TABLE_CELL_LEN];
	size_t len = 0;
	int col;

	buf[0] = '\0';
	for (col = 0; col < t->nr_cols; col++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				col ? "|" : "", table_cell(t, row, col));
	return buf;
}

static void check_rows(const char *what, const struct table *t,
		       const char *const *want, int nr)
{
	char name[160];
	int row;

	CHECK_EQ_INT(what, t->nr_rows, nr);
	for (row = 0; row < nr && row < t->nr_rows; row++) {
		snprintf(name, sizeof(name), "%s: row \"%s\"", what, want[row]);
		check(!strcmp(row_of(t, row), want[row]), name, "got \"%s\"",
		      row_of(t, row));
	}
}

static void test_view(const struct agg *agg)
{
	struct report_workload_view view;
	int nr;

	nr = report_workload_view(agg, agg_workload_index(agg, "steady"), &view);
	check(nr == 3 && view.governors[0] == MENU && view.governors[1] == TEO &&
	      view.governors[2] == MENU2010,
	      "view: steady has menu, teo, menu2010, in id order", "nr %d", nr);
	check(view.per_governor[1].samples == 5 && view.all.samples == 11 &&
	      view.all.shadow[1].samples == 4 && view.all.shadow[1].excluded_samples == 7,
	      "view: per governor all CPUs (teo 5), all governors 11, model menu scored only on menu's 4",
	      "teo %llu all %llu", (unsigned long long)view.per_governor[1].samples,
	      (unsigned long long)view.all.samples);
	CHECK_EQ_INT("view: a workload without records -> 0 governors",
		     report_workload_view(agg, 7, &view), 0);
}

static void test_tables(const struct agg *agg)
{
	static const char *const steady_live[] = {
		"within|menu|teo|menu2010",
		"1.5x|25.0|-|50.0",
		"2x|50.0|-|100.0",
		"4x|75.0|-|100.0",
		"10x|75.0|-|100.0",
		"100x|100.0|-|100.0",
		"predicted|4|0|2",
		"periods|4|5|2",
		"ideal hit %|0.0|40.0|0.0",
		"deeper than ideal %|0.0|0.0|0.0",
		"shallower than ideal %|100.0|60.0|100.0",
		"shallow time %|100.0|17.6|100.0",
		"kernel above %|25.0|0.0|0.0",
		"kernel below %|0.0|40.0|0.0",
	};
	static const char *const bursty_live[] = {
		"within|menu|teo|menu2010",
		"1.5x|0.0|-|100.0",
		"2x|0.0|-|100.0",
		"4x|50.0|-|100.0",
		"10x|50.0|-|100.0",
		"100x|100.0|-|100.0",
		"predicted|2|0|1",
		"periods|2|1|1",
		"ideal hit %|0.0|0.0|0.0",
		"deeper than ideal %|0.0|0.0|0.0",
		"shallower than ideal %|100.0|100.0|100.0",
		"shallow time %|100.0|100.0|100.0",
		"kernel above %|0.0|0.0|0.0",
		"kernel below %|0.0|0.0|0.0",
	};
	static const char *const steady_states[] = {
		"state|menu|teo|menu2010",
		"0 (0 us)|0.0|17.6|0.0",
		"1 (2 us)|100.0|0.0|100.0",
		"2 (500 us)|0.0|82.4|0.0",
	};
	/* On menu2010's own periods: stock menu's model lacks its inputs there. */
	static const char *const steady_shadow[] = {
		"within|menu2010|menu|live|2010 before|2010 p1|2010 p1+2",
		"1.5x|100.0|-|50.0|29.1|30.4|34.1",
		"2x|100.0|-|100.0|33.6|49.3|52.9",
		"4x|100.0|-|100.0|43.6|73.6|75.2",
		"10x|100.0|-|100.0|56.9|86.1|86.5",
		"100x|100.0|-|100.0|78.4|97.0|97.2",
		"samples|2|0|2|69854|69854|69854",
		"excluded|0|2|-|-|-|-",
	};
	struct report_workload_view view;
	char line[256];
	struct table t;

	report_workload_view(agg, agg_workload_index(agg, "steady"), &view);
	report_live_table(&view, &t);
	check_rows("live table, steady", &t, steady_live, ARRAY_SIZE(steady_live));
	report_states_table(agg, &view, &t);
	check_rows("idle time per state, steady", &t, steady_states,
		   ARRAY_SIZE(steady_states));
	report_shadow_table(agg, &view.per_governor[2], true, &t);
	check_rows("shadow table on menu2010's periods, steady", &t, steady_shadow,
		   ARRAY_SIZE(steady_shadow));

	check(headline_format_agreement(line, sizeof(line), agg, &view.all, 0) &&
	      !strcmp(line, "model menu2010 reproduces the kernel's prediction on 50.0% (1 of 2) of periods"),
	      "agreement: model menu2010, summed over all governors' runs: 1 of 2",
	      "got \"%s\"", line);
	check(headline_format_agreement(line, sizeof(line), agg, &view.all, 1) &&
	      !strcmp(line, "model menu reproduces the kernel's prediction on 100.0% (4 of 4) of periods"),
	      "agreement: model menu: 4 of 4", "got \"%s\"", line);

	report_workload_view(agg, agg_workload_index(agg, "bursty"), &view);
	report_live_table(&view, &t);
	check_rows("live table, bursty", &t, bursty_live, ARRAY_SIZE(bursty_live));
	check(!headline_format_agreement(line, sizeof(line), agg, &view.all, 0),
	      "agreement: never checked on bursty -> no line", "got \"%s\"", line);
}

static bool contains(const char *text, const char *want, const char *what)
{
	/* Named by its first non-empty line: names must differ. */
	const char *first = want + strspn(want, "\n");
	char name[256];
	bool found = text && strstr(text, want);

	snprintf(name, sizeof(name), "%s contains \"%.*s\"", what,
		 (int)strcspn(first, "\n"), first);
	check(found, name, "not found");
	return found;
}

static void test_text_report(const struct agg *agg, const char *dir)
{
	static const char *const want[] = {
		"\n== workload steady, across governors ==\n",
		/* label column as wide as "shallower than ideal %", others >= 7 */
		"    within                    menu     teo menu2010\n"
		"    1.5x                      25.0       -     50.0\n",
		"    kernel below %             0.0    40.0      0.0\n",
		"    shallower than ideal %   100.0    60.0    100.0\n",
		/* each table its own widths: here "2 (500 us)" */
		"    state         menu     teo menu2010\n",
		"    2 (500 us)     0.0    82.4      0.0\n",
		/* menu2010's own periods; stock menu's model lacks their inputs */
		"    within   menu2010    menu    live 2010 before 2010 p1 2010 p1+2\n",
		"    1.5x        100.0       -    50.0        29.1    30.4      34.1\n",
		"    samples         2       0       2       69854   69854     69854\n",
		"    excluded        0       2       -           -       -         -\n",
		"    model menu reproduces the kernel's prediction on 100.0% (4 of 4) of periods\n",
	};
	struct run_meta meta;
	char path[PATH_MAX];
	const char *across, *pair;
	bool all = true;
	char *text;
	size_t i;

	make_meta(&meta);
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	CHECK_EQ_INT("report.txt: written", report_write_text(agg, &meta, path), 0);
	text = read_file(path);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		all &= contains(text, want[i], "report.txt");
	across = text ? strstr(text, "== workload bursty, across governors ==") : NULL;
	pair = text ? strstr(text, "== workload steady, governor menu ==") : NULL;
	check(across && pair && across < pair,
	      "report.txt: every across-governors section comes before the pair sections",
	      "misplaced");
	if (!all && text)
		printf("--- report.txt ---\n%s--- end ---\n", text);
	free(text);
}

static void test_json_report(const struct agg *agg, const char *dir)
{
	struct run_meta meta;
	char path[PATH_MAX], cmd[3 * PATH_MAX];
	int status;

	make_meta(&meta);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	CHECK_EQ_INT("report.json: written", report_write_json(agg, &meta, path), 0);
	snprintf(cmd, sizeof(cmd),
		 "python3 '%s' '%s'"
		 " --expect across_governors[0].workload=steady"
		 " --expect 'across_governors[0].governors=[\"menu\", \"teo\", \"menu2010\"]'"
		 " --expect across_governors[0].all_governors.samples=11"
		 " --expect across_governors[0].all_governors.shadow[0].agree_checked=2"
		 " --expect across_governors[0].all_governors.shadow[1].samples=4"
		 " --expect across_governors[0].all_governors.shadow[1].excluded_samples=7"
		 " --expect across_governors[1].workload=bursty"
		 " --expect across_governors[1].all_governors.state_residency_ns[0]=50000"
		 " --expect results[1].governor=teo"
		 " --expect 'results[1].all_cpus.state_residency_ns=[300000, 0, 1400000, 0, 0, 0, 0, 0, 0, 0]'",
		 check_script(), path);
	status = system(cmd);
	check(status == 0,
	      "report.json: across_governors sums each workload's results, state time per state",
	      "%s exited with %d", check_script(), status);
}

static void test_summary(const struct agg *agg, const char *dir)
{
	static const char *const want[] = {
		"# idlescope summary\n",
		"governors menu, teo, menu2010; 15 idle periods recorded, 0 dropped.\n",
		"\n## Workload steady\n",
		"| within | menu | teo | menu2010 |\n"
		"| :--- | ---: | ---: | ---: |\n"
		"| 1.5x | 25.0 | - | 50.0 |\n",
		"| predicted | 4 | 0 | 2 |\n| periods | 4 | 5 | 2 |\n"
		"| ideal hit % | 0.0 | 40.0 | 0.0 |\n",
		"| kernel above % | 25.0 | 0.0 | 0.0 |\n| kernel below % | 0.0 | 40.0 | 0.0 |\n",
		"\n### Shadow replay on governor menu2010's periods, and the seed's 2010 numbers\n",
		"| within | menu2010 | menu | live | 2010 before | 2010 p1 | 2010 p1+2 |\n",
		"| 1.5x | 100.0 | - | 50.0 | 29.1 | 30.4 | 34.1 |\n",
		"| samples | 2 | 0 | 2 | 69854 | 69854 | 69854 |\n",
		"- model menu2010 reproduces the kernel's prediction on 50.0% (1 of 2) of periods\n",
		"| 2 (500 us) | 0.0 | 82.4 | 0.0 |\n",
		"![prediction / actual, steady](plots/steady.svg)\n",
		"\n## Workload bursty\n",
		"| 4x | 50.0 | - | 100.0 |\n",
		"![prediction / actual, bursty](plots/bursty.svg)\n",
	};
	struct run_meta meta;
	char path[PATH_MAX], *md, *txt;
	bool all = true;
	size_t i;

	make_meta(&meta);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	CHECK_EQ_INT("summary.md: report_write_summary returns 0",
		     report_write_summary(agg, &meta, path), 0);
	md = read_file(path);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		all &= contains(md, want[i], "summary.md");
	/* The same cells as report.txt, laid out differently. */
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	txt = read_file(path);
	check(md && txt && strstr(txt, "82.4") && strstr(md, "82.4") &&
	      !strstr(md, "    "),
	      "summary.md: report.txt's numbers, no text-table padding", "differs");
	if (!all && md)
		printf("--- summary.md ---\n%s--- end ---\n", md);
	free(md);
	free(txt);
}

/*
 * Parse the SVG with Python's XML parser; check its size, @nr polylines,
 * each with a point per bucket shown inside the plot, and @legend among
 * its texts.
 */
static int check_svg(const char *path, int nr, const char *legend)
{
	char cmd[2 * PATH_MAX + 1024];

	snprintf(cmd, sizeof(cmd),
		 "python3 -c '\n"
		 "import sys, xml.etree.ElementTree as ET\n"
		 "ns = \"{http://www.w3.org/2000/svg}\"\n"
		 "root = ET.parse(sys.argv[1]).getroot()\n"
		 "assert root.tag == ns + \"svg\", root.tag\n"
		 "assert (root.get(\"width\"), root.get(\"height\")) == (\"800\", \"450\")\n"
		 "lines = root.findall(ns + \"polyline\")\n"
		 "assert len(lines) == int(sys.argv[2]), len(lines)\n"
		 "for l in lines:\n"
		 "    for p in l.get(\"points\").split():\n"
		 "        x, y = map(float, p.split(\",\"))\n"
		 "        assert 0 <= x <= 800 and 0 <= y <= 450, p\n"
		 "texts = [\"\".join(t.itertext()) for t in root.iter(ns + \"text\")]\n"
		 "assert sys.argv[3] in texts, texts\n"
		 "' '%s' %d '%s'", path, nr, legend);
	return system(cmd);
}

static void test_plots(const struct agg *agg, const char *dir)
{
	char path[PATH_MAX], name[64];
	char *svg;
	int err;

	plot_file_name(agg, agg_workload_index(agg, "steady"), name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = plot_write_ratio_svg(agg, agg_workload_index(agg, "steady"), path);
	CHECK_EQ_INT("plot: steady.svg written", err, 0);
	/* 2 models + menu and menu2010 live; teo predicts nothing: no line */
	check(!err && check_svg(path, 4, "menu (live, 4)") == 0,
	      "plot: valid XML, 800x450, one polyline per series (2 models, 2 predicting governors)",
	      "see the python message above");
	svg = read_file(path);
	check(svg && strstr(svg, ">menu2010 (shadow, 2)<") &&
	      strstr(svg, ">menu (shadow, 4)<") && strstr(svg, ">menu2010 (live, 2)<") &&
	      !strstr(svg, "teo ("),
	      "plot: legend names each series with its sample count, teo absent",
	      "legend wrong");
	check(svg && strstr(svg, "workload steady: predicted / actual") &&
	      strstr(svg, "11 periods") && strstr(svg, ">within 2x<"),
	      "plot: title with the workload and periods, the within-2x band labelled",
	      "missing");
	/* Data from 1/32 (50 us for 1000) to [4, 8): boundaries 1/32 .. 8. */
	check(svg && strstr(svg, ">1/32<") && strstr(svg, ">8<") &&
	      !strstr(svg, ">1/64<") && !strstr(svg, ">16<"),
	      "plot: x axis trimmed to the buckets with data (1/32 .. 8)",
	      "wrong range");
	/* The live menu line and its model share a colour, dashed. */
	check(svg && strstr(svg, "stroke=\"#ff7f0e\" stroke-dasharray=\"6 4\" points="),
	      "plot: live menu dashed in the colour of model menu", "not found");
	free(svg);
}

static void test_escaping(const char *dir)
{
	static const char weird[] = "x|<y>&'\"";
	struct agg *agg = agg_new();
	struct run_meta meta;
	char path[PATH_MAX], name[64];
	struct idlescope_record rec;
	char *md;

	agg_set_shadows(agg, models, models_inputs, ARRAY_SIZE(models));
	rec = make_prediction(weird, MENU, 0, 1000 * US, 1000 * US);
	add(agg, rec, 1);
	/* Not replayed: no model predicts for it either. */
	rec = make_record("", TEO, 0, 0, 10 * US);
	agg_add(agg, &rec);

	CHECK_EQ_INT("plot_file_name: unsafe bytes -> _xx",
		     plot_file_name(agg, 0, name, sizeof(name)), 0);
	check(!strcmp(name, "x_7c_3cy_3e_26_27_22.svg"),
	      "plot_file_name: x|<y>&'\" -> x_7c_3cy_3e_26_27_22.svg", "got %s", name);
	plot_file_name(agg, 1, name, sizeof(name));
	check(!strcmp(name, "_none.svg"), "plot_file_name: no workload -> _none.svg",
	      "got %s", name);
	CHECK_EQ_INT("plot_file_name: buffer too small -> -ENAMETOOLONG",
		     plot_file_name(agg, 0, name, 8), -ENAMETOOLONG);
	CHECK_EQ_INT("plot_file_name: unknown workload -> -EINVAL",
		     plot_file_name(agg, 5, name, sizeof(name)), -EINVAL);

	snprintf(path, sizeof(path), "%s/weird.svg", dir);
	/* model menu (4x) and menu live; menu2010's model lacks menu's inputs */
	check(plot_write_ratio_svg(agg, 0, path) == 0 &&
	      check_svg(path, 2, "menu (live, 1)") == 0,
	      "plot: a workload named x|<y>&'\" still gives valid XML", "invalid");
	snprintf(path, sizeof(path), "%s/none.svg", dir);
	check(plot_write_ratio_svg(agg, 1, path) == 0 && check_svg(path, 0, "no predictions recorded") == 0,
	      "plot: no predictions -> valid SVG without lines, saying so", "invalid");

	make_meta(&meta);
	snprintf(path, sizeof(path), "%s/weird.md", dir);
	report_write_summary(agg, &meta, path);
	md = read_file(path);
	check(md && strstr(md, "\n## Workload x\\|\\<y\\>&'\"\n") &&
	      strstr(md, "(plots/x_7c_3cy_3e_26_27_22.svg)") && strstr(md, "\n## Workload (none)\n"),
	      "summary.md: Markdown characters in names escaped, plot link uses the file name",
	      "not found");
	free(md);
	agg_free(agg);
}

static void test_missing_directory(const struct agg *agg, const char *dir)
{
	struct run_meta meta;
	char sub[PATH_MAX], path[2 * PATH_MAX];
	int err;

	make_meta(&meta);
	snprintf(sub, sizeof(sub), "%s/empty", dir);
	mkdir(sub, 0755);

	snprintf(path, sizeof(path), "%s/plots/steady.svg", sub);
	err = plot_write_ratio_svg(agg, 0, path);
	check(err == -ENOENT && count_entries(sub) == 0,
	      "plot: missing directory -> -ENOENT, nothing left behind",
	      "err %d, %d entries", err, count_entries(sub));
	snprintf(path, sizeof(path), "%s/missing/summary.md", sub);
	err = report_write_summary(agg, &meta, path);
	check(err == -ENOENT && count_entries(sub) == 0,
	      "summary.md: missing directory -> -ENOENT, nothing left behind",
	      "err %d, %d entries", err, count_entries(sub));
	snprintf(path, sizeof(path), "%s/nine.svg", sub);
	err = plot_write_ratio_svg(agg, 9, path);
	check(err == -EINVAL && count_entries(sub) == 0,
	      "plot: unknown workload -> -EINVAL, no file", "err %d", err);
	rmdir(sub);
}

int main(void)
{
	char dir[] = "/tmp/test_report_views.XXXXXX";
	char cmd[64];
	struct agg *agg;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(dir)) {
		printf("FAIL: setup (mkdtemp: %s)\n", strerror(errno));
		return 1;
	}
	agg = make_runs();

	test_view(agg);
	test_tables(agg);
	test_text_report(agg, dir);
	test_json_report(agg, dir);
	test_summary(agg, dir);
	test_plots(agg, dir);
	test_escaping(dir);
	test_missing_directory(agg, dir);

	agg_free(agg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("warning: could not remove %s\n", dir);
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
