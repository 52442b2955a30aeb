// SPDX-License-Identifier: GPL-2.0
/*
 * test_logical.c - logical idle periods (loader/stats/logical.h): a known
 * sequence of raw periods, some ended by the tick alone and followed
 * straight by the next, merges into exactly the logical periods expected,
 * each scored against its first entry's prediction, through the pipeline
 * as every report takes it; and through record files, one per CPU and
 * boot, whose own aggregates merged give what one file gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pipeline.h"
#include "stats/logical.h"
#include "check.h"
#include "fixtures.h"

#define MS	(1000 * US)
#define TICK	IDLESCOPE_F_TICK_ENDED
#define SLEEP	IDLESCOPE_F_SLEEP_WOKE
#define CONT	IDLESCOPE_F_IDLE_CONTINUED

static const struct idlescope_state states[] = {
	{ .target_residency_ns = 0, .exit_latency_ns = 0, .polling = 1 },
	{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
};

static __u32 next_seq[IDLESCOPE_MAX_CPUS];
static struct idlescope_record recs[16];
static int nr_recs;

/* A period of @cpu under @gov: its residency, flags, prediction and seq. */
static void period(int cpu, int gov, __u64 residency_ns, unsigned int flags,
		   __u64 predicted_ns, __u32 skip)
{
	struct idlescope_record rec = make_prediction("logic", gov, cpu, predicted_ns,
						      residency_ns);

	next_seq[cpu] += skip;
	rec.seq = next_seq[cpu]++;
	rec.flags |= flags;
	recs[nr_recs++] = rec;
}

/*
 * The sequence: CPU 0, menu, five logical periods of 2.5, 3, 0.2, 1 and
 * 1.7 ms in 8 raw ones; CPU 1, two.
 */
static void make_sequence(void)
{
	period(0, IDLESCOPE_GOV_MENU, 1 * MS, TICK, 2500 * US, 0);
	period(0, IDLESCOPE_GOV_MENU, 1 * MS, TICK | CONT, 1 * MS, 0);
	period(0, IDLESCOPE_GOV_MENU, 500 * US, SLEEP | CONT, 1 * MS, 0);
	/* the tick and a sleep fired: not the tick alone, what follows is new */
	period(0, IDLESCOPE_GOV_MENU, 3 * MS, TICK | SLEEP | CONT, 3 * MS, 0);
	period(0, IDLESCOPE_GOV_MENU, 200 * US, CONT, 10 * MS, 0);
	/* a task ran before it: not continued */
	period(0, IDLESCOPE_GOV_MENU, 1 * MS, TICK, 1 * MS, 0);
	/* continued, but a period was lost before it (seq gap) */
	period(0, IDLESCOPE_GOV_MENU, 1 * MS, TICK | CONT, 1700 * US, 1);
	period(0, IDLESCOPE_GOV_MENU, 700 * US, CONT, 1 * MS, 0);
	/* CPU 1: continued across a governor switch stays two periods. */
	period(1, IDLESCOPE_GOV_MENU, 1 * MS, TICK, 1 * MS, 0);
	period(1, IDLESCOPE_GOV_TEO, 2 * MS, CONT, 2 * MS, 0);
}

static void test_merges(void)
{
	const struct agg *lagg;
	struct agg_stats st;
	struct pipeline pl = {};
	int i;

	if (pipeline_init(&pl, states, ARRAY_SIZE(states), 1000, NULL)) {
		check(false, "logical: the pipeline starts", "pipeline_init failed");
		return;
	}
	for (i = 0; i < nr_recs; i++)
		pipeline_add(&pl, &recs[i]);
	pipeline_flush(&pl);

	lagg = agg_logical(pl.agg);
	check(lagg != NULL, "logical: the pipeline keeps a logical aggregate", "none attached");
	if (!lagg) {
		pipeline_free(&pl);
		return;
	}
	agg_sum(lagg, AGG_ANY, IDLESCOPE_GOV_MENU, 0, &st);
	CHECK_EQ("logical: cpu0's 8 raw periods are 5 logical ones", st.samples, 5);
	CHECK_EQ("logical: their lengths add up to 8.4 ms", st.residency_sum_ns, 8400 * US);
	CHECK_EQ("logical: the shortest is the 0.2 ms one after a sleep", st.residency_min_ns,
		 200 * US);
	CHECK_EQ("logical: the longest is the 3 ms one", st.residency_max_ns, 3 * MS);
	/* us buckets: 200 in [128, 256), 1000 in [512, 1024), 1700, 2500 and 3000 above */
	check(st.residency_us_hist[7] == 1 && st.residency_us_hist[9] == 1 &&
	      st.residency_us_hist[10] == 1 && st.residency_us_hist[11] == 2,
	      "logical: the five lengths are 0.2, 1, 1.7, 2.5 and 3 ms",
	      "log2 us buckets 7, 9, 10, 11: %u %u %u %u", st.residency_us_hist[7],
	      st.residency_us_hist[9], st.residency_us_hist[10], st.residency_us_hist[11]);
	/* 2.5 ms for 2.5, 3 for 3, 10 for 0.2, 1 for 1, 1.7 for 1.7 */
	CHECK_EQ("logical: each is scored against its first entry's prediction",
		 st.within_factor[0], 4);
	CHECK_EQ("logical: ... all 5 of them", st.predicted_samples, 5);
	agg_sum(pl.agg, AGG_ANY, IDLESCOPE_GOV_MENU, 0, &st);
	CHECK_EQ("logical: the raw view keeps cpu0's 8 periods", st.samples, 8);
	agg_sum(lagg, AGG_ANY, AGG_ANY, 1, &st);
	CHECK_EQ("logical: a governor switch ends a logical period", st.samples, 2);
	pipeline_free(&pl);
}

/* A killed run's file (no trailer) of the records of @cpu (-1: all), boot @boot_id. */
static int write_file(const char *path, int cpu, const char *boot_id)
{
	struct recfile_header hdr;
	FILE *f;
	int i;

	recfile_header_init(&hdr);
	hdr.nr_cpus = 2;
	hdr.nr_states = ARRAY_SIZE(states);
	hdr.hz = 1000;
	snprintf(hdr.clock_mode, sizeof(hdr.clock_mode), "virtual");
	snprintf(hdr.boot_id, sizeof(hdr.boot_id), "%s", boot_id);
	memcpy(hdr.states, states, sizeof(states));
	f = recfile_create(path, &hdr);
	if (!f)
		return -1;
	for (i = 0; i < nr_recs; i++)
		if ((cpu < 0 || recs[i].cpu == (__u32)cpu) &&
		    fwrite(&recs[i], sizeof(recs[i]), 1, f) != 1)
			break;
	return fclose(f) || i < nr_recs ? -1 : 0;
}

/* @paths through the pipeline as `idlescope report` takes them; 0 or -1. */
static int replay_files(struct pipeline *pl, const char *const *paths, int nr)
{
	__u64 records_read[IDLESCOPE_MAX_CPUS];
	struct recfile rf;
	bool cut_short;
	int i, err = 0;

	for (i = 0; i < nr && !err; i++) {
		if (recfile_open(&rf, paths[i]))
			return -1;
		err = pipeline_add_file(pl, &rf, i == 0, records_read, &cut_short);
		recfile_close(&rf);
	}
	return err ? -1 : 0;
}

/* The logical periods of every governor and CPU of @agg's logical aggregate. */
static void logical_sum(const struct agg *agg, struct agg_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (agg && agg_logical(agg))
		agg_sum(agg_logical(agg), AGG_ANY, AGG_ANY, AGG_ANY, st);
}

static void test_files_merge(void)
{
	char dir[] = "/tmp/test_logical.XXXXXX", one[64], cpu0[64], cpu1[64];
	const char *split[2] = { cpu0, cpu1 };
	const char *whole[1] = { one };
	struct pipeline pl_one = {}, pl_two = {};
	struct agg_stats a, b, boot0, boot1;
	bool ok;

	if (!mkdtemp(dir)) {
		check(false, "logical: two files merged are one file's logical periods",
		      "mkdtemp failed");
		return;
	}
	snprintf(one, sizeof(one), "%s/one.rec", dir);
	snprintf(cpu0, sizeof(cpu0), "%s/cpu0.rec", dir);
	snprintf(cpu1, sizeof(cpu1), "%s/cpu1.rec", dir);
	ok = !write_file(one, -1, "boot-a") && !write_file(cpu0, 0, "boot-a") &&
	     !write_file(cpu1, 1, "boot-b") && !replay_files(&pl_one, whole, 1) &&
	     !replay_files(&pl_two, split, 2);
	check(ok, "logical: the sequence replays from one file and from two",
	      "writing or replaying the files failed");
	logical_sum(pl_one.agg, &a);
	logical_sum(pl_two.agg, &b);
	CHECK_EQ("logical: one file's 10 raw periods are 7 logical ones", a.samples, 7);
	check(a.samples == b.samples && a.residency_sum_ns == b.residency_sum_ns &&
	      a.within_factor[0] == b.within_factor[0] &&
	      a.predicted_samples == b.predicted_samples &&
	      !memcmp(a.residency_us_hist, b.residency_us_hist, sizeof(a.residency_us_hist)),
	      "logical: two files merged are one file's logical periods",
	      "one file: %llu periods, %llu ns, %llu within 1.5x; two: %llu, %llu ns, %llu",
	      (unsigned long long)a.samples, (unsigned long long)a.residency_sum_ns,
	      (unsigned long long)a.within_factor[0], (unsigned long long)b.samples,
	      (unsigned long long)b.residency_sum_ns, (unsigned long long)b.within_factor[0]);
	logical_sum(agg_boot(pl_two.agg, 0), &boot0);
	logical_sum(agg_boot(pl_two.agg, 1), &boot1);
	check(agg_nr_boots(pl_two.agg) == 2 && boot0.samples == 5 && boot1.samples == 2 &&
	      boot0.residency_sum_ns == 8400 * US,
	      "logical: each boot keeps its own logical periods (5 of 8.4 ms, 2)",
	      "%d boots: %llu periods (%llu ns) and %llu", agg_nr_boots(pl_two.agg),
	      (unsigned long long)boot0.samples, (unsigned long long)boot0.residency_sum_ns,
	      (unsigned long long)boot1.samples);
	pipeline_free(&pl_one);
	pipeline_free(&pl_two);
	unlink(one);
	unlink(cpu0);
	unlink(cpu1);
	rmdir(dir);
}

/* Only the tick's own hrtimer makes a period the tick's alone. */
static void test_tick_only(void)
{
	static const struct {
		unsigned int flags;
		bool tick_only;
	} cases[] = {
		{ TICK, true }, { TICK | CONT, true }, { TICK | SLEEP, false },
		{ TICK | IDLESCOPE_F_TIMER_LIST, false }, { IDLESCOPE_F_TIMER_LIST, false },
		{ 0, false },
	};
	struct idlescope_record rec = make_record("t", IDLESCOPE_GOV_MENU, 0, 1, 1 * MS);
	unsigned int i, wrong = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rec.flags = cases[i].flags;
		wrong += logical_tick_only(&rec) != cases[i].tick_only;
	}
	CHECK_EQ("logical: a timer_list expiry the tick fired for is not the tick alone",
		 wrong, 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	make_sequence();
	test_merges();
	test_files_merge();
	test_tick_only();
	return check_done();
}
