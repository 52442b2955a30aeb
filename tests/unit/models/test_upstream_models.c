// SPDX-License-Identifier: GPL-2.0
/*
 * test_upstream_models.c - host unit tests of the models of the upstream
 * changes our 6.12 series carries (docs/upstream.md): menu615 (6.12's menu
 * with 6.15's get_typical_interval()), teo70 (7.0's teo), and the variant
 * of teo-6.12 with 6.1's candidate state that the 300 us ablation runs
 * (docs/kernels.md).
 *
 * The table is the synthetic driver's default, Skylake client's:
 *
 *	index	0	1	2	3	4	5	6	7	8
 *	state	POLL	C1	C1E	C3	C6	C7s	C8	C9	C10
 *	exit us	0	2	10	70	85	124	200	480	890
 *	target	0	2	20	100	200	800	800	5000	5000
 *
 * at HZ 1000 (a 1 ms tick, TICK_NSEC 1000000).  Each expected value is
 * worked out by hand from the kernel code, the arithmetic beside it.
 *
 * Output: one "PASS: <name>" or "FAIL: <name> (<why>)" line per check;
 * exit status 1 if any failed.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "models/menu.h"
#include "models/teo.h"
#include "check.h"
#include "skl_table.h"

#define KTIME_MAX	MODEL_KTIME_MAX
#define PULSE		1024

enum { POLL, C1, C1E, C3, C6, C7S, C8, C9, C10 };

/*
 * get_typical_interval() of 6.12 and of 6.15
 * ==========================================
 */
struct typical_case {
	const char *name;
	unsigned int intervals_us[MENU_INTERVALS];
	unsigned int want_612, want_615;
};

static void test_typical_intervals(void)
{
	static const struct typical_case cases[] = {
		/* variance 0 in the first pass: the average, 100 */
		{ "steady intervals: both the average",
		  { 100, 100, 100, 100, 100, 100, 100, 100 }, 100, 100 },
		/*
		 * 6.12 drops from the top only: avg 3505 / 8 = 438, variance
		 * (7 * 62^2 + 433^2) / 8 = 26799, not steady; every 500 goes
		 * (thresh 499) and the lone 5 has variance 0: 5.  6.15: mean
		 * 438, 438 - 5 = 433 > 500 - 438 = 62, so the 5 goes and
		 * seven 500s have variance 0: 500.
		 */
		{ "one low outlier: 6.12 keeps it (5), 6.15 drops it (500)",
		  { 500, 500, 500, 500, 500, 500, 500, 5 }, 5, 500 },
		/*
		 * 6.15: mean 353, 353 - 20 = 333 < 1000 - 353 = 647: 1000
		 * goes; mean 1825 / 7 = 260, 260 - 20 = 240 > 310 - 260 = 50:
		 * 20 goes; six left, mean 1805 / 6 = 300, variance
		 * 543225 / 6 - 300^2 = 537, and 300^2 > 36 * 537 with six
		 * samples, 3/4 of eight: steady, 300.  6.12 drops 1000, then
		 * 310, and six with the 20 in are not steady: UINT_MAX.
		 */
		{ "outliers at both ends: 6.12 none, 6.15 the average (300)",
		  { 300, 300, 310, 290, 1000, 20, 300, 305 }, UINT_MAX, 300 },
		/*
		 * 6.15 drops 800 then 700 (mean 450, then 400: both ends
		 * equally far, a tie drops the top); six left, mean 350,
		 * variance 910000 / 6 - 350^2 = 29166: not steady, no
		 * sample left to drop, at least half left: the largest, 600
		 * (85975daeaa4d).  6.12 ends with UINT_MAX.
		 */
		{ "a spread 6.15 bounds by its largest sample (600), 6.12 none",
		  { 100, 200, 300, 400, 500, 600, 700, 800 }, UINT_MAX, 600 },
		/*
		 * One pass: six left (100 x4, 150 x2), mean 700 / 6 = 116,
		 * variance 85000 / 6 - 116^2 = 710 (two passes make it
		 * 3336 / 6 = 556): not steady either way; 6.15 returns 150.
		 */
		{ "a short burst between long gaps: 6.15 150, 6.12 none",
		  { 100, 150, 100, 900, 100, 150, 100, 2000 }, UINT_MAX, 150 },
		/* A select that entered no state: UINT_MAX, dropped by both. */
		{ "a lost select's UINT_MAX sample: both ignore it (300)",
		  { UINT_MAX, 300, 300, 300, 300, 300, 300, 300 }, 300, 300 },
		{ "no interval yet: both none",
		  { 0, 0, 0, 0, 0, 0, 0, 0 }, UINT_MAX, UINT_MAX },
	};
	char name[160];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(name, sizeof(name), "typical interval 6.12, %s", cases[i].name);
		CHECK_EQ(name, model_menu612_typical_interval(cases[i].intervals_us),
			 cases[i].want_612);
		snprintf(name, sizeof(name), "typical interval 6.15, %s", cases[i].name);
		CHECK_EQ(name, model_menu615_typical_interval(cases[i].intervals_us),
			 cases[i].want_615);
	}
}

/* A period on a fresh CPU with these intervals, a 10 ms timer, the tick 1 ms away. */
static int menu_select_with(enum model_id id, const unsigned int *intervals_us,
			    __u64 *predicted_ns)
{
	struct model_states_table table = skl_table();
	struct model_input in = { 0 };
	struct model_state ms;

	model_reset(&ms, id);
	memcpy(model_menu_data(&ms)->intervals, intervals_us,
	       MENU_INTERVALS * sizeof(intervals_us[0]));
	in.next_timer_ns = 10 * MS;
	in.delta_tick_ns = 1 * MS;
	in.latency_req_ns = NO_QOS_NS;
	in.inputs = IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_TICK |
		    IDLESCOPE_F_HAS_TICK_STATE;
	*predicted_ns = model_step(&ms, &in, &table);
	return ms.chosen_state;
}

static void test_menu615_step(void)
{
	static const unsigned int low_outlier[MENU_INTERVALS] = {
		500, 500, 500, 500, 500, 500, 500, 5,
	};
	__u64 predicted_ns;
	int state;

	/*
	 * 6.12: typical 5 us, at most RESIDENCY_THRESHOLD_NS with the tick
	 * running, so no timer asked: 5000 ns predicted; C1 (2 us) fits,
	 * C1E (20 us) does not: C1.
	 */
	state = menu_select_with(MODEL_MENU612, low_outlier, &predicted_ns);
	CHECK_EQ("menu-6.12 on a low outlier predicts 5 us", predicted_ns, 5 * US);
	CHECK_EQ_INT("menu-6.12 on a low outlier chooses C1", state, C1);
	/*
	 * menu615: typical 500 us asks for the timer, 10 ms, bucket 4 at
	 * unity: (4096000 + 10 ms * 8192) / 8192000 = 10000 us, the lower
	 * is 500 us; C6 (200 us) fits, C7s (800 us) does not: C6.
	 */
	state = menu_select_with(MODEL_MENU615, low_outlier, &predicted_ns);
	CHECK_EQ("menu615 on a low outlier predicts 500 us", predicted_ns, 500 * US);
	CHECK_EQ_INT("menu615 on a low outlier chooses C6", state, C6);
}

/*
 * teo70
 * =====
 */
struct teo70_sim {
	struct model_state ms;
	struct model_states_table table;
	struct model_input in;
	struct model_teo70 *cpu;
};

/* A fresh teo70 CPU: a record with the tick state, the tick 1 ms away. */
static void teo70_start(struct teo70_sim *s)
{
	memset(s, 0, sizeof(*s));
	model_reset(&s->ms, MODEL_TEO70);
	s->cpu = model_teo70_data(&s->ms);
	s->table = skl_table();
	s->in.latency_req_ns = NO_QOS_NS;
	s->in.prev_chosen_by_model = true;
	s->in.delta_tick_ns = 1 * MS;
	s->in.inputs = IDLESCOPE_F_HAS_TICK | IDLESCOPE_F_HAS_TICK_STATE;
}

/* No period to learn from: the bins as the test set them. */
static void teo70_no_update(struct teo70_sim *s)
{
	s->cpu->last_state_idx = -1;
}

/* The period before: @residency_ns in @state, @tick: the tick ended it. */
static void teo70_prev(struct teo70_sim *s, int state, __u64 residency_ns, bool tick)
{
	s->in.has_prev = true;
	s->in.prev_state = state;
	s->in.prev_residency_ns = residency_ns;
	s->in.prev_tick_wakeup = tick;
}

/* ->select() with a record holding the sleep length @next_timer_ns (0: none). */
static int teo70_select(struct teo70_sim *s, __u64 next_timer_ns)
{
	s->in.next_timer_ns = next_timer_ns ? next_timer_ns : (__u64)KTIME_MAX;
	if (next_timer_ns)
		s->in.inputs |= IDLESCOPE_F_HAS_NEXT_TIMER;
	else
		s->in.inputs &= ~IDLESCOPE_F_HAS_NEXT_TIMER;
	model_step(&s->ms, &s->in, &s->table);
	return s->ms.chosen_state;
}

static void test_teo70_first_period(void)
{
	struct teo70_sim s;

	/*
	 * ->enable() left the sleep length 0, so only POLL's bin is within
	 * it; 3 ms in C10 less half its 890 us exit is 2555000 ns, also in
	 * bin 0, and 0 - 2555000 < 445000: a hit.  Then no intercepts
	 * below C10 (2 * 0 > 1024 - 1024 fails), the timer 10 ms: C10.
	 */
	teo70_start(&s);
	teo70_prev(&s, C10, 3 * MS, false);
	CHECK_EQ_INT("teo70: 3 ms in C10 then a 10 ms timer: C10", teo70_select(&s, 10 * MS), C10);
	CHECK_EQ("teo70: ... the first period is a hit in POLL's bin", s.cpu->state_bins[POLL].hits,
		 PULSE);
	CHECK_EQ("teo70: ... the total is that one PULSE", s.cpu->total, PULSE);
	CHECK_EQ("teo70: ... it asked for the sleep length", s.cpu->sleep_length_ns, 10 * MS);
}

static void test_teo70_after_enable(void)
{
	struct teo70_sim s;

	/*
	 * A governor switch: ->enable() zeroed teo70's data, the period
	 * before was reflected to the old governor (no has_prev), but the
	 * core kept its state and residency, which the first update reads:
	 * 3 ms in C10, a hit in POLL's bin (the sleep length is 0), C10.
	 */
	teo70_start(&s);
	teo70_prev(&s, C10, 3 * MS, true);
	s.in.has_prev = false;
	s.in.prev_in_core = true;
	CHECK_EQ_INT("teo70: after ->enable(), 3 ms in C10 kept by the core: C10",
		     teo70_select(&s, 10 * MS), C10);
	CHECK_EQ("teo70: ... a hit in POLL's bin", s.cpu->state_bins[POLL].hits, PULSE);
	CHECK_EQ("teo70: ... not a tick wakeup (teo70's own flag was zeroed)", s.cpu->total_tick, 0);
	/*
	 * Nothing kept (the period before is not in the records): the
	 * update learns a residency of 0, an intercept in POLL's bin and a
	 * short period, and the intercepts take it to POLL.
	 */
	teo70_start(&s);
	CHECK_EQ_INT("teo70: after ->enable() with nothing kept: POLL", teo70_select(&s, 10 * MS),
		     POLL);
	CHECK_EQ("teo70: ... an intercept in POLL's bin", s.cpu->state_bins[POLL].intercepts, PULSE);
}

/* One period in C6 after a 300 us sleep length: which bin counts it. */
static void teo70_c6_period(struct teo70_sim *s, __u64 residency_ns)
{
	teo70_start(s);
	s->cpu->sleep_length_ns = 300 * US;
	teo70_prev(s, C6, residency_ns, false);
	teo70_select(s, 300 * US);
}

static void test_teo70_hit_rule(void)
{
	struct teo70_sim s;

	/*
	 * 280 us in C6 (exit 85 us) measures 280000 - 42500 = 237500 ns,
	 * C6's bin as the 300 us timer; but 300000 - 237500 = 62500 is not
	 * below 42500: woken before the timer was due, an intercept (6.12
	 * counted a hit: same bin), and at most a tick: a tick intercept.
	 */
	teo70_c6_period(&s, 280 * US);
	CHECK_EQ("teo70: 280 us in C6 on a 300 us timer is an intercept in C6's bin",
		 s.cpu->state_bins[C6].intercepts, PULSE);
	CHECK_EQ("teo70: ... not a hit", s.cpu->state_bins[C6].hits, 0);
	CHECK_EQ("teo70: ... and a tick intercept", s.cpu->tick_intercepts, PULSE);
	/* 320 us: 277500 ns, 300000 - 277500 = 22500 < 42500: a hit. */
	teo70_c6_period(&s, 320 * US);
	CHECK_EQ("teo70: 320 us in C6 on a 300 us timer is a hit in C6's bin",
		 s.cpu->state_bins[C6].hits, PULSE);
	CHECK_EQ("teo70: ... not an intercept", s.cpu->state_bins[C6].intercepts, 0);
}

static void test_teo70_tick_wakeups(void)
{
	struct teo70_sim s;

	/*
	 * A fresh CPU woken by the tick after 1 ms in C1: total 1024,
	 * tick wakeups 1024, 3 * 1024 > 2 * 1024: a hit of the deepest
	 * state, C10, and nothing else counted.
	 */
	teo70_start(&s);
	s.cpu->sleep_length_ns = KTIME_MAX;
	teo70_prev(&s, C1, 1 * MS, true);
	teo70_select(&s, 0);
	CHECK_EQ("teo70: tick wakeups that dominate are hits of C10",
		 s.cpu->state_bins[C10].hits, PULSE);
	CHECK_EQ("teo70: ... not intercepts in C8's bin", s.cpu->state_bins[C8].intercepts, 0);

	/*
	 * With 8192 hits in C6's bin before (7168 after the decay, total
	 * 8192), one tick wakeup (3 * 1024 <= 2 * 8192) and no tick
	 * intercepts (3 * 0 < 2 * 7168): a hit in the sleep length's bin,
	 * C10's for a select that asked none, not an intercept in C8's
	 * bin where 999000 ns falls (6.19 counted that).
	 */
	teo70_start(&s);
	s.cpu->sleep_length_ns = KTIME_MAX;
	s.cpu->state_bins[C6].hits = 8 * PULSE;
	teo70_prev(&s, C1, 1 * MS, true);
	teo70_select(&s, 0);
	CHECK_EQ("teo70: a tick wakeup with few tick intercepts is a hit in the timer's bin",
		 s.cpu->state_bins[C10].hits, PULSE);
	CHECK_EQ("teo70: ... not an intercept in C8's bin", s.cpu->state_bins[C8].intercepts, 0);
	CHECK_EQ("teo70: ... C6's hits decayed by 1/8", s.cpu->state_bins[C6].hits, 7 * PULSE);
}

/* Bins as the test sets them: no update before the select. */
static void teo70_bins(struct teo70_sim *s, unsigned int total)
{
	teo70_start(s);
	teo70_no_update(s);
	s->cpu->total = total;
}

static void test_teo70_no_sleep_length(void)
{
	struct teo70_sim s;

	/*
	 * C1's bin holds every intercept: the walk down from the bin with
	 * the most, C1's, stops there (2 * 4096 > 4096); C1 is below
	 * RESIDENCY_THRESHOLD_NS and most periods were short
	 * (2 * 4096 >= 4096): no sleep length asked (6.14), so a record
	 * without one scores it.
	 */
	teo70_bins(&s, 4 * PULSE);
	s.cpu->state_bins[C1].intercepts = 4 * PULSE;
	s.cpu->short_idles = 4 * PULSE;
	CHECK_EQ_INT("teo70: intercepts in C1's bin, short periods: C1", teo70_select(&s, 0), C1);
	CHECK_EQ("teo70: ... without asking for the sleep length", s.ms.lacked_inputs, 0);
	/* The same with no short periods asks for it: unknown in this record. */
	teo70_bins(&s, 4 * PULSE);
	s.cpu->state_bins[C1].intercepts = 4 * PULSE;
	teo70_select(&s, 0);
	CHECK_EQ("teo70: ... with no short periods it asks for the sleep length",
		 s.ms.lacked_inputs, IDLESCOPE_F_HAS_NEXT_TIMER);

	/*
	 * A PM QoS limit of 5 us: C1 (exit 2 us) is the deepest within
	 * it, and below LATENCY_THRESHOLD_NS (7500 ns) no sleep length.
	 */
	teo70_bins(&s, 0);
	s.in.latency_req_ns = 5 * US;
	CHECK_EQ_INT("teo70: a 5 us PM QoS limit: C1", teo70_select(&s, 0), C1);
	CHECK_EQ("teo70: ... below 7.5 us without asking for the sleep length",
		 s.ms.lacked_inputs, 0);
}

static void test_teo70_walk_down(void)
{
	struct teo70_sim s;

	/*
	 * The example of "Refine intercepts-based idle state lookup":
	 * intercepts 400, 250, 251 in the bins of POLL, C1, C1E, 99 hits
	 * in C10's, total 1000.  901 intercepts below C10 outweigh
	 * 1000 - 0; the bin with the most is POLL's, where the walk
	 * starts: POLL (6.19's walk from C9 down stopped at C1).
	 */
	teo70_bins(&s, 1000);
	s.cpu->state_bins[POLL].intercepts = 400;
	s.cpu->state_bins[C1].intercepts = 250;
	s.cpu->state_bins[C1E].intercepts = 251;
	s.cpu->state_bins[C10].hits = 99;
	CHECK_EQ_INT("teo70: most intercepts in POLL's bin: POLL", teo70_select(&s, 10 * MS), POLL);

	/*
	 * The tick stopped and intercepts in C1E's bin: the walk may not
	 * go below a tick (1 ms), so the lowest is C9 (5 ms), whose bin is
	 * empty (C10's target is 5 ms too): C10 stays (7.0), not C9.
	 */
	teo70_bins(&s, 4 * PULSE);
	s.cpu->state_bins[C1E].intercepts = 4 * PULSE;
	s.in.tick_stopped = true;
	CHECK_EQ_INT("teo70: tick stopped, the walk's lowest is an empty bin: C10",
		     teo70_select(&s, 10 * MS), C10);
}

/* Intercepts in C3's bin, @tick_intercepts of them shorter than a tick. */
static int teo70_c3(struct teo70_sim *s, unsigned int tick_intercepts)
{
	teo70_bins(s, 3000);
	s->cpu->state_bins[C3].intercepts = 3000;
	s->cpu->tick_intercepts = tick_intercepts;
	s->in.delta_tick_ns = 50 * US;
	return teo70_select(s, 10 * MS);
}

static void test_teo70_tick_threshold(void)
{
	struct teo70_sim s;

	/*
	 * The walk stops at C3 (2 * 3000 > 3000); the timer is 10 ms.
	 * 2000 tick intercepts of 3000 are 2/3 (3 * 2000 >= 2 * 3000): the
	 * tick stays, 50 us away, and C3 (100 us) becomes C1E (20 us).
	 */
	CHECK_EQ_INT("teo70: tick intercepts at 2/3 keep the tick: C1E", teo70_c3(&s, 2000), C1E);
	/* 1999 are below 2/3 (but above 6.12's 5/8, 1875): C3, the tick may stop. */
	CHECK_EQ_INT("teo70: tick intercepts below 2/3, above 5/8: C3", teo70_c3(&s, 1999), C3);
}

/*
 * teo-6.12 with 6.1's candidate (the ablation)
 * =============================================
 */
static int teo612_variant(enum model_teo612_variant variant)
{
	struct model_states_table table = skl_table();
	struct model_input in = { 0 };
	struct model_teo612 *cpu;
	struct model_state ms;

	model_reset(&ms, MODEL_TEO612);
	cpu = model_teo612_data(&ms);
	cpu->r.last_state_idx = -1;
	cpu->state_bins[C1E].intercepts = 1500;
	cpu->state_bins[C3].intercepts = 1500;
	cpu->state_bins[C6].hits = 5000;
	cpu->total = 8000;
	in.next_timer_ns = 300 * US;
	in.delta_tick_ns = 700 * US;
	in.latency_req_ns = NO_QOS_NS;
	in.inputs = IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_TICK_STATE |
		    IDLESCOPE_F_HAS_TEO_SPAN;
	model_teo612_step(&ms, &in, &table, variant);
	return ms.chosen_state;
}

static void test_teo612_candidate_61(void)
{
	/*
	 * 300 us timers: hits in C6's bin, intercepts (the running tick's)
	 * in C1E's and C3's.  6.12 starts from C10: the 3000 intercepts
	 * below it outweigh 8000 - 5000 (C6's hits are below C10 and drop
	 * out); walking down, C1E's bin makes them pass half of 3000: C1E.
	 */
	CHECK_EQ_INT("teo-6.12: 300 us timers with tick intercepts: C1E",
		     teo612_variant(TEO612_AS_IS), C1E);
	CHECK_EQ_INT("teo-6.12-sl: the same where the sleep length is known: C1E",
		     teo612_variant(TEO612_KNOWN_SLEEP), C1E);
	/*
	 * 6.1's candidate is C6, the deepest within 300 us: 3000
	 * intercepts below it do not outweigh 8000 - 0: C6.
	 */
	CHECK_EQ_INT("teo-6.12-c61: 6.1's candidate keeps C6",
		     teo612_variant(TEO612_CANDIDATE_61), C6);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_typical_intervals();
	test_menu615_step();
	test_teo70_first_period();
	test_teo70_after_enable();
	test_teo70_hit_rule();
	test_teo70_tick_wakeups();
	test_teo70_no_sleep_length();
	test_teo70_walk_down();
	test_teo70_tick_threshold();
	test_teo612_candidate_61();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
