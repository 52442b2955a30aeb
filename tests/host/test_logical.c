// SPDX-License-Identifier: GPL-2.0
/*
 * test_logical.c - logical idle periods (loader/stats/logical.h): a known
 * sequence of raw periods, some ended by the tick alone and followed
 * straight by the next, merges into exactly the logical periods expected,
 * each scored against its first entry's prediction, through the pipeline
 * as every report takes it.
 */
#include <string.h>
#include "pipeline.h"
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

/* A period of @cpu under @gov: its residency, flags, prediction and seq. */
static void period(struct pipeline *pl, int cpu, int gov, __u64 residency_ns,
		   unsigned int flags, __u64 predicted_ns, __u32 skip)
{
	struct idlescope_record rec = make_prediction("logic", gov, cpu, predicted_ns,
						      residency_ns);

	next_seq[cpu] += skip;
	rec.seq = next_seq[cpu]++;
	rec.flags |= flags;
	pipeline_add(pl, &rec);
}

static void test_merges(void)
{
	const struct agg *lagg;
	struct agg_stats st;
	struct pipeline pl = {};

	if (pipeline_init(&pl, states, ARRAY_SIZE(states), 1000)) {
		check(false, "logical: the pipeline starts", "pipeline_init failed");
		return;
	}
	/* CPU 0, menu: five logical periods of 2.5, 3, 0.2, 1 and 1.7 ms. */
	period(&pl, 0, IDLESCOPE_GOV_MENU, 1 * MS, TICK, 2500 * US, 0);
	period(&pl, 0, IDLESCOPE_GOV_MENU, 1 * MS, TICK | CONT, 1 * MS, 0);
	period(&pl, 0, IDLESCOPE_GOV_MENU, 500 * US, SLEEP | CONT, 1 * MS, 0);
	/* the tick and a sleep fired: not the tick alone, what follows is new */
	period(&pl, 0, IDLESCOPE_GOV_MENU, 3 * MS, TICK | SLEEP | CONT, 3 * MS, 0);
	period(&pl, 0, IDLESCOPE_GOV_MENU, 200 * US, CONT, 10 * MS, 0);
	/* a task ran before it: not continued */
	period(&pl, 0, IDLESCOPE_GOV_MENU, 1 * MS, TICK, 1 * MS, 0);
	/* continued, but a period was lost before it (seq gap) */
	period(&pl, 0, IDLESCOPE_GOV_MENU, 1 * MS, TICK | CONT, 1700 * US, 1);
	period(&pl, 0, IDLESCOPE_GOV_MENU, 700 * US, CONT, 1 * MS, 0);
	/* CPU 1: continued across a governor switch stays two periods. */
	period(&pl, 1, IDLESCOPE_GOV_MENU, 1 * MS, TICK, 1 * MS, 0);
	period(&pl, 1, IDLESCOPE_GOV_TEO, 2 * MS, CONT, 2 * MS, 0);
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

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_merges();
	return nr_failed ? 1 : 0;
}
