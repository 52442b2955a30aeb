// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - host unit tests of what the reports print of an
 * aggregate (loader/report/): the log2 and ratio histograms, report.txt and
 * report.json of a hand-made set of periods, with and without shadow
 * models (report.json through tests/check_report_json.py, which must also
 * catch each invariant broken on its own), and the reports' atomic write.
 * The aggregate itself is tests/unit/stats/test_aggregate.c.
 *
 * Built by `make build/tests/test_report`, run by
 * tests/unit/report/report.sh.  Output: one "PASS: <name>" or
 * "FAIL: <name> (<why>)" line per check, then the plan (check.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "stats/aggregate.h"
#include "models/models.h"
#include "replay/inputs.h"
#include "report/report.h"
#include "check.h"
#include "fixtures.h"
#include "governors.h"

/* The model registry's names, in its order, as the pipeline sets them. */
#define shadow_names	model_names

/* ---- the histogram printer ----------------------------------------- */

static char *capture_hist(const unsigned int *vals, int nr, bool ratio)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (ratio)
		print_ratio_hist(f, vals);
	else
		print_log2_hist(f, vals, nr, "usecs");
	fclose(f);
	return buf;
}

static void test_print_log2_hist(void)
{
	unsigned int vals[AGG_LOG2_SLOTS] = { 3, 0, 1 };
	unsigned int wide[AGG_LOG2_SLOTS] = { 0 };
	unsigned int ratio[AGG_RATIO_SLOTS] = { 0 };
	const char *want =
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 3        |****************************************|\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 1        |*************                           |\n";
	char *got;

	got = capture_hist(vals, AGG_LOG2_SLOTS, false);
	check(!strcmp(got, want), "print_log2_hist: libbpf-tools layout, bar = count * 40 / max",
	      "got\n%s", got);
	free(got);

	memset(vals, 0, sizeof(vals));
	got = capture_hist(vals, AGG_LOG2_SLOTS, false);
	check(!strcmp(got, ""), "print_log2_hist: prints nothing when all buckets are 0",
	      "got %s", got);
	free(got);

	/* Bucket 63 is the top: its high end is 2^64-1, columns widen. */
	wide[63] = 1;
	got = capture_hist(wide, AGG_LOG2_SLOTS, false);
	check(strstr(got, "               usecs                         : count    distribution\n") &&
	      strstr(got, " 9223372036854775808 -> 18446744073709551615 : 1        |********************|\n"),
	      "print_log2_hist: bucket 63 prints 2^63 -> 2^64-1 in wide columns",
	      "got\n%s", got);
	free(got);

	/* Ratio rows: from the lowest to the highest non-empty bucket. */
	ratio[-1 - AGG_RATIO_LOG2_MIN] = 2;
	ratio[0 - AGG_RATIO_LOG2_MIN] = 4;
	got = capture_hist(ratio, AGG_RATIO_SLOTS, true);
	check(!strcmp(got,
		      "     predicted/actual    : count    distribution\n"
		      "      2^-1 -> 2^0        : 2        |********************                    |\n"
		      "       2^0 -> 2^1        : 4        |****************************************|\n"),
	      "print_ratio_hist: rows [2^k, 2^(k+1)) between the non-empty ends",
	      "got\n%s", got);
	free(got);
}

/* ---- reports --------------------------------------------------------- */

/*
 * Ten predicted periods of 1000 us on "periodic" / menu2010, predictions
 * chosen so that exactly 3 are within 1.5x, 5 within 2x, 7 within 4x,
 * 9 within 10x and all 10 within 100x.  CPU 0 gets 6, CPU 1 gets 4.
 */
static const __u64 seed_predicted_us[10] = {
	1000, 1500, 700,	/* within 1.5x (1500 is the boundary) */
	2000, 500,		/* within 2x */
	4000, 300,		/* within 4x */
	10000, 100,		/* within 10x */
	50000,			/* within 100x */
};

static void fill_seed_set(struct agg *agg, struct run_meta *meta)
{
	struct idlescope_record rec;
	int i;

	agg_set_states(agg, test_states, 4);
	for (i = 0; i < 10; i++) {
		rec = make_prediction("periodic", IDLESCOPE_GOV_MENU2010, i < 6 ? 0 : 1,
				      seed_predicted_us[i] * US, 1000 * US);
		agg_add(agg, &rec);
	}

	run_meta_init(meta);
	meta->start_time = 1700000000;		/* 2023-11-14T22:13:20Z */
	meta->duration_s = 12.5;
	meta->nr_cpus = 2;
	meta->records_produced[0] = 6;
	meta->records_produced[1] = 5;
	meta->dropped_records[1] = 1;
	meta->ringbuf_size_bytes = 4U << 20;
	meta->predictions_available = true;
	run_meta_add_governor(meta, "menu2010");
	run_meta_add_workload(meta, "periodic");
	run_meta_add_skipped(meta, "fexit_teo_select",
				"no \"teo_select\"\n\\ in BTF");
}

static void test_text_report(const char *dir)
{
	static const char *const want_lines[] = {
		"== workload periodic, governor menu2010 ==\n",
		"  samples 10, predicted 10 (100.0%)\n",
		"    within        samples        %\n",
		"    1.5x                3    30.0%\n",
		"    2x                  5    50.0%\n",
		"    4x                  7    70.0%\n",
		"    10x                 9    90.0%\n",
		"    100x               10   100.0%\n",
		"    1               10  100.0%           10        2.000        2.000\n",
		"  residency, CPU 1 (4 samples):\n",
		"       512 -> 1023       : 10       |****************************************|\n",
		"  1                  5              1\n",
		"  start (UTC)    2023-11-14T22:13:20Z\n",
	};
	struct agg *agg = agg_new();
	struct run_meta meta;
	char path[PATH_MAX], name[160];
	int err;
	bool found, all_found = true;
	char *text;
	size_t i;

	fill_seed_set(agg, &meta);
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	err = report_write_text(agg, &meta, path);
	CHECK_EQ_INT("report_write_text: returns 0", err, 0);
	text = read_file(path);
	check(text != NULL, "report_write_text: report.txt exists", "%s missing", path);
	if (!text)
		goto out;
	for (i = 0; i < ARRAY_SIZE(want_lines); i++) {
		snprintf(name, sizeof(name), "report.txt contains \"%.*s\"",
			 (int)strcspn(want_lines[i], "\n"), want_lines[i]);
		found = strstr(text, want_lines[i]) != NULL;
		check(found, name, "not found (report.txt follows the checks)");
		all_found &= found;
	}
	if (!all_found)
		printf("--- report.txt ---\n%s--- end ---\n", text);
	check(!strstr(text, "shadow replay") && !strstr(text, "2010 before") &&
	      !strstr(text, "shadow models"),
	      "report.txt: no shadow names -> no shadow table", "found one");
	free(text);
out:
	agg_free(agg);
}

static void test_json_report(const char *dir)
{
	struct agg *agg = agg_new(), *empty = agg_new();
	struct run_meta meta;
	char path[PATH_MAX], cmd[3 * PATH_MAX];
	char *json, *streamed = NULL;
	size_t streamed_size = 0;
	FILE *mem;
	int err, status;

	fill_seed_set(agg, &meta);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	err = report_write_json(agg, &meta, path);
	CHECK_EQ_INT("report_write_json: returns 0", err, 0);

	snprintf(cmd, sizeof(cmd),
		 "python3 '%s' '%s'"
		 " --expect schema_version=3"
		 " --expect duration_s=12.5"
		 " --expect start_time_utc=2023-11-14T22:13:20Z"
		 " --expect records_produced=11 --expect dropped_records=1"
		 " --expect per_cpu_records[1].dropped_records=1"
		 " --expect ringbuf_size_bytes=4194304"
		 " --expect predictions_available=true"
		 " --expect skipped_programs[0].name=fexit_teo_select"
		 " --expect results[0].workload=periodic"
		 " --expect results[0].governor=menu2010"
		 " --expect results[0].all_cpus.samples=10"
		 " --expect results[0].all_cpus.predicted_samples=10"
		 " --expect results[0].all_cpus.within_factor[0].count=3"
		 " --expect results[0].all_cpus.within_factor[1].count=5"
		 " --expect results[0].all_cpus.within_factor[2].count=7"
		 " --expect results[0].all_cpus.within_factor[3].count=9"
		 " --expect results[0].all_cpus.within_factor[4].count=10"
		 " --expect results[0].all_cpus.residency_us_hist[9].count=10"
		 " --expect results[0].per_cpu[0].samples=6"
		 " --expect results[0].per_cpu[1].cpu=1"
		 " --expect results[0].per_cpu[1].samples=4"
		 " --expect state_table[2].target_residency_ns=20000",
		 check_script(), path);
	status = system(cmd);
	check(status == 0, "report.json: parses, schema v1 invariants hold, counts match",
	      "%s exited with %d", check_script(), status);

	json = read_file(path);
	check(json && strstr(json, "\"reason\": \"no \\\"teo_select\\\"\\n\\\\ in BTF\""),
	      "report.json: strings are JSON-escaped (quote, newline, backslash)",
	      "escaped reason not found");
	check(json && !strncmp(json, "{\n  \"schema_version\": 3,\n  \"tool\": \"idlescope\",", 47),
	      "report.json: starts with schema_version, then tool", "got %.60s", json);

	mem = open_memstream(&streamed, &streamed_size);
	err = report_fprint_json(mem, agg, &meta);
	fclose(mem);
	check(!err && json && !strcmp(json, streamed),
	      "report_fprint_json: same document as report_write_json (for -j)",
	      "differs (err %d)", err);
	free(json);
	free(streamed);

	/* An empty run is still a valid document. */
	run_meta_init(&meta);
	snprintf(path, sizeof(path), "%s/empty.json", dir);
	err = report_write_json(empty, &meta, path);
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' --expect results=[]"
		 " --expect records_produced=0", check_script(), path);
	status = err ? -1 : system(cmd);
	check(status == 0, "report.json: no records -> valid document, empty results",
	      "err %d status %d", err, status);
	agg_free(agg);
	agg_free(empty);
}

/*
 * The seed set with four shadow models on the same ten periods:
 *	menu2010	(running) predicts what the kernel recorded, and
 *			reproduces it on all but the last period (CPU 1)
 *	menu2010fix	predicts the actual 1000 us: in every row
 *	menu2010rpd	predicts nothing (UNKNOWN) for the first 5, then 4000 us
 *	menu		never asked (UNKNOWN): no samples, "-" cells
 */
static void fill_shadow_set(struct agg *agg, struct run_meta *meta)
{
	struct idlescope_record rec;
	int i;

	fill_seed_set(agg, meta);
	agg_set_shadows(agg, shadow_names, model_input_masks, 4);
	meta->shadow_replay_resets = 7;
	for (i = 0; i < 10; i++) {
		/* the records fill_seed_set() added, in the same keys */
		rec = make_prediction("periodic", IDLESCOPE_GOV_MENU2010, i < 6 ? 0 : 1,
				      seed_predicted_us[i] * US, 1000 * US);
		agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, rec.predicted_ns, i < 9);
		agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, 1000 * US, -1);
		agg_add_shadow(agg, &rec, inputs_of_record(&rec), 2,
			       i < 5 ? IDLESCOPE_UNKNOWN_NS : 4000 * US, -1);
		agg_add_shadow(agg, &rec, inputs_of_record(&rec), 3, IDLESCOPE_UNKNOWN_NS, -1);
	}
}

static void test_shadow_text_report(const char *dir)
{
	static const char *const want_lines[] = {
		"  shadow models  menu2010, menu2010fix, menu2010rpd, menu (7 history resets on gaps in a CPU's periods)\n",
		"  shadow replay, all CPUs (% of each column's predictions within F of actual;\n",
		/* columns: max(name, 7) wide, one space apart */
		"    within   menu2010 menu2010fix menu2010rpd    menu    live 2010 before 2010 p1 2010 p1+2\n",
		"    1.5x         30.0       100.0         0.0       -    30.0        29.1    30.4      34.1\n",
		"    2x           50.0       100.0         0.0       -    50.0        33.6    49.3      52.9\n",
		"    4x           70.0       100.0       100.0       -    70.0        43.6    73.6      75.2\n",
		"    10x          90.0       100.0       100.0       -    90.0        56.9    86.1      86.5\n",
		"    100x        100.0       100.0       100.0       -   100.0        78.4    97.0      97.2\n",
		"    samples        10          10           5       0      10       69854   69854     69854\n",
		"    model menu2010 reproduces the kernel's prediction on 90.0% (9 of 10) of periods\n",
	};
	struct agg *agg = agg_new();
	struct run_meta meta;
	char path[PATH_MAX], name[200];
	bool found, all_found = true;
	const char *table;
	char *text;
	size_t i;

	fill_shadow_set(agg, &meta);
	snprintf(path, sizeof(path), "%s/shadow.txt", dir);
	CHECK_EQ_INT("shadow report.txt: report_write_text returns 0",
		     report_write_text(agg, &meta, path), 0);
	text = read_file(path);
	if (!text) {
		check(false, "shadow report.txt: exists", "%s missing", path);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(want_lines); i++) {
		snprintf(name, sizeof(name), "shadow report.txt contains \"%.*s\"",
			 (int)strcspn(want_lines[i], "\n"), want_lines[i]);
		found = strstr(text, want_lines[i]) != NULL;
		check(found, name, "not found (report.txt follows the checks)");
		all_found &= found;
	}
	check(!strstr(text, "model menu2010fix reproduces") &&
	      !strstr(text, "model menu reproduces"),
	      "shadow report.txt: agreement lines only for checked models", "found one");
	/* The table sits in the pair's section, after the live factor table. */
	table = strstr(text, "  shadow replay, all CPUs");
	check(table && strstr(text, "    100x               10   100.0%\n") < table &&
	      strstr(text, "\n  states:\n") > table,
	      "shadow report.txt: the shadow table follows the live factor table",
	      "misplaced");
	if (!all_found)
		printf("--- shadow.txt ---\n%s--- end ---\n", text);
	free(text);
out:
	agg_free(agg);
}

/* Run the checker on a copy of @path changed by the Python statement @edit. */
static int check_tampered(const char *path, const char *dir, const char *edit)
{
	char cmd[4 * PATH_MAX];

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json; d = json.load(open(\"%s\")); %s; "
		 "json.dump(d, open(\"%s/tampered.json\", \"w\"), indent=1)' && "
		 "python3 '%s' '%s/tampered.json' 2>/dev/null",
		 path, edit, dir, check_script(), dir);
	return system(cmd);
}

static void test_shadow_json_report(const char *dir)
{
	struct agg *agg = agg_new();
	struct run_meta meta;
	char path[PATH_MAX], cmd[4 * PATH_MAX];
	int status;

	fill_shadow_set(agg, &meta);
	snprintf(path, sizeof(path), "%s/shadow.json", dir);
	CHECK_EQ_INT("shadow report.json: report_write_json returns 0",
		     report_write_json(agg, &meta, path), 0);
	snprintf(cmd, sizeof(cmd),
		 "python3 '%s' '%s'"
		 " --expect 'shadow_models=[\"menu2010\", \"menu2010fix\", \"menu2010rpd\", \"menu\"]'"
		 " --expect shadow_replay_resets=7"
		 " --expect seed_reference[0].label=1.5x"
		 " --expect seed_reference[0].before_pct=29.1"
		 " --expect seed_reference[1].patch1_pct=49.3"
		 " --expect seed_reference[3].patch12_pct=86.5"
		 " --expect seed_reference[4].patch12_pct=97.2"
		 " --expect results[0].all_cpus.shadow[0].model=menu2010"
		 " --expect results[0].all_cpus.shadow[0].samples=10"
		 " --expect results[0].all_cpus.shadow[0].within_factor[0].count=3"
		 " --expect results[0].all_cpus.shadow[0].agree_checked=10"
		 " --expect results[0].all_cpus.shadow[0].agree_samples=9"
		 " --expect results[0].all_cpus.shadow[1].within_factor[0].count=10"
		 " --expect results[0].all_cpus.shadow[1].agree_checked=0"
		 " --expect results[0].all_cpus.shadow[2].samples=5"
		 " --expect results[0].all_cpus.shadow[2].within_factor[1].count=0"
		 " --expect results[0].all_cpus.shadow[2].within_factor[2].count=5"
		 " --expect results[0].all_cpus.shadow[2].ratio_log2_hist[18].log2_low=2"
		 " --expect results[0].all_cpus.shadow[2].ratio_log2_hist[18].count=5"
		 " --expect results[0].all_cpus.shadow[3].samples=0"
		 " --expect results[0].per_cpu[0].shadow[0].agree_samples=6"
		 " --expect results[0].per_cpu[1].shadow[0].agree_samples=3"
		 " --expect results[0].per_cpu[1].shadow[2].samples=4"
		 " --expect across_governors[0].workload=periodic"
		 " --expect 'across_governors[0].governors=[\"menu2010\"]'"
		 " --expect across_governors[0].all_governors.shadow[0].agree_samples=9"
		 " --expect across_governors[0].all_governors.shadow[2].samples=5",
		 check_script(), path);
	status = system(cmd);
	check(status == 0, "shadow report.json: checker passes, shadow counts and seed numbers match",
	      "%s exited with %d", check_script(), status);

	/* The checker must catch each broken invariant on its own. */
	check(check_tampered(path, dir, "pass") == 0,
	      "checker: an untouched copy passes (the tampering below is what fails)",
	      "failed");
	check(check_tampered(path, dir,
			     "d[\"results\"][0][\"per_cpu\"][1][\"shadow\"][1][\"agree_checked\"] = 1") != 0,
	      "checker: per-CPU shadow counts must sum to all_cpus", "passed");
	check(check_tampered(path, dir,
			     "s = d[\"results\"][0][\"all_cpus\"][\"shadow\"][0]; "
			     "s[\"agree_checked\"] = 8") != 0,
	      "checker: agree_samples <= agree_checked", "passed");
	check(check_tampered(path, dir,
			     "s = d[\"results\"][0][\"all_cpus\"][\"shadow\"][0]; "
			     "s[\"within_factor\"][1][\"count\"] = 2") != 0,
	      "checker: shadow within_factor grows with F", "passed");
	check(check_tampered(path, dir,
			     "d[\"results\"][0][\"all_cpus\"][\"shadow\"][0][\"model\"] = \"teo\"") != 0,
	      "checker: shadow entries follow shadow_models", "passed");
	check(check_tampered(path, dir,
			     "d[\"across_governors\"][0][\"all_governors\"][\"shadow\"][1][\"agree_checked\"] = 1") != 0,
	      "checker: across_governors sums the workload's results", "passed");
	check(check_tampered(path, dir, "d[\"across_governors\"][0][\"governors\"] = [\"menu\"]") != 0,
	      "checker: across_governors lists the workload's governors", "passed");
	check(check_tampered(path, dir, "d[\"seed_reference\"][1][\"before_pct\"] = 20.0") != 0,
	      "checker: seed_reference grows with F", "passed");
	agg_free(agg);
}

static void test_atomic_write(const char *dir)
{
	struct agg *agg = agg_new();
	struct run_meta meta;
	struct rlimit old_limit, small_limit;
	char sub[512], path[PATH_MAX];
	char *old;
	int err;

	fill_seed_set(agg, &meta);

	/* Directory does not exist. */
	snprintf(sub, sizeof(sub), "%s/atomic", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "%s/missing/report.json", sub);
	err = report_write_json(agg, &meta, path);
	check(err == -ENOENT && count_entries(sub) == 0,
	      "atomic write: missing directory -> -ENOENT, nothing created",
	      "err %d, %d entries", err, count_entries(sub));

	/* Directory without write permission (root ignores modes: use /proc). */
	if (geteuid() != 0) {
		snprintf(path, sizeof(path), "%s/readonly", sub);
		mkdir(path, 0555);
		snprintf(path, sizeof(path), "%s/readonly/report.json", sub);
		err = report_write_text(agg, &meta, path);
		snprintf(path, sizeof(path), "%s/readonly", sub);
		check(err == -EACCES && count_entries(path) == 0,
		      "atomic write: unwritable directory -> -EACCES, no file, no .tmp.",
		      "err %d, %d entries", err, count_entries(path));
		rmdir(path);
	} else {
		err = report_write_text(agg, &meta, "/proc/self/report.txt");
		check(err < 0 && access("/proc/self/report.txt", F_OK) != 0,
		      "atomic write: unwritable directory (/proc as root) -> error, no file",
		      "err %d", err);
	}

	/* rename() fails (the target is a directory): the temp is removed. */
	snprintf(path, sizeof(path), "%s/report.json", sub);
	mkdir(path, 0755);
	err = report_write_json(agg, &meta, path);
	check(err == -EISDIR && count_entries(sub) == 1,
	      "atomic write: failing rename -> -EISDIR, temp file removed",
	      "err %d, %d entries", err, count_entries(sub));
	rmdir(path);

	/* Writing fails midway (file size limit): the old report survives. */
	{
		FILE *f = fopen(path, "w");

		fputs("old\n", f);
		fclose(f);
	}
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old_limit);
	small_limit = old_limit;
	small_limit.rlim_cur = 64;
	setrlimit(RLIMIT_FSIZE, &small_limit);
	err = report_write_json(agg, &meta, path);
	setrlimit(RLIMIT_FSIZE, &old_limit);
	signal(SIGXFSZ, SIG_DFL);
	old = read_file(path);
	check(err == -EFBIG && old && !strcmp(old, "old\n") && count_entries(sub) == 1,
	      "atomic write: failed write -> -EFBIG, previous report intact, no .tmp.",
	      "err %d, %d entries", err, count_entries(sub));
	free(old);

	/* And the good case replaces it, leaving only the report. */
	err = report_write_json(agg, &meta, path);
	old = read_file(path);
	check(!err && old && old[0] == '{' && count_entries(sub) == 1,
	      "atomic write: success replaces the file, no temp left", "err %d", err);
	free(old);
	unlink(path);
	rmdir(sub);
	agg_free(agg);
}

int main(void)
{
	char dir[] = "/tmp/test_report.XXXXXX";
	char cmd[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mkdtemp(dir)) {
		printf("FAIL: setup (mkdtemp: %s)\n", strerror(errno));
		return 1;
	}

	test_print_log2_hist();
	test_text_report(dir);
	test_json_report(dir);
	test_shadow_text_report(dir);
	test_shadow_json_report(dir);
	test_atomic_write(dir);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("warning: could not remove %s\n", dir);
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
