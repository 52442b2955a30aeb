// SPDX-License-Identifier: GPL-2.0
/*
 * test_wakeup - every score judges a period by when its wake-up came, not
 * by the exit the idle driver spent after it (loader/stats/period.h).
 * Records of known wake-up times and states, on idlescope_states' Skylake
 * table with its default power table, through the pipeline as every report
 * takes them; the verdicts and energies below are worked out by hand:
 *
 *	state   0    1   2    3    4    5     6    7     8
 *	name    POLL C1  C1E  C3   C6   C7s   C8   C9    C10
 *	exit us 0    2   10   70   85   124   200  480   890
 *	target  0    2   20   100  200  800   800  5000  5000
 *	mW      1000 300 200  100  50   25    20   10    5
 *	exit uJ 0    1.4 3.4  13.4 23.4 43.4  47.4 97.4  122.4
 *
 * - C8 entered on a 600 us wake-up (an 800 us residency with its exit):
 *   the ideal state of 600 us is C6 (target 200 <= 600 < 800), so C8 is
 *   too deep; judged on the residency it would be C8's own target, a hit.
 * - C7s on a 700 us wake-up (824 us with its exit): too deep, ideal C6;
 *   on the residency, C8's 800 us would make it too shallow.
 * - C10 on a 50 us wake-up (940 us with its exit): C10's energy is
 *   5 mW * 50 us + 122.4 uJ = 122.65 uJ; the oracle's, C1E's (the
 *   cheapest state over 50 us), 200 mW * 50 us + 3.4 uJ = 13.4 uJ:
 *   +815.3%.  On the residency, the oracle would be charged C8 on 940 us,
 *   20 mW * 940 us + 47.4 uJ = 66.2 uJ, and C10 5 * 940 + 122.4 = 127.1:
 *   +92.0%.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pipeline.h"
#include "stats/why.h"
#include "check.h"
#include "fixtures.h"

#define MS		(1000 * US)
#define FJ_PER_UJ	1000000000ULL

static const unsigned int exit_target_us[][2] = {
	{ 0, 0 }, { 2, 2 }, { 10, 20 }, { 70, 100 }, { 85, 200 }, { 124, 800 },
	{ 200, 800 }, { 480, 5000 }, { 890, 5000 },
};
#define NR_STATES	ARRAY_SIZE(exit_target_us)

static struct idlescope_state states[NR_STATES];
static __u32 next_seq[IDLESCOPE_MAX_CPUS];

static void init_states(void)
{
	unsigned int i;

	for (i = 0; i < NR_STATES; i++) {
		states[i].exit_latency_ns = exit_target_us[i][0] * US;
		states[i].target_residency_ns = exit_target_us[i][1] * US;
	}
	states[0].polling = 1;
}

/* A pipeline on the Skylake states, its default power table on. */
static bool start_with(struct pipeline *pl, unsigned int exit_cost)
{
	memset(pl, 0, sizeof(*pl));
	memset(next_seq, 0, sizeof(next_seq));
	pl->exit_cost = exit_cost;
	return !pipeline_init(pl, states, NR_STATES, 1000, NULL);
}

static bool start(struct pipeline *pl)
{
	return start_with(pl, RECFILE_EXIT_COST_UNKNOWN);
}

/*
 * Ladder's period on @cpu in @state, woken @woke_ns after its entry, the
 * state's declared exit then spent and timed (@timed) or not spent at all.
 */
static struct idlescope_record woken(int cpu, const char *tag, int state, __u64 woke_ns,
				     bool timed)
{
	struct idlescope_record rec = make_record(tag, IDLESCOPE_GOV_LADDER, cpu, state, woke_ns);

	rec.seq = next_seq[cpu]++;
	if (timed) {
		rec.exit_ns = states[state].exit_latency_ns;
		rec.residency_ns += rec.exit_ns;
		rec.flags |= IDLESCOPE_F_EXIT_TIMED;
	}
	return rec;
}

static void sum(const struct pipeline *pl, const char *tag, int cpu, struct agg_stats *st)
{
	int w = agg_workload_index(pl->agg, tag);

	memset(st, 0, sizeof(*st));
	if (w >= 0)
		agg_sum(pl->agg, w, IDLESCOPE_GOV_LADDER, cpu, st);
}

static void test_ideal_state(void)
{
	struct idlescope_record rec;
	struct pipeline pl;
	struct agg_stats st;

	if (!start(&pl)) {
		check(false, "wake-up: the pipeline starts", "pipeline_init failed");
		return;
	}
	CHECK_EQ_INT("wake-up: the ideal state of 600 us is C6",
		     agg_ideal_state(pl.agg, 600 * US, IDLESCOPE_LATENCY_REQ_UNKNOWN), 4);
	rec = woken(0, "c8", 6, 600 * US, true);
	pipeline_add(&pl, &rec);
	sum(&pl, "c8", 0, &st);
	check(st.ideal_samples == 1 && st.ideal_too_deep_samples == 1 &&
	      st.ideal_hit_samples == 0 && st.ideal_idle_ns == 600 * US,
	      "wake-up: C8 on a 600 us wake-up is too deep (ideal C6), not a hit",
	      "scored %llu, deep %llu, hit %llu, idle %llu ns",
	      (unsigned long long)st.ideal_samples, (unsigned long long)st.ideal_too_deep_samples,
	      (unsigned long long)st.ideal_hit_samples, (unsigned long long)st.ideal_idle_ns);
	rec = woken(0, "c7s", 5, 700 * US, true);
	pipeline_add(&pl, &rec);
	sum(&pl, "c7s", 0, &st);
	check(st.ideal_too_deep_samples == 1 && st.ideal_too_shallow_samples == 0,
	      "wake-up: C7s on a 700 us wake-up is too deep, not too shallow",
	      "deep %llu, shallow %llu", (unsigned long long)st.ideal_too_deep_samples,
	      (unsigned long long)st.ideal_too_shallow_samples);
	check(st.residency_sum_ns == 824 * US && st.crosscheck_samples == 1 &&
	      st.too_deep_samples == 0 && st.too_shallow_samples == 0,
	      "wake-up: the residency and the kernel's rule keep entry to exit (824 us)",
	      "residency %llu ns", (unsigned long long)st.residency_sum_ns);
	pipeline_free(&pl);
}

/*
 * Untimed exits (the loader without --exit-timing) with the exit cost on:
 * a halting state spent its declared latency after the wake-up, unless
 * its residency was no longer (it never halted).
 */
static void test_untimed(void)
{
	struct idlescope_record rec;
	struct pipeline pl;
	struct agg_stats st;

	if (!start_with(&pl, RECFILE_EXIT_COST_ON))
		return;
	rec = woken(0, "c8", 6, 800 * US, false);
	pipeline_add(&pl, &rec);
	rec = woken(0, "short", 6, 150 * US, false);
	pipeline_add(&pl, &rec);
	sum(&pl, "c8", 0, &st);
	check(st.ideal_too_deep_samples == 1 && st.ideal_idle_ns == 600 * US,
	      "wake-up: untimed, the exit cost on: C8's 800 us less its 200 us exit, too deep",
	      "deep %llu, idle %llu ns", (unsigned long long)st.ideal_too_deep_samples,
	      (unsigned long long)st.ideal_idle_ns);
	sum(&pl, "short", 0, &st);
	CHECK_EQ("wake-up: ... but a residency shorter than the exit spent none",
		 st.ideal_idle_ns, 150 * US);
	CHECK_EQ("wake-up: ... and untimed exits are no figure of the exit spent",
		 agg_exit_spent(pl.agg, 6)->count, 0);
	pipeline_free(&pl);
}

static void test_energy(void)
{
	struct idlescope_record rec;
	struct why_stats ws;
	struct pipeline pl;
	double excess;

	if (!start(&pl))
		return;
	rec = woken(0, "c10", 8, 50 * US, true);
	pipeline_add(&pl, &rec);
	why_sum(agg_why(pl.agg), agg_workload_index(pl.agg, "c10"), IDLESCOPE_GOV_LADDER, 0, &ws);
	excess = 100.0 * (double)(ws.energy.energy_fj - ws.energy.oracle_fj) /
		 (double)ws.energy.oracle_fj;
	check(ws.energy.periods == 1 && ws.energy.energy_fj == 122650000000ULL &&
	      ws.energy.oracle_fj == 13400000000ULL && ws.energy.deeper == 1 &&
	      fabs(excess - 815.2985) < 0.001,
	      "wake-up: C10 on a 50 us wake-up costs 122.65 uJ against C1E's 13.4 (+815.3%)",
	      "%llu periods, %.3f against %.3f uJ, %+.4f%%",
	      (unsigned long long)ws.energy.periods, energy_fj_to_uj(ws.energy.energy_fj),
	      energy_fj_to_uj(ws.energy.oracle_fj), excess);
	pipeline_free(&pl);

	/* The same C10 period judged on its residency, the old way. */
	if (!start(&pl))
		return;
	rec = woken(0, "c10", 8, 940 * US, false);
	pipeline_add(&pl, &rec);
	why_sum(agg_why(pl.agg), 0, IDLESCOPE_GOV_LADDER, 0, &ws);
	check(ws.energy.energy_fj == 127100000000ULL && ws.energy.oracle_fj == 66200000000ULL,
	      "wake-up: judged on its 940 us residency it would seem +92% (C8 on 940 us)",
	      "%.3f against %.3f uJ", energy_fj_to_uj(ws.energy.energy_fj),
	      energy_fj_to_uj(ws.energy.oracle_fj));
	pipeline_free(&pl);
}

static void test_prediction_and_exit(void)
{
	struct idlescope_record rec;
	const struct exit_spent *es;
	struct pipeline pl;
	struct agg_stats st;

	if (!start(&pl))
		return;
	/* 1000 us predicted: 1.67x the 600 us wake-up, 1.25x the 800 us residency. */
	rec = woken(0, "pred", 6, 600 * US, true);
	rec.predicted_ns = 1000 * US;
	rec.flags |= IDLESCOPE_F_PREDICTED;
	pipeline_add(&pl, &rec);
	sum(&pl, "pred", 0, &st);
	check(st.predicted_samples == 1 && st.within_factor[0] == 0 && st.within_factor[1] == 1,
	      "wake-up: 1000 us predicted for a 600 us wake-up is within 2x, not 1.5x",
	      "1.5x %llu, 2x %llu", (unsigned long long)st.within_factor[0],
	      (unsigned long long)st.within_factor[1]);
	rec = woken(1, "pred", 6, 3 * MS, true);
	rec.exit_ns = 212 * US;
	rec.residency_ns = 3 * MS + rec.exit_ns;
	pipeline_add(&pl, &rec);
	es = agg_exit_spent(pl.agg, 6);
	/* p99 is 212 us's slot, [208896, 212992) ns, by its middle. */
	check(es->count == 2 && es->min_ns == 200 * US && es->max_ns == 212 * US &&
	      exit_spent_percentile_ns(es, 50) == 200 * US &&
	      exit_spent_percentile_ns(es, 99) == 210944,
	      "wake-up: C8's two exits spent (200, 212 us) are its own figure",
	      "%llu exits, p50 %llu, p99 %llu, max %llu ns", (unsigned long long)es->count,
	      (unsigned long long)exit_spent_percentile_ns(es, 50),
	      (unsigned long long)exit_spent_percentile_ns(es, 99),
	      (unsigned long long)es->max_ns);
	pipeline_free(&pl);
}

/*
 * With the exit cost off the idle driver spends nothing after the wake-up:
 * a record whose exit was timed at 0 ns scores exactly as one whose exit
 * was not timed.  200 periods over every state and a spread of lengths.
 */
static void test_exit_cost_off(void)
{
	struct agg_stats a, b;
	struct why_stats wa, wb;
	struct pipeline pa, pb;
	struct idlescope_record rec;
	int i;

	if (!start(&pa) || !start(&pb))
		return;
	for (i = 0; i < 200; i++) {
		rec = make_prediction("off", IDLESCOPE_GOV_LADDER, i % 2, (i * 37 % 900) * US,
				      (i * 53 % 1100 + 1) * US);
		rec.state = i % NR_STATES;
		rec.seq = i / 2;
		pipeline_add(&pa, &rec);
		rec.flags |= IDLESCOPE_F_EXIT_TIMED;
		rec.exit_ns = 0;
		pipeline_add(&pb, &rec);
	}
	sum(&pa, "off", AGG_ANY, &a);
	sum(&pb, "off", AGG_ANY, &b);
	why_sum(agg_why(pa.agg), -1, -1, -1, &wa);
	why_sum(agg_why(pb.agg), -1, -1, -1, &wb);
	check(a.samples == 200 && !memcmp(&a, &b, sizeof(a)) &&
	      wa.energy.energy_fj == wb.energy.energy_fj &&
	      wa.energy.oracle_fj == wb.energy.oracle_fj,
	      "wake-up: with the exit cost off the wake-up and the exit coincide",
	      "samples %llu", (unsigned long long)a.samples);
	pipeline_free(&pa);
	pipeline_free(&pb);
}

/*
 * A logical period: C1E until the tick 900 us in (its 10 us exit spent),
 * then C10 for 3 ms more.  Its actual is 910 + 3000 = 3910 us, whose ideal
 * state is C8 (target 800 <= 3910 < 5000): 900 of its 3900 us in a state
 * shallower than that, 3000 in a deeper one, none in C8.
 */
static void test_logical_time(void)
{
	struct idlescope_record first, second;
	const struct agg *lagg;
	struct agg_stats st;
	struct pipeline pl;
	struct ci_pct deep, shallow, hit;

	if (!start(&pl))
		return;
	first = woken(1, "lg", 2, 900 * US, true);
	first.flags |= IDLESCOPE_F_TICK_ENDED | IDLESCOPE_F_PREDICTED;
	first.predicted_ns = 4 * MS;
	second = woken(1, "lg", 8, 3 * MS, true);
	second.flags |= IDLESCOPE_F_IDLE_CONTINUED;
	pipeline_add(&pl, &first);
	pipeline_add(&pl, &second);
	pipeline_flush(&pl);
	lagg = agg_logical(pl.agg);
	memset(&st, 0, sizeof(st));
	if (lagg)
		agg_sum(lagg, AGG_ANY, IDLESCOPE_GOV_LADDER, 1, &st);
	hit = ci_result(&st.ideal_hit_ci);
	deep = ci_result(&st.ideal_too_deep_ci);
	shallow = ci_result(&st.ideal_too_shallow_ci);
	check(st.samples == 1 && st.ideal_split_samples == 1 && st.ideal_idle_ns == 3910 * US &&
	      hit.pct == 0 && fabs(deep.pct - 300000.0 / 3900) < 1e-9 &&
	      fabs(shallow.pct - 90000.0 / 3900) < 1e-9,
	      "logical: C1E 900 us then C10 3 ms is 23.1% shallower, 76.9% deeper than C8",
	      "%llu periods, %llu split, idle %llu ns, hit %.3f deep %.3f shallow %.3f",
	      (unsigned long long)st.samples, (unsigned long long)st.ideal_split_samples,
	      (unsigned long long)st.ideal_idle_ns, hit.pct, deep.pct, shallow.pct);
	check(st.predicted_samples == 1 && st.within_factor[0] == 1,
	      "logical: its first entry's 4 ms is within 1.5x of its 3.91 ms",
	      "predicted %llu, 1.5x %llu", (unsigned long long)st.predicted_samples,
	      (unsigned long long)st.within_factor[0]);
	sum(&pl, "lg", 1, &st);
	check(st.samples == 2 && st.ideal_too_shallow_samples == 1 &&
	      st.ideal_too_deep_samples == 1,
	      "logical: the raw view keeps its two periods, each wholly one verdict",
	      "samples %llu", (unsigned long long)st.samples);
	pipeline_free(&pl);
}

int main(void)
{
	init_states();
	test_ideal_state();
	test_untimed();
	test_energy();
	test_prediction_and_exit();
	test_exit_cost_off();
	test_logical_time();
	return check_done();
}
