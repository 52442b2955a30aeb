// SPDX-License-Identifier: GPL-2.0
/*
 * test_linuxpm - the linux-pm table, exactly: idles, idle_miss, the miss
 * ratio, belows and aboves of hand-made periods, from the kernel's
 * cpu_idle_miss verdicts or, without that tracepoint, from the state
 * table; the cross-check against sysfs; compare's before/after pair.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/aggregate.h"
#include "report/figures.h"
#include "report/linuxpm.h"
#include "check.h"
#include "fixtures.h"

static const struct agg_state_info states[] = {
	{ .target_residency_ns = 0 },
	{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
	{ .target_residency_ns = 500 * US, .exit_latency_ns = 100 * US },
};

/*
 * @n periods of @workload under @governor: every fourth marked too shallow
 * by the kernel, every tenth too deep; all 1000 us in state 1 (by the
 * state table, all too shallow).
 */
static void add_periods(struct agg *agg, const char *workload, int governor, int n)
{
	struct idlescope_record rec;
	int i;

	for (i = 0; i < n; i++) {
		rec = make_record(workload, governor, i % 2, 1, 1000 * US);
		if (i % 4 == 0)
			rec.flags |= IDLESCOPE_F_MISS_BELOW;
		else if (i % 10 == 1)
			rec.flags |= IDLESCOPE_F_MISS_ABOVE;
		agg_add(agg, &rec);
	}
}

static struct agg *make_agg(int below_shift)
{
	struct agg *agg = agg_new();

	agg_set_states(agg, states, 3);
	add_periods(agg, "", IDLESCOPE_GOV_MENU, 8);		/* untagged: not shown */
	add_periods(agg, "pingpong", IDLESCOPE_GOV_MENU, 1000 + below_shift);
	add_periods(agg, "pingpong", IDLESCOPE_GOV_TEO, 400);
	add_periods(agg, "periodic1ms", IDLESCOPE_GOV_TEO, 40);
	return agg;
}

static char *print_to_string(struct agg *agg, const struct run_meta *meta)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	linuxpm_fprint(f, agg, meta);
	fclose(f);
	return buf;
}

/*
 * pingpong menu: 1000 periods, belows 250 (i % 4 == 0), aboves: i % 10 == 1
 * and not i % 4 == 0, 100 of them; teo 400: 100 and 40.
 */
static const char want_table[] =
	"pingpong                idles  idle_miss miss ratio    belows    aboves     score\n"
	"menu                     1000        350     35.00%       250       100         -\n"
	"teo                       400        140     35.00%       100        40         -\n"
	"\n"
	"periodic1ms             idles  idle_miss miss ratio    belows    aboves     score\n"
	"teo                        40         14     35.00%        10         4         -\n"
	"\n";

static const char want_crosscheck[] =
	"cross-check against sysfs, all runs, every workload and untagged periods:\n"
	"  idles        1448 + 2 dropped, sysfs usage       1450 (+0.00%)\n"
	"  belows        362, sysfs below        400 (-9.50%)\n"
	"  aboves        145, sysfs above        145 (+0.00%)\n";

static void test_table(void)
{
	struct agg *agg = make_agg(0);
	struct run_meta meta = {
		.capabilities = IDLESCOPE_CAP_MISS_TP, .nr_cpus = 2,
		.dropped_records = { 2, 0 }, .sysfs_usage_delta = 1450,
		.sysfs_below_delta = 400, .sysfs_above_delta = 145,
	};
	char *text = print_to_string(agg, &meta);

	check(text && !strncmp(text, want_table, strlen(want_table)),
	      "linux-pm: a block per tagged workload, a row per governor, the kernel's verdicts",
	      "got\n%s", text ? text : "(null)");
	check(text && strstr(text, want_crosscheck),
	      "linux-pm: the records cross-checked against the sysfs counts, dropped ones counted",
	      "got\n%s", text ? text : "(null)");
	free(text);
	meta.capabilities = 0;
	text = print_to_string(agg, &meta);
	check(text && strstr(text, "menu                     1000       1000    100.00%      1000         0") &&
	      strstr(text, "no cpu_idle_miss tracepoint"),
	      "linux-pm: without cpu_idle_miss, the kernel's rule against the state table, said",
	      "got\n%s", text ? text : "(null)");
	free(text);
	meta.sysfs_usage_delta = 0;
	text = print_to_string(agg, &meta);
	check(text && strstr(text, "cross-check against sysfs: not available"),
	      "linux-pm: no sysfs counts, no cross-check, said", "got\n%s", text ? text : "(null)");
	free(text);
	agg_free(agg);
}

/* pingpong's round trips/s under menu in two runs, under teo in none. */
static struct figures two_runs = {
	.nr_files = 2, .nr_cells = 1,
	.cells = { { .governor = "menu", .workload = "pingpong",
		     .figure = "round_trips_per_s", .unit = "1/s",
		     .nr_values = 2, .values = (double[]){ 4000, 5000 } } },
};

/* The same figure in one run, faster: printed whole, not as 3.263e+04. */
static struct figures one_run = {
	.nr_files = 1, .nr_cells = 1,
	.cells = { { .governor = "menu", .workload = "pingpong",
		     .figure = "round_trips_per_s", .unit = "1/s",
		     .nr_values = 1, .values = (double[]){ 32632.4 } } },
};

static void test_compare(void)
{
	struct agg *before = make_agg(0), *after = make_agg(4);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	/* 1004 periods: belows 251, aboves 101: 35.06% */
	linuxpm_fprint_compare(f, &(struct linuxpm_side){ before, NULL, "out/a" },
			       &(struct linuxpm_side){ after, NULL, "out/b" }, -1, -1);
	fclose(f);
	check(buf && strstr(buf, "before: out/a\nafter:  out/b\n\n"
			    "pingpong, menu          idles  idle_miss miss ratio    belows    aboves     score\n"
			    "before                   1000        350     35.00%       250       100         -\n"
			    "after                    1004        352     35.06%       251       101         -\n"
			    "change                                      +0.06pp\n"),
	      "linux-pm: compare prints each workload x governor's before/after pair",
	      "got\n%s", buf ? buf : "(null)");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &size);
	linuxpm_fprint_compare(f, &(struct linuxpm_side){ before, NULL, "a" },
			       &(struct linuxpm_side){ after, NULL, "b" },
			       IDLESCOPE_GOV_MENU, IDLESCOPE_GOV_TEO);
	fclose(f);
	check(buf && strstr(buf, "pingpong, menu -> teo\n"
			    "                        idles  idle_miss miss ratio    belows    aboves     score\n"
			    "before                   1000        350     35.00%       250       100         -\n"
			    "after                     400        140     35.00%       100        40         -\n") &&
	      !strstr(buf, "pingpong, teo") && !strstr(buf, "periodic1ms"),
	      "linux-pm: compare --pair GA:GB pairs A's GA with B's GB only",
	      "got\n%s", buf ? buf : "(null)");
	free(buf);
	agg_free(before);
	agg_free(after);
}

/* compare's pair: each side's own mean of the "before" side's figure. */
static void test_compare_score(void)
{
	struct agg *before = make_agg(0), *after = make_agg(4);
	struct run_meta meta_a = { .figures = &two_runs }, meta_b = { .figures = &one_run };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	linuxpm_fprint_compare(f, &(struct linuxpm_side){ before, &meta_a, "a" },
			       &(struct linuxpm_side){ after, &meta_b, "b" }, -1, -1);
	fclose(f);
	check(buf && strstr(buf, "pingpong, menu, score round_trips_per_s\n"
			    "                        idles  idle_miss miss ratio    belows    aboves     score\n"
			    "before                   1000        350     35.00%       250       100      4500\n"
			    "after                    1004        352     35.06%       251       101     32632\n") &&
	      strstr(buf, "pingpong, teo, score round_trips_per_s\n"
			    "                        idles  idle_miss miss ratio    belows    aboves     score\n"
			    "before                    400        140     35.00%       100        40         -\n"),
	      "linux-pm: compare's pair scores each side by its own figures files",
	      "got\n%s", buf ? buf : "(null)");
	free(buf);
	agg_free(before);
	agg_free(after);
}

/* The workload's own figure, from the figures files, is the score. */
static void test_score(void)
{
	struct agg *agg = make_agg(0);
	struct run_meta meta = { .capabilities = IDLESCOPE_CAP_MISS_TP,
				 .figures = &two_runs };
	char *text = print_to_string(agg, &meta);

	check(text && strstr(text, "pingpong, score round_trips_per_s\n"
			     "                        idles  idle_miss miss ratio    belows    aboves     score\n"
			     "menu                     1000        350     35.00%       250       100      4500\n"
			     "teo                       400        140     35.00%       100        40         -\n"),
	      "linux-pm: the score is the workload's first figure, its mean over runs",
	      "got\n%s", text ? text : "(null)");
	free(text);
	agg_free(agg);
}

int main(void)
{
	test_table();
	test_score();
	test_compare();
	test_compare_score();
	return check_done();
}
