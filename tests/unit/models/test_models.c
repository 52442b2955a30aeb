// SPDX-License-Identifier: GPL-2.0
/*
 * test_models.c - host unit tests of loader/models/, the shadow-replay
 * models of menu2010, menu2010fix, menu2010rpd and stock 6.1 menu.
 *
 * Each check feeds a hand-made sequence of idle periods and compares the
 * model with a value worked out by hand from the kernel code (the
 * arithmetic is written next to the number), so the checks read as the
 * specification of what each predictor does, defects included.
 *
 * The constants check parses the kernel side: the "+#define" lines that
 * kernel/patches/ add to drivers/cpuidle/governors/menu2010.c, the #defines
 * of menu.c and teo.c of 6.1 and of menu.c, teo.c and gov.h of 6.12, and
 * CONFIG_HZ of the config fragment, and compares them with
 * model_constants[]; the two sides cannot share a header.
 *
 * Usage: test_models PATCH_DIR GOVERNORS_6_1 GOVERNORS_6_12 CONFIG_FRAGMENT,
 * the GOVERNORS being directories with those files (tests/unit/models/models.sh
 * passes them).  Output: one "PASS: <name>" or "FAIL: <name> (<why>)" line
 * per check; exit status 1 if any failed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/menu.h"
#include "models/menu2010.h"
#include "replay/replay.h"
#include "check.h"
#include "skl_table.h"


/*
 * State tables
 * ============
 */

/*
 * Correction factor buckets without I/O waiters, by decade of the next
 * timer: 10 ms and 16 ms fall in [10 ms, 100 ms), 100 ms and 5 s above.
 */
#define BUCKET_10MS	4
#define BUCKET_100MS	5

/* The checks below rely on the default table's C1E and C10. */
static void test_skl_table(void)
{
	bool parsed_all;

	parse_skl_table(&parsed_all);
	check(parsed_all, "states: the module's default table parses to its end",
	      "stopped in '%s'", SKL_STATES);
	check(SKL_C1E > 0 && SKL_C10 > 0, "states: the default table has C1E and C10",
	      "'%s'", SKL_STATES);
}

/* The 2010 code reads us as the cpuidle core derives them: ns / 1000, truncated. */
static void test_table_derive(void)
{
	struct model_states_table t;

	memset(&t, 0, sizeof(t));
	t.nr_states = 2;
	t.states[1].exit_latency_ns = 1999;
	t.states[1].target_residency_ns = 200 * US + 999;
	model_table_derive(&t);
	check(t.states[1].exit_latency_us == 1 && t.states[1].target_residency_us == 200 &&
	      t.states[0].exit_latency_us == 0,
	      "states: model_table_derive() truncates ns to us", "exit %u us, target %u us",
	      t.states[1].exit_latency_us, t.states[1].target_residency_us);
}

/*
 * No polling state: state 0 is a halt state with a real residency, so
 * what menu2010's update does with "state 0, exit latency 0" shows.
 */
static struct model_states_table halt_table(void)
{
	struct model_states_table t;

	memset(&t, 0, sizeof(t));
	t.nr_states = 2;
	t.states[0].exit_latency_ns = 2 * US;		/* C1 */
	t.states[0].target_residency_ns = 2 * US;
	t.states[1].exit_latency_ns = 85 * US;		/* C6 */
	t.states[1].target_residency_ns = 200 * US;
	model_table_derive(&t);
	return t;
}

/*
 * One simulated CPU running the model's governor
 * ==============================================
 */
struct cpu_sim {
	struct model_state ms;
	struct model_states_table table;
	bool has_prev;
	__u64 prev_residency_ns;
	int prev_state;
	bool prev_tick_wakeup;
	bool prev_poll_time_limit;
	__s64 latency_req_ns;
	unsigned int lost_selects;	/* before the next period, then 0 */
};

static void sim_start(struct cpu_sim *s, enum model_id id,
		      struct model_states_table table)
{
	memset(s, 0, sizeof(*s));
	model_reset(&s->ms, id);
	s->table = table;
	s->latency_req_ns = NO_QOS_NS;
}

/* The state a 2010 model chose in its last step. */
static int sim_chosen(const struct cpu_sim *s)
{
	return s->ms.chosen_state;
}

/*
 * One idle period: ->select() sees @next_timer_ns and predicts (returned),
 * then the CPU sleeps @residency_ns in @entered (-1: the state the 2010
 * model chose).
 */
static __u64 sim_period(struct cpu_sim *s, __u64 next_timer_ns,
			__u64 residency_ns, int entered)
{
	struct model_input in;
	__u64 predicted_ns;

	memset(&in, 0, sizeof(in));
	in.next_timer_ns = next_timer_ns;
	in.latency_req_ns = s->latency_req_ns;
	in.has_prev = s->has_prev;
	in.prev_residency_ns = s->prev_residency_ns;
	in.prev_state = s->prev_state;
	in.prev_chosen_by_model = true;
	in.prev_tick_wakeup = s->prev_tick_wakeup;
	in.prev_poll_time_limit = s->prev_poll_time_limit;
	in.lost_selects = s->lost_selects;
	predicted_ns = model_step(&s->ms, &in, &s->table);
	s->lost_selects = 0;

	s->has_prev = true;
	s->prev_residency_ns = residency_ns;
	s->prev_state = entered >= 0 ? entered : sim_chosen(s);
	s->prev_tick_wakeup = false;
	s->prev_poll_time_limit = false;
	return predicted_ns;
}

/* @n equal periods; returns the prediction made before the last one. */
static __u64 sim_periods(struct cpu_sim *s, int n, __u64 next_timer_ns,
			 __u64 residency_ns, int entered)
{
	__u64 predicted_ns = 0;

	while (n--)
		predicted_ns = sim_period(s, next_timer_ns, residency_ns, entered);
	return predicted_ns;
}

/*
 * menu2010rpd: the repeating pattern detector
 * ===========================================
 */
static void test_rpd_repeating_pattern(void)
{
	struct cpu_sim rpd, fix;
	__u64 p;

	/*
	 * 8 sleeps of 1000 us fill the ring; the 9th selection sees them:
	 * sum 8000 <= expected 10000, variance 0 < 400, average 1000.
	 */
	sim_start(&rpd, MODEL_MENU2010RPD, skl_table());
	sim_periods(&rpd, 8, 10 * MS, 1000 * US, -1);
	p = sim_period(&rpd, 10 * MS, 1000 * US, -1);
	CHECK_EQ("menu2010rpd: 8 x 1000 us under a 10 ms timer predict 1000 us",
		 p, 1000 * US);
	CHECK_EQ("menu2010rpd: the pattern is reported as typical_interval_us",
		 model_menu2010_data(&rpd.ms)->typical_interval_us, 1000);

	/* menu2010fix has no detector: the corrected next timer predicts. */
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	p = sim_periods(&fix, 9, 10 * MS, 1000 * US, -1);
	CHECK_NE("menu2010fix: the same 9 periods do not predict 1000 us",
		 p, 1000 * US);
	CHECK_EQ("menu2010fix: it predicts expected_us * factor / (1024 * 4)",
		 p, (10000ULL * model_menu2010_data(&fix.ms)->correction_factor[BUCKET_10MS] + 2048) / 4096 * US);

	/* With 7 sleeps the ring still holds a 0: variance far above 400. */
	sim_start(&rpd, MODEL_MENU2010RPD, skl_table());
	sim_periods(&rpd, 7, 10 * MS, 1000 * US, -1);
	sim_period(&rpd, 10 * MS, 1000 * US, -1);
	CHECK_EQ("menu2010rpd: 7 intervals and a 0 are no pattern",
		 model_menu2010_data(&rpd.ms)->typical_interval_us, 0);
}

static void test_rpd_sum_vs_expected(void)
{
	struct cpu_sim rpd;
	__u64 p;

	/*
	 * The 2010 patch compares the sum of the 8 intervals with
	 * expected_us before dividing: 8 x 2000 = 16000 > 10000.
	 */
	sim_start(&rpd, MODEL_MENU2010RPD, skl_table());
	p = sim_periods(&rpd, 9, 10 * MS, 2 * MS, -1);
	CHECK_EQ("menu2010rpd: 8 x 2 ms under a 10 ms timer: sum 16 ms > 10 ms, no pattern",
		 model_menu2010_data(&rpd.ms)->typical_interval_us, 0);
	CHECK_NE("menu2010rpd: ... and 2 ms is not predicted", p, 2 * MS);

	/* 16000 <= 16000: the same intervals under a 16 ms timer are used. */
	sim_start(&rpd, MODEL_MENU2010RPD, skl_table());
	p = sim_periods(&rpd, 9, 16 * MS, 2 * MS, -1);
	CHECK_EQ("menu2010rpd: 8 x 2 ms under a 16 ms timer predict 2 ms", p, 2 * MS);
}

static void test_rpd_decay(void)
{
	struct cpu_sim rpd;

	/* DECAY 8: 1.0 is 8192, and one update keeps 7/8 of the factor. */
	sim_start(&rpd, MODEL_MENU2010RPD, skl_table());
	CHECK_EQ("menu2010rpd: factors start at RESOLUTION * 8",
		 model_menu2010_data(&rpd.ms)->correction_factor[BUCKET_10MS], 8192);
	sim_periods(&rpd, 2, 10 * MS, 1000 * US, -1);
	/* C10 chosen (exit 890 us): 8192 * 7 / 8 + 1024 * 110 / 10000 */
	CHECK_EQ("menu2010rpd: one update gives 7168 + 11",
		 model_menu2010_data(&rpd.ms)->correction_factor[BUCKET_10MS], 7168 + 11);
}

/*
 * menu2010: the defects of 2.6.34-rc, before the 2010 fix
 * ===============================
 */
static void test_menu2010_before_bug(void)
{
	struct cpu_sim bug, fix;
	__u64 p;

	/*
	 * Period 1 predicts the whole 10 ms (factor 1.0), which chooses C10
	 * (exit latency 890 us).  The CPU sleeps 1000 us.
	 */
	sim_start(&bug, MODEL_MENU2010, skl_table());
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	sim_period(&bug, 10 * MS, 1000 * US, -1);
	sim_period(&fix, 10 * MS, 1000 * US, -1);
	CHECK_EQ("menu2010fix: period 1 chose C10", sim_chosen(&fix), SKL_C10);
	CHECK_EQ("menu2010: period 1 chose C10 too", sim_chosen(&bug), SKL_C10);
	sim_period(&bug, 10 * MS, 1000 * US, -1);
	sim_period(&fix, 10 * MS, 1000 * US, -1);
	/* the fix learns from C10: 4096 * 3 / 4 + 1024 * (1000 - 890) / 10000 */
	CHECK_EQ("menu2010fix: the update subtracts C10's exit latency",
		 model_menu2010_data(&fix.ms)->correction_factor[BUCKET_10MS], 3072 + 11);
	/*
	 * menu2010 forgot its choice before the update: state 0, exit 0.
	 * State 0 is POLL, not time-valid, so the whole expected time counts
	 * as slept: 3072 + 1024 * 10000 / 10000, i.e. still 1.0.
	 */
	CHECK_EQ("menu2010: the update saw POLL: factor stays 1.0 (4096)",
		 model_menu2010_data(&bug.ms)->correction_factor[BUCKET_10MS], 4096);
	p = sim_periods(&bug, 20, 10 * MS, 1000 * US, -1);
	CHECK_EQ("menu2010: after 20 sleeps of 1 ms it still predicts the 10 ms timer",
		 p, 10 * MS);

	/*
	 * Without a polling state, state 0's residency is believed, but
	 * still with exit latency 0: menu2010 gets 1024 * 1000 / 10000 =
	 * 102, menu2010fix subtracts the 85 us of C6, which it chose:
	 * 1024 * 915 / 10000 = 93.  Nothing but the forgotten exit latency
	 * makes the 9.
	 */
	sim_start(&bug, MODEL_MENU2010, halt_table());
	sim_start(&fix, MODEL_MENU2010FIX, halt_table());
	sim_periods(&bug, 2, 10 * MS, 1000 * US, -1);
	sim_periods(&fix, 2, 10 * MS, 1000 * US, -1);
	CHECK_EQ("menu2010 (no POLL): factor 3072 + 1024 * 1000 / 10000",
		 model_menu2010_data(&bug.ms)->correction_factor[BUCKET_10MS], 3072 + 102);
	CHECK_EQ("menu2010fix (no POLL): factor 3072 + 1024 * (1000 - 85) / 10000",
		 model_menu2010_data(&fix.ms)->correction_factor[BUCKET_10MS], 3072 + 93);
}

static void test_menu2010_max_interesting(void)
{
	struct cpu_sim bug, fix;

	/*
	 * 60 ms of a 100 ms timer: at least MAX_INTERESTING (50 ms), so a
	 * perfect prediction (+1024) - unless the test reads the member
	 * measured_us, which is never written (0), as 2.6.34-rc does.
	 */
	sim_start(&bug, MODEL_MENU2010, halt_table());
	sim_start(&fix, MODEL_MENU2010FIX, halt_table());
	sim_periods(&bug, 2, 100 * MS, 60 * MS, -1);
	sim_periods(&fix, 2, 100 * MS, 60 * MS, -1);
	CHECK_EQ("menu2010: 60 ms of 100 ms is a ratio (3072 + 614), not perfect",
		 model_menu2010_data(&bug.ms)->correction_factor[BUCKET_100MS], 3072 + 614);
	CHECK_EQ("menu2010fix: 60 ms of 100 ms counts as perfect (3072 + 1024)",
		 model_menu2010_data(&fix.ms)->correction_factor[BUCKET_100MS], 4096);
	/* below 50 ms the fix does take the ratio: 1024 * (40000 - 85) / 100000 */
	sim_start(&fix, MODEL_MENU2010FIX, halt_table());
	sim_periods(&fix, 2, 100 * MS, 40 * MS, -1);
	CHECK_EQ("menu2010fix: 40 ms of 100 ms is a ratio (3072 + 408)",
		 model_menu2010_data(&fix.ms)->correction_factor[BUCKET_100MS], 3072 + 408);
}

static void test_menu2010_u32_wrap(void)
{
	struct cpu_sim bug;
	__u64 p;

	/*
	 * A 5 s timer, worked out from 2.6.34: expected_us =
	 * DIV_ROUND_UP((u32)5000000000, 1000) = DIV_ROUND_UP(705032704, 1000)
	 * = 705033 us, bucket >= 100 ms.  menu2010 believes it slept all of
	 * it (POLL, not time-valid), so measured_us = 705033 and RESOLUTION *
	 * 705033 = 721953792 fits in 32 bits: / 705033 = 1024, a perfect
	 * prediction.  Factor 4096 * 3 / 4 + 1024 = 4096: it does not decay,
	 * and the prediction is (705033 * 4096 + 2048) / 4096 = 705033 us.
	 */
	sim_start(&bug, MODEL_MENU2010, skl_table());
	p = sim_periods(&bug, 2, 5000 * MS, 5000 * MS, -1);
	CHECK_EQ("menu2010: a 5 s timer is 705033 us in 32 bits, factor stays 4096",
		 model_menu2010_data(&bug.ms)->correction_factor[BUCKET_100MS], 4096);
	CHECK_EQ("menu2010: ... and the 5 s prediction is 705033 us",
		 p, 705033 * US);
	/* (u32)ns + 999 wraps in unsigned int just below 2^32 ns: 0 us. */
	sim_start(&bug, MODEL_MENU2010, skl_table());
	p = sim_period(&bug, 4294967000ULL, 1 * MS, -1);
	CHECK_EQ("menu2010: a timer of 4294967000 ns rounds up past 2^32 to 0 us",
		 model_menu2010_data(&bug.ms)->expected_us, 0);
}

static void test_menu2010_selection(void)
{
	struct cpu_sim fix;
	__u64 p;

	/* A timer 5 us away or less is the only reason to default to POLL. */
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	p = sim_period(&fix, 5 * US, 5 * US, -1);
	CHECK_EQ("menu2010fix: next timer 5 us predicts 5 us", p, 5 * US);
	/* ... yet the loop from state 1 still takes C1 (target 2 <= 5). */
	CHECK_EQ("menu2010fix: and the loop still takes C1", sim_chosen(&fix), 1);
	p = sim_period(&fix, 1 * US, 1 * US, -1);
	CHECK_EQ("menu2010fix: next timer 1 us keeps POLL", sim_chosen(&fix), 0);

	/* next timer rounds up to us: 10000001 ns is 10001 us */
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	p = sim_period(&fix, 10 * MS + 1, 1 * MS, -1);
	CHECK_EQ("menu2010fix: next timer is rounded up to us", p, 10001 * US);

	/*
	 * PM QoS 0 returns state 0 before predicting: patch 0004's "no
	 * prediction" (U64_MAX; the check's name is from when it stored 0).
	 */
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	fix.latency_req_ns = 0;
	p = sim_period(&fix, 10 * MS, 1 * MS, -1);
	CHECK_EQ("menu2010fix: latency_req 0 predicts nothing (0)", p, IDLESCOPE_UNKNOWN_NS);

	/* A timer due now: expected_us 0, a prediction of 0 ns, not "none". */
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	p = sim_period(&fix, 0, 1 * MS, -1);
	CHECK_EQ("menu2010fix: a next timer of 0 is a prediction of 0 ns", p, 0);

	/* load 5 (a busy CPU): multiplier 11, C10's 890 * 11 > 5000 */
	sim_start(&fix, MODEL_MENU2010FIX, skl_table());
	{
		struct model_input in = {
			.next_timer_ns = 5 * MS, .load = 5,
			.latency_req_ns = NO_QOS_NS,
		};

		model_step(&fix.ms, &in, &fix.table);
	}
	/* C8 (200 * 11 = 2200 <= 5000) is the deepest that fits */
	CHECK_EQ("menu2010fix: load 5 multiplies exit latencies by 11",
		 sim_chosen(&fix), 6);
}

/*
 * Stock 6.1 menu
 * ==============
 */
static void test_menu_typical_interval(void)
{
	struct cpu_sim menu;
	__u64 p;

	/*
	 * Sleeps of 1000 us in C1E (exit latency 10 us) under a 10 ms
	 * timer: menu learns 1000 - 10 = 990 us per period; once the 8
	 * intervals are filled, the typical interval wins over the
	 * corrected next timer, which is still far above it.
	 */
	sim_start(&menu, MODEL_MENU, skl_table());
	p = sim_periods(&menu, 9, 10 * MS, 1000 * US, SKL_C1E);
	CHECK_EQ("menu: steady 1000 us sleeps predict the typical 990 us",
		 p, 990 * US);
	CHECK_EQ("menu: typical_interval_us is 990",
		 model_menu_data(&menu.ms)->typical_interval_us, 990);
}

static void test_menu_early_return(void)
{
	struct cpu_sim menu;
	__u64 p;

	/*
	 * No prediction is patch 0004's U64_MAX; the checks' names are from
	 * when it stored 0.
	 */
	/* next timer 1500 ns < C1's target residency 2 us: state 0, no prediction */
	sim_start(&menu, MODEL_MENU, skl_table());
	p = sim_period(&menu, 1500, 1500, 0);
	CHECK_EQ("menu: next timer below state 1's target residency predicts 0", p,
		 IDLESCOPE_UNKNOWN_NS);
	CHECK_EQ("menu: ... and reports no typical interval (UINT_MAX)",
		 model_menu_data(&menu.ms)->typical_interval_us, UINT_MAX);

	sim_start(&menu, MODEL_MENU, skl_table());
	menu.latency_req_ns = 0;
	p = sim_period(&menu, 10 * MS, 1 * MS, 0);
	CHECK_EQ("menu: latency_req 0 predicts 0", p, IDLESCOPE_UNKNOWN_NS);

	/* latency_req below C1's 2 us exit latency: state 0 */
	sim_start(&menu, MODEL_MENU, skl_table());
	menu.latency_req_ns = 1 * US;
	p = sim_period(&menu, 10 * MS, 1 * MS, 0);
	CHECK_EQ("menu: latency_req below state 1's exit latency predicts 0", p,
		 IDLESCOPE_UNKNOWN_NS);
}

static void test_menu_update(void)
{
	struct cpu_sim menu;

	/*
	 * ->enable() zeroes the intervals, and 8 intervals of 0 us are a
	 * perfect pattern (variance 0 <= 400): a fresh CPU predicts 0 ns
	 * until real intervals push the zeros out.
	 */
	sim_start(&menu, MODEL_MENU, skl_table());
	CHECK_EQ("menu: a fresh CPU predicts its zeroed intervals: 0",
		 sim_period(&menu, 10 * MS, 1 * MS, SKL_C1E), 0);
	CHECK_EQ("menu: ... reported as a typical interval of 0 us",
		 model_menu_data(&menu.ms)->typical_interval_us, 0);

	/*
	 * The tick woke the CPU although the timer was 100 ms away: menu
	 * assumes 9/10 of MAX_INTERESTING, 45 ms.
	 * 8192 - 8192 / 8 + 1024 * 45 / 100 = 7168 + 460.
	 */
	sim_start(&menu, MODEL_MENU, skl_table());
	sim_period(&menu, 100 * MS, 1 * MS, SKL_C10);
	menu.prev_tick_wakeup = true;
	sim_period(&menu, 100 * MS, 1 * MS, SKL_C10);
	CHECK_EQ("menu: a tick wakeup counts as 45 ms",
		 model_menu_data(&menu.ms)->correction_factor[BUCKET_100MS], 7168 + 460);

	/*
	 * "The timer was beyond the tick" depends on the recorded kernel's
	 * HZ: a 5 ms timer is beyond a 1 ms tick (HZ 1000, the assumed 45 ms
	 * cut to the timer, 5000 us), not beyond a 10 ms one (HZ 100: the
	 * 1000 us measured, at most twice C10's 890 us exit latency, halved:
	 * 500 us).
	 */
	sim_start(&menu, MODEL_MENU, skl_table());
	menu.table.hz = 100;
	sim_period(&menu, 5 * MS, 1 * MS, SKL_C10);
	menu.prev_tick_wakeup = true;
	sim_period(&menu, 5 * MS, 1 * MS, SKL_C10);
	CHECK_EQ("menu: at HZ 100 a tick wakeup before a 5 ms timer is its residency",
		 model_menu_data(&menu.ms)->intervals[0], 500);
	sim_start(&menu, MODEL_MENU, skl_table());
	menu.table.hz = 1000;
	sim_period(&menu, 5 * MS, 1 * MS, SKL_C10);
	menu.prev_tick_wakeup = true;
	sim_period(&menu, 5 * MS, 1 * MS, SKL_C10);
	CHECK_EQ("menu: at HZ 1000 it counts as the whole 5 ms timer",
		 model_menu_data(&menu.ms)->intervals[0], 5000);

	/*
	 * 200 us in POLL (exit latency 0) count as 200 us:
	 * 7168 + 1024 * 200 / 10000 - unless polling stopped on its time
	 * limit: then the whole next timer is assumed, 7168 + 1024.
	 */
	sim_start(&menu, MODEL_MENU, skl_table());
	sim_periods(&menu, 2, 10 * MS, 200 * US, 0);
	CHECK_EQ("menu: 200 us of polling count as 200 us",
		 model_menu_data(&menu.ms)->correction_factor[BUCKET_10MS], 7168 + 20);
	sim_start(&menu, MODEL_MENU, skl_table());
	sim_period(&menu, 10 * MS, 200 * US, 0);
	menu.prev_poll_time_limit = true;
	sim_period(&menu, 10 * MS, 1 * MS, 0);
	CHECK_EQ("menu: a poll time limit counts as the whole timer",
		 model_menu_data(&menu.ms)->correction_factor[BUCKET_10MS], 7168 + 1024);

	/* Residency at most twice the exit latency: halved, not reduced. */
	sim_start(&menu, MODEL_MENU, skl_table());
	sim_period(&menu, 10 * MS, 1 * MS, SKL_C10);
	sim_period(&menu, 10 * MS, 1 * MS, SKL_C10);
	/* C10 exit 890 us, 1000 <= 1780: 500 us, 1024 * 500 / 10000 = 51 */
	CHECK_EQ("menu: a sleep <= 2 x exit latency counts half",
		 model_menu_data(&menu.ms)->correction_factor[BUCKET_10MS], 7168 + 51);
	CHECK_EQ("menu: ... and the half goes into the intervals",
		 model_menu_data(&menu.ms)->intervals[0], 500);
}

/*
 * The replay
 * ==========
 */
/* Next record.seq per CPU: records of a CPU are numbered without gaps. */
static __u32 next_seq[IDLESCOPE_MAX_CPUS];

static struct idlescope_record rec_of(int governor, int cpu, __u64 next_ns,
				      int state, __u64 residency_ns)
{
	struct idlescope_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.seq = next_seq[cpu]++;
	rec.governor = governor;
	rec.cpu = cpu;
	rec.next_timer_ns = next_ns;
	rec.latency_req_ns = NO_QOS_NS;
	rec.state = state;
	rec.chosen_state = state;
	rec.residency_ns = residency_ns;
	rec.kernel_residency_ns = residency_ns;
	rec.predicted_ns = IDLESCOPE_UNKNOWN_NS;
	rec.flags = IDLESCOPE_F_SELECTED | IDLESCOPE_F_REFLECTED;
	return rec;
}

static void test_replay(void)
{
	struct model_states_table table = skl_table();
	static struct replay rp;
	struct idlescope_record rec;
	__u64 out[MODEL_NR];
	struct cpu_sim rpd;
	int i, ret;

	/*
	 * Under teo, every model is a shadow and learns from its own choice:
	 * the replay of 9 x 1000 us must equal the simulation above.
	 */
	replay_init(&rp, &table, NULL);
	sim_start(&rpd, MODEL_MENU2010RPD, skl_table());
	for (i = 0; i < 9; i++) {
		rec = rec_of(IDLESCOPE_GOV_TEO, 1, 10 * MS, 3, 1000 * US);
		replay_record(&rp, &rec, out);
	}
	CHECK_EQ("replay: shadow menu2010rpd under teo finds the 1000 us pattern",
		 out[MODEL_MENU2010RPD], sim_periods(&rpd, 9, 10 * MS, 1000 * US, -1));
	CHECK_EQ("replay: shadow menu2010 under teo predicts the timer",
		 out[MODEL_MENU2010], 10 * MS);
	/* stock menu learns from the entered C3 (exit 70 us): 930 us */
	CHECK_EQ("replay: shadow menu learns from the state entered",
		 out[MODEL_MENU], 930 * US);

	/* CPU 0 saw nothing of that. */
	rec = rec_of(IDLESCOPE_GOV_TEO, 0, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay: CPUs are independent", out[MODEL_MENU2010RPD], 10 * MS);

	/* A period no governor chose predicts nothing and changes nothing. */
	rec = rec_of(IDLESCOPE_GOV_NONE, 1, 10 * MS, 1, 1000 * US);
	rec.flags = 0;
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay: no select, no prediction", out[MODEL_MENU], IDLESCOPE_UNKNOWN_NS);
	rec = rec_of(IDLESCOPE_GOV_TEO, 1, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay: ... and the pattern survives it", out[MODEL_MENU2010RPD], 1000 * US);

	/*
	 * Switching to menu2010rpd runs its ->enable(): the kernel forgot
	 * the pattern, so the model does, and predicts the timer again.
	 */
	rec = rec_of(IDLESCOPE_GOV_MENU2010RPD, 1, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay: switching to a governor resets its model",
		 out[MODEL_MENU2010RPD], 10 * MS);
	CHECK_EQ("replay: ... but not the others'", out[MODEL_MENU], 930 * US);

	replay_reset_cpu(&rp, 1);
	rec = rec_of(IDLESCOPE_GOV_MENU2010RPD, 1, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	/* menu's intervals are zeroed again: it predicts 0, not 930 us */
	CHECK_EQ("replay: replay_reset_cpu() forgets the CPU's history",
		 out[MODEL_MENU], 0);

	rec.cpu = IDLESCOPE_MAX_CPUS;
	ret = replay_record(&rp, &rec, out);
	CHECK_EQ("replay: a CPU out of range is -EINVAL", ret, -EINVAL);

	CHECK_EQ("replay: names are the governors' names",
		 strcmp(model_names[MODEL_MENU2010RPD], "menu2010rpd"), 0);
	CHECK_EQ("replay: the governor of a model maps back to it",
		 model_of_governor(governor_of_model(MODEL_MENU2010FIX), NULL),
		 MODEL_MENU2010FIX);
}

static void test_replay_seq_gap(void)
{
	struct model_states_table table = skl_table();
	static struct replay rp;
	struct idlescope_record rec;
	__u64 out[MODEL_NR];
	int i;

	/* The first record of a CPU sets the baseline, whatever its seq. */
	replay_init(&rp, &table, NULL);
	next_seq[2] = 1000;
	for (i = 0; i < 9; i++) {
		rec = rec_of(IDLESCOPE_GOV_TEO, 2, 10 * MS, 3, 1000 * US);
		replay_record(&rp, &rec, out);
	}
	check(out[MODEL_MENU2010RPD] == 1000 * US && rp.replay_resets == 0,
	      "replay seq: consecutive seqs from any start keep the history",
	      "rpd %llu, resets %llu", (unsigned long long)out[MODEL_MENU2010RPD],
	      (unsigned long long)rp.replay_resets);

	/* One dropped period (seq 1009 never arrived): start over. */
	next_seq[2]++;
	rec = rec_of(IDLESCOPE_GOV_TEO, 2, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay seq: a gap resets the CPU's models (rpd predicts the timer again)",
		 out[MODEL_MENU2010RPD], 10 * MS);
	/* the reset also forgot the previous period: menu's intervals are 0 */
	CHECK_EQ("replay seq: ... menu's zeroed intervals predict 0", out[MODEL_MENU], 0);
	CHECK_EQ("replay seq: ... and is counted in replay_resets", rp.replay_resets, 1);

	/* After the gap, consecutive seqs learn again from the new baseline. */
	for (i = 0; i < 9; i++) {
		rec = rec_of(IDLESCOPE_GOV_TEO, 2, 10 * MS, 3, 1000 * US);
		replay_record(&rp, &rec, out);
	}
	check(out[MODEL_MENU2010RPD] == 1000 * US && rp.replay_resets == 1,
	      "replay seq: after the gap, the new history builds up", "rpd %llu",
	      (unsigned long long)out[MODEL_MENU2010RPD]);

	/* A repeated or older seq is a gap too (records out of order). */
	next_seq[2]--;
	rec = rec_of(IDLESCOPE_GOV_TEO, 2, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay seq: a repeated seq resets too", rp.replay_resets, 2);

	/* u32 wrap: 0xffffffff then 0 is consecutive. */
	replay_reset_cpu(&rp, 4);
	next_seq[4] = UINT_MAX - 4;	/* __u32 */
	for (i = 0; i < 9; i++) {
		rec = rec_of(IDLESCOPE_GOV_TEO, 4, 10 * MS, 3, 1000 * US);
		replay_record(&rp, &rec, out);
	}
	check(rec.seq == 3 && rp.replay_resets == 2 && out[MODEL_MENU2010RPD] == 1000 * US,
	      "replay seq: the u32 wrap from 2^32-1 to 0 is not a gap", "seq %u resets %llu",
	      rec.seq, (unsigned long long)rp.replay_resets);

	/* A record without a select still advances seq; CPU 2 is untouched. */
	rec = rec_of(IDLESCOPE_GOV_NONE, 4, 10 * MS, 1, 1000 * US);
	rec.flags = 0;
	replay_record(&rp, &rec, out);
	rec = rec_of(IDLESCOPE_GOV_TEO, 4, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	check(rp.replay_resets == 2 && out[MODEL_MENU2010RPD] == 1000 * US,
	      "replay seq: periods without a select count in the sequence", "resets %llu",
	      (unsigned long long)rp.replay_resets);

	/* Direct resets (hotplug) are the caller's to count. */
	replay_reset_cpu(&rp, 4);
	next_seq[4] += 5;
	rec = rec_of(IDLESCOPE_GOV_TEO, 4, 10 * MS, 3, 1000 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay seq: after replay_reset_cpu() the next record is a new baseline",
		 rp.replay_resets, 2);
	replay_init(&rp, &table, NULL);
	CHECK_EQ("replay seq: replay_init() zeroes replay_resets", rp.replay_resets, 0);
}

static unsigned int count_intervals(const struct model_menu *m, unsigned int value)
{
	unsigned int i, nr = 0;

	for (i = 0; i < MENU_INTERVALS; i++)
		nr += m->intervals[i] == value;
	return nr;
}

static void test_replay_lost_selects(void)
{
	struct model_states_table table = skl_table();
	static struct replay rp;
	struct idlescope_record rec;
	const struct model_menu *replayed;
	__u64 out[MODEL_NR], p = 0;
	struct cpu_sim menu;
	int i;

	/*
	 * Under stock menu: 9 periods of 1000 us in C3, then one whose
	 * record says 2 selects entered no state in between.  The replay
	 * must hand that to the model exactly as a direct simulation does.
	 */
	replay_init(&rp, &table, NULL);
	sim_start(&menu, MODEL_MENU, skl_table());
	for (i = 0; i < 10; i++) {
		rec = rec_of(IDLESCOPE_GOV_MENU, 5, 10 * MS, 3, 1000 * US);
		if (i == 9) {
			rec.lost_selects = 2;
			menu.lost_selects = 2;
		}
		replay_record(&rp, &rec, out);
		p = sim_period(&menu, 10 * MS, 1000 * US, 3);
	}
	replayed = model_menu_data(&rp.cpus[5].models[MODEL_MENU]);
	check(out[MODEL_MENU] == p && !memcmp(replayed, model_menu_data(&menu.ms), sizeof(*replayed)),
	      "replay lost_selects: the record's count reaches the model (same state as the simulation)",
	      "replay %llu, simulation %llu", (unsigned long long)out[MODEL_MENU],
	      (unsigned long long)p);
	/* 930 us = 1000 us minus C3's 70 us exit latency */
	check(count_intervals(replayed, UINT_MAX) == 2 &&
	      count_intervals(replayed, 930) == MENU_INTERVALS - 2,
	      "replay lost_selects: 2 lost selects are 2 UINT_MAX intervals in stock menu",
	      "%u UINT_MAX, %u x 930", count_intervals(replayed, UINT_MAX),
	      count_intervals(replayed, 930));

	/* Without lost selects the same sequence leaves no such interval. */
	replay_init(&rp, &table, NULL);
	for (i = 0; i < 10; i++) {
		rec = rec_of(IDLESCOPE_GOV_MENU, 5, 10 * MS, 3, 1000 * US);
		replay_record(&rp, &rec, out);
	}
	CHECK_EQ("replay lost_selects: none lost, no UINT_MAX interval",
		 count_intervals(model_menu_data(&rp.cpus[5].models[MODEL_MENU]), UINT_MAX), 0);

	/*
	 * 65535 lost selects (the most a record holds) leave the ring as 15
	 * do: 65534 and 14 steps both fill it with UINT_MAX and stop the
	 * pointer 6 slots on, though the first now takes 14 steps, not 65534.
	 */
	for (i = 0; i < 2; i++) {
		static struct replay lost[2];
		int k;

		replay_init(&lost[i], &table, NULL);
		for (k = 0; k < 10; k++) {
			rec = rec_of(IDLESCOPE_GOV_MENU, 5, 10 * MS, 3, 1000 * US);
			rec.seq = k;
			rec.lost_selects = k == 9 ? (i ? 15 : 0xffff) : 0;
			replay_record(&lost[i], &rec, out);
		}
		if (i)
			check(!memcmp(model_menu_data(&lost[0].cpus[5].models[MODEL_MENU]),
				      model_menu_data(&lost[1].cpus[5].models[MODEL_MENU]),
				      sizeof(struct model_menu)) &&
			      count_intervals(model_menu_data(&lost[0].cpus[5].models[MODEL_MENU]),
					      UINT_MAX) == MENU_INTERVALS,
			      "replay lost_selects: 65535 lost selects leave menu's ring as 15 do",
			      "the models differ");
	}
}

static void test_replay_restarted(void)
{
	struct model_states_table table = skl_table();
	static struct replay rp;
	struct idlescope_record rec;
	struct model_state fresh;
	__u64 out[MODEL_NR];
	int i;

	/*
	 * menu2010fix learns 20 periods of 200 us against a 10 ms timer,
	 * then the same governor runs ->enable() again (the BPF side saw
	 * its select count restart): the running model must start afresh,
	 * exactly as a model that never saw the first 20.
	 */
	replay_init(&rp, &table, NULL);
	for (i = 0; i < 20; i++) {
		rec = rec_of(IDLESCOPE_GOV_MENU2010FIX, 6, 10 * MS, 3, 200 * US);
		replay_record(&rp, &rec, out);
	}
	check(out[MODEL_MENU2010FIX] < 5 * MS, "replay restarted: the factor has learnt first",
	      "predicted %llu", (unsigned long long)out[MODEL_MENU2010FIX]);
	CHECK_EQ("replay restarted: a governor running before the records is not in step",
		 replay_in_step(&rp, 6, MODEL_MENU2010FIX), false);
	rec = rec_of(IDLESCOPE_GOV_MENU2010FIX, 6, 10 * MS, 3, 200 * US);
	rec.flags |= IDLESCOPE_F_RESTARTED;
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay restarted: after its ->enable() it is in step",
		 replay_in_step(&rp, 6, MODEL_MENU2010FIX), true);
	CHECK_EQ("replay restarted: the models of other governors are not",
		 replay_in_step(&rp, 6, MODEL_MENU2010RPD), false);
	model_reset(&fresh, MODEL_MENU2010FIX);
	CHECK_EQ("replay restarted: the flagged period is predicted from ->enable()'s state",
		 out[MODEL_MENU2010FIX], model_step(&fresh, &(struct model_input){
			.next_timer_ns = 10 * MS,
			.latency_req_ns = MODEL_LATENCY_REQ_DEFAULT_NS }, &table));
	check(out[MODEL_MENU2010RPD] < 5 * MS,
	      "replay restarted: only the running governor's model starts again",
	      "rpd predicted %llu", (unsigned long long)out[MODEL_MENU2010RPD]);

	/* Records lost on a full ring buffer put it out of step again. */
	next_seq[6] += 3;
	rec = rec_of(IDLESCOPE_GOV_MENU2010FIX, 6, 10 * MS, 3, 200 * US);
	replay_record(&rp, &rec, out);
	CHECK_EQ("replay restarted: a seq gap puts the model out of step",
		 replay_in_step(&rp, 6, MODEL_MENU2010FIX), false);
}

static void test_replay_wanted(void)
{
	struct model_states_table table = skl_table();
	static struct replay all, some;
	const unsigned int not_menu = REPLAY_ALL_MODELS & ~(1U << MODEL_MENU);
	__u64 out_all[MODEL_NR], out_some[MODEL_NR];
	struct idlescope_record rec;
	bool others_same = true;
	int i;

	/*
	 * As in test_replay(): under teo, 9 x 1000 us in C3 against a 10 ms
	 * timer, stock menu's pattern search finds 930 us on the 9th.  One
	 * replay uses every prediction, the other not menu's for the first
	 * 8 periods: menu's model must still learn each of them in full.
	 */
	replay_init(&all, &table, NULL);
	replay_init(&some, &table, NULL);
	for (i = 0; i < 9; i++) {
		rec = rec_of(IDLESCOPE_GOV_TEO, 1, 10 * MS, 3, 1000 * US);
		replay_record(&all, &rec, out_all);
		replay_record_wanted(&some, &rec, i < 8 ? not_menu : REPLAY_ALL_MODELS, out_some);
		others_same &= !memcmp(out_all, out_some, sizeof(out_all[0]) * MODEL_MENU);
	}
	check(others_same, "replay wanted: the wanted models predict as when all are",
	      "a 2010 model's prediction differs");
	CHECK_EQ("replay wanted: menu's unused predictions left its history whole (930 us)",
		 out_some[MODEL_MENU], 930 * US);
	check(!memcmp(&all.cpus[1], &some.cpus[1], sizeof(all.cpus[1])),
	      "replay wanted: ... the CPU's replay state is the same byte for byte",
	      "the replays differ");
}

/*
 * The constants, parsed from the kernel side
 * ==========================================
 */
#define MAX_DEFINES	64

struct define {
	char name[64];
	char value[128];
};

struct defines {
	int nr;
	struct define d[MAX_DEFINES];
};

static struct define *define_find(struct defines *ds, const char *name)
{
	int i;

	for (i = 0; i < ds->nr; i++)
		if (!strcmp(ds->d[i].name, name))
			return &ds->d[i];
	return NULL;
}

static void define_del(struct defines *ds, const char *name)
{
	struct define *d = define_find(ds, name);

	if (d)
		*d = ds->d[--ds->nr];
}

/*
 * Parse "#define NAME VALUE /" "* comment *" "/" (after the "+" or "-" of a
 * patch line) into @ds; "-" removes it.  Function-like macros are ignored.
 */
static void define_line(struct defines *ds, const char *line, bool remove)
{
	char name[64], value[128], *comment;
	int n;

	if (sscanf(line, " #define %63[A-Za-z0-9_] %n", name, &n) != 1)
		return;
	if (!line[n] || line[n] == '\n')
		return;	/* no value: an include guard */
	if (line[n - 1] == '(' || strchr(name, '('))
		return;
	if (remove) {
		define_del(ds, name);
		return;
	}
	snprintf(value, sizeof(value), "%s", line + n);
	comment = strstr(value, "/*");
	if (comment)
		*comment = '\0';
	for (n = strlen(value); n > 0 && isspace((unsigned char)value[n - 1]); n--)
		value[n - 1] = '\0';
	define_del(ds, name);
	if (ds->nr < MAX_DEFINES) {
		snprintf(ds->d[ds->nr].name, sizeof(ds->d[0].name), "%s", name);
		snprintf(ds->d[ds->nr].value, sizeof(ds->d[0].value), "%s", value);
		ds->nr++;
	}
}

/* The #defines of governors/@file after applying @dir's series in order. */
static int parse_patches(const char *dir, const char *file, struct defines *ds)
{
	char target[128];
	char path[PATH_MAX], line[1024], patch[256];
	bool in_file;
	FILE *series, *f;
	int nr_patches = 0;

	snprintf(target, sizeof(target), " b/drivers/cpuidle/governors/%s", file);
	snprintf(path, sizeof(path), "%s/series", dir);
	series = fopen(path, "r");
	if (!series)
		return -errno;
	while (fgets(patch, sizeof(patch), series)) {
		patch[strcspn(patch, "\r\n")] = '\0';
		if (!patch[0] || patch[0] == '#')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, patch);
		f = fopen(path, "r");
		if (!f) {
			fclose(series);
			return -errno;
		}
		nr_patches++;
		in_file = false;
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "diff --git ", 11))
				in_file = strstr(line, target);
			else if (in_file && (line[0] == '+' || line[0] == '-') &&
				 strncmp(line, "+++", 3) && strncmp(line, "---", 3))
				define_line(ds, line + 1, line[0] == '-');
		}
		fclose(f);
	}
	fclose(series);
	return nr_patches ? 0 : -ENOENT;
}

static int parse_source(const char *path, struct defines *ds)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		define_line(ds, line, false);
	fclose(f);
	return 0;
}

/* CONFIG_HZ=N, or the CONFIG_HZ_N=y choice of a config fragment. */
static int parse_config_hz(const char *path, long long *hz)
{
	char line[256];
	FILE *f = fopen(path, "r");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "CONFIG_HZ=%lld", hz) == 1 ||
		    sscanf(line, "CONFIG_HZ_%lld=y", hz) == 1)
			ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * A small evaluator for the #define values: integers with U/L suffixes,
 * other #defines of the same file, NSEC_PER_USEC, ( ) * / + - << >>.
 */
struct expr {
	const char *p;
	struct defines *ds;
	int depth;
	bool bad;
};

static long long expr_sum(struct expr *e);

static void expr_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static long long expr_atom(struct expr *e)
{
	char name[64];
	long long v;
	int n = 0;

	expr_space(e);
	if (*e->p == '(') {
		e->p++;
		v = expr_sum(e);
		expr_space(e);
		if (*e->p++ != ')')
			e->bad = true;
		return v;
	}
	if (isdigit((unsigned char)*e->p)) {
		v = strtoll(e->p, (char **)&e->p, 0);
		while (*e->p == 'U' || *e->p == 'L' || *e->p == 'u' || *e->p == 'l')
			e->p++;
		return v;
	}
	while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n < 63)
		name[n++] = *e->p++;
	name[n] = '\0';
	if (!strcmp(name, "NSEC_PER_USEC"))	/* include/vdso/time64.h */
		return 1000;
	if (!strcmp(name, "U64_MAX"))		/* include/linux/limits.h, as a long long */
		return (long long)~0ULL;
	if (n && e->depth < 8 && define_find(e->ds, name)) {
		struct expr sub = { define_find(e->ds, name)->value, e->ds,
				    e->depth + 1, false };

		v = expr_sum(&sub);
		expr_space(&sub);
		e->bad |= sub.bad || *sub.p;
		return v;
	}
	e->bad = true;
	return 0;
}

static long long expr_product(struct expr *e)
{
	long long v = expr_atom(e), r;

	for (;;) {
		expr_space(e);
		if (*e->p != '*' && *e->p != '/')
			return v;
		r = *e->p++ == '*';
		if (r) {
			v *= expr_atom(e);
		} else {
			r = expr_atom(e);
			if (!r)
				e->bad = true;
			else
				v /= r;
		}
	}
}

static long long expr_sum(struct expr *e)
{
	long long v = expr_product(e);

	for (;;) {
		expr_space(e);
		if (*e->p == '+' || *e->p == '-') {
			bool plus = *e->p++ == '+';
			long long r = expr_product(e);

			v = plus ? v + r : v - r;
		} else if ((e->p[0] == '<' && e->p[1] == '<') ||
			   (e->p[0] == '>' && e->p[1] == '>')) {
			bool left = e->p[0] == '<';
			long long r;

			e->p += 2;
			r = expr_product(e);
			v = left ? v << r : v >> r;
		} else {
			return v;
		}
	}
}

static bool define_value(struct defines *ds, const char *name, long long *v)
{
	struct define *d = define_find(ds, name);
	struct expr e = { NULL, ds, 0, false };

	if (!d)
		return false;
	e.p = d->value;
	*v = expr_sum(&e);
	expr_space(&e);
	return !e.bad && !*e.p;
}

/* Every model constant of @file equals the kernel's; every #define has one. */
static void check_constants_of(const char *file, struct defines *ds)
{
	char name[256];
	unsigned int i;
	long long v;
	int j;

	for (i = 0; i < model_nr_constants; i++) {
		const struct model_constant *c = &model_constants[i];

		if (strcmp(c->file, file))
			continue;
		snprintf(name, sizeof(name), "constants: %s %s = %lld",
			 c->file, c->name, c->value);
		if (!define_value(ds, c->name, &v))
			check(false, name, "no numeric #define %s in the kernel's %s",
			      c->name, c->file);
		else
			check(v == c->value, name, "the kernel's is %lld", v);
	}
	for (j = 0; j < ds->nr; j++) {
		bool found = false;

		for (i = 0; i < model_nr_constants; i++)
			found |= !strcmp(model_constants[i].file, file) &&
				 !strcmp(model_constants[i].name, ds->d[j].name);
		snprintf(name, sizeof(name), "constants: %s's %s has a model constant",
			 file, ds->d[j].name);
		check(found, name, "add it to model_constants[] (loader/models/constants.c)");
	}
}

/*
 * The constants of one governor source, @file in @dir, which
 * model_constants[] calls @label ("menu.c" of 6.1, "6.12/menu.c").
 */
static void test_constants_of_source(const char *dir, const char *file,
				     const char *label, const char *tree)
{
	struct defines ds = { 0 };
	char path[PATH_MAX], name[160];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	err = parse_source(path, &ds);
	if (err) {
		snprintf(name, sizeof(name), "constants: %s of the %s tree", file, tree);
		check(false, name, "%s: %s", path, strerror(-err));
		return;
	}
	check_constants_of(label, &ds);
}

/*
 * teo70.c, which our 6.12 series adds: its #defines and those of gov.h it
 * includes (its LATENCY_THRESHOLD_NS is half of gov.h's).
 */
static void test_constants_teo70(const char *patch_dir_6_12, const char *governors_6_12)
{
	static struct defines teo70;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/gov.h", governors_6_12);
	err = parse_source(path, &teo70);
	if (!err)
		err = parse_patches(patch_dir_6_12, "teo70.c", &teo70);
	if (err)
		check(false, "constants: teo70.c from kernel/patches/6.12", "%s: %s",
		      patch_dir_6_12, strerror(-err));
	else
		check_constants_of("6.12/teo70.c", &teo70);
}

static void test_constants(const char *patch_dir, const char *patch_dir_6_12,
			   const char *governors_6_1, const char *governors_6_12,
			   const char *config)
{
	static struct defines m2010;
	struct model_constant hz = { 0 };
	long long config_hz;
	unsigned int i;
	int err;

	err = parse_patches(patch_dir, "menu2010.c", &m2010);
	if (err)
		check(false, "constants: menu2010.c from kernel/patches", "%s/series: %s",
		      patch_dir, strerror(-err));
	else
		check_constants_of("menu2010.c", &m2010);
	test_constants_teo70(patch_dir_6_12, governors_6_12);

	test_constants_of_source(governors_6_1, "menu.c", "menu.c", "6.1");
	test_constants_of_source(governors_6_1, "teo.c", "teo.c", "6.1");
	test_constants_of_source(governors_6_12, "menu.c", "6.12/menu.c", "6.12");
	test_constants_of_source(governors_6_12, "teo.c", "6.12/teo.c", "6.12");
	test_constants_of_source(governors_6_12, "gov.h", "6.12/gov.h", "6.12");

	for (i = 0; i < model_nr_constants; i++)
		if (!strcmp(model_constants[i].file, "idlescope.config"))
			hz = model_constants[i];
	err = parse_config_hz(config, &config_hz);
	if (err)
		check(false, "constants: CONFIG_HZ of the config fragment", "%s: %s",
		      config, strerror(-err));
	else
		CHECK_EQ("constants: idlescope.config CONFIG_HZ = MODEL_HZ",
			 config_hz, hz.value);
}

int main(int argc, char **argv)
{
	/* Each line out as it is printed: a crash loses none of them. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 6) {
		fprintf(stderr, "usage: %s PATCH_DIR PATCH_DIR_6_12 GOVERNORS_6_1 GOVERNORS_6_12 "
			"CONFIG_FRAGMENT\n", argv[0]);
		return 2;
	}

	test_skl_table();
	test_table_derive();
	test_rpd_repeating_pattern();
	test_rpd_sum_vs_expected();
	test_rpd_decay();
	test_menu2010_before_bug();
	test_menu2010_max_interesting();
	test_menu2010_u32_wrap();
	test_menu2010_selection();
	test_menu_typical_interval();
	test_menu_early_return();
	test_menu_update();
	test_replay();
	test_replay_seq_gap();
	test_replay_lost_selects();
	test_replay_restarted();
	test_replay_wanted();
	test_constants(argv[1], argv[2], argv[3], argv[4], argv[5]);

	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
