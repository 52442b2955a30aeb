// SPDX-License-Identifier: GPL-2.0
/*
 * test_state_models.c - host unit tests of the models that choose states:
 * teo of Linux 6.1 (teo-6.1) and 6.12 (teo-6.12), and 6.12's menu
 * (menu-6.12); the choice of a governor's model by the kernel the records
 * came from; and the pipeline's checks of a chosen state against the
 * kernel's and against the period's ideal state.
 *
 * The table is the synthetic driver's default, Skylake client's:
 *
 *	index	0	1	2	3	4	5	6	7	8
 *	state	POLL	C1	C1E	C3	C6	C7s	C8	C9	C10
 *	exit us	0	2	10	70	85	124	200	480	890
 *	target	0	2	20	100	200	800	800	5000	5000
 *
 * at HZ 1000 (a 1 ms tick).  Each check's expected value is worked out by
 * hand from the kernel code, the arithmetic beside it.
 *
 * Output: one "PASS: <name>" or "FAIL: <name> (<why>)" line per check;
 * exit status 1 if any failed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "models/menu.h"
#include "models/teo.h"
#include "pipeline.h"
#include "check.h"
#include "skl_table.h"

#define KTIME_MAX	MODEL_KTIME_MAX

enum { POLL, C1, C1E, C3, C6, C7S, C8, C9, C10 };

/*
 * One CPU running a model's governor: ->select() of a period, then the
 * sleep that follows it, in the state the model chose.
 */
struct sim {
	struct model_state ms;
	struct model_states_table table;
	struct model_input in;
	__u64 predicted_ns;
};

static void sim_start(struct sim *s, enum model_id id)
{
	memset(s, 0, sizeof(*s));
	model_reset(&s->ms, id);
	s->table = skl_table();
	s->in.latency_req_ns = NO_QOS_NS;
	s->in.prev_chosen_by_model = true;
}

/*
 * ->select() with the tick @tick_stopped or @delta_tick_ns away; a
 * @next_timer_ns of 0 is a record without one (the kernel did not ask).
 */
static int sim_select_tick(struct sim *s, __u64 next_timer_ns, bool tick_stopped,
			   __s64 delta_tick_ns)
{
	struct model_input *in = &s->in;

	in->next_timer_ns = next_timer_ns ? next_timer_ns : (__u64)KTIME_MAX;
	in->inputs = IDLESCOPE_F_HAS_TICK | IDLESCOPE_F_HAS_TICK_STATE |
		     IDLESCOPE_F_HAS_TEO_SPAN |
		     (next_timer_ns ? IDLESCOPE_F_HAS_NEXT_TIMER : 0);
	in->tick_stopped = tick_stopped;
	in->delta_tick_ns = delta_tick_ns;
	s->predicted_ns = model_step(&s->ms, in, &s->table);
	return s->ms.chosen_state;
}

/* ... with the tick running, its next event 1 ms away. */
static int sim_select(struct sim *s, __u64 next_timer_ns)
{
	return sim_select_tick(s, next_timer_ns, false, 1 * MS);
}

/*
 * The CPU sleeps @residency_ns in @state (-1: the one chosen), which
 * reflect reports at the next select; @span_full: teo's span reached the
 * sleep length, @safety_net: by a safety net.
 */
static void sim_sleep_in(struct sim *s, int state, __u64 residency_ns,
			 bool span_full, bool safety_net)
{
	s->in.has_prev = true;
	s->in.prev_state = state >= 0 ? state : s->ms.chosen_state;
	s->in.prev_residency_ns = residency_ns;
	s->in.prev_span_full = span_full;
	s->in.prev_safety_net = safety_net;
}

/* Woken early, in the state chosen, not by the timer. */
static void sim_sleep(struct sim *s, __u64 residency_ns)
{
	sim_sleep_in(s, -1, residency_ns, false, false);
}

/*
 * teo of 6.1
 * ==========
 */
static void test_teo_first_select(void)
{
	struct sim s;
	struct model_teo *t;

	/*
	 * ->enable() zeroed time_span_ns and sleep_length_ns: the first
	 * update takes the span as full (0 >= 0), and only POLL's target
	 * residency, 0, is within the sleep length 0: a hit in bin 0.
	 */
	sim_start(&s, MODEL_TEO);
	t = model_teo_data(&s.ms);
	CHECK_EQ_INT("teo-6.1: a fresh CPU with a 10 ms timer chooses C10",
		     sim_select(&s, 10 * MS), C10);
	CHECK_EQ("teo-6.1: ... after the first update: bin 0's hits are one PULSE",
		 t->state_bins[POLL].hits, 1024);
	CHECK_EQ("teo-6.1: ... and the total is one PULSE", t->total, 1024);
	CHECK_EQ("teo-6.1: teo predicts no duration (unknown)", s.predicted_ns, IDLESCOPE_UNKNOWN_NS);
	CHECK_EQ_INT("teo-6.1: the sleep length is kept for the next update",
		     t->r.sleep_length_ns, 10 * MS);
}

static void test_teo_intercept(void)
{
	struct sim s, stopped;
	struct model_teo *t;

	/*
	 * 50 us in C10 (exit 890 us) under a 10 ms timer: 50 < 890, measured
	 * 25 us, in bin 2 (C1E, 20 us), while the timer's is bin 8: an
	 * intercept.  Decay first: hits[0] 1024 - 128 = 896; total 896 +
	 * 1024 = 1920.  Then the intercepts below C10 (1024) are more than
	 * half of total - hits below (1920 - 896): look for a shallower
	 * state.  From C9 down the intercept sum stays 0 until bin 2, where
	 * 2 * 1024 > 1024: C1E, its bin's middle (20 + 100) / 2 = 60 us.
	 */
	sim_start(&s, MODEL_TEO);
	sim_select(&s, 10 * MS);
	sim_sleep(&s, 50 * US);
	stopped = s;
	t = model_teo_data(&s.ms);
	CHECK_EQ_INT("teo-6.1: one 50 us wakeup under a 10 ms timer: C1E",
		     sim_select(&s, 10 * MS), C1E);
	check(t->state_bins[POLL].hits == 896 && t->state_bins[C1E].intercepts == 1024 &&
	      t->state_bins[C1E].recent == 1 && t->total == 1920,
	      "teo-6.1: ... hits[0] 896, C1E's intercepts 1024 and 1 recent, total 1920",
	      "hits %u, intercepts %u, recent %u, total %u", t->state_bins[POLL].hits,
	      t->state_bins[C1E].intercepts, t->state_bins[C1E].recent, t->total);

	/*
	 * The tick already stopped: teo_time_ok() refuses every bin whose
	 * middle is below the 1 ms tick.  C9's (5000 us) and C8's (2900 us)
	 * pass, C7s's (800 us) does not, and the search goes on past it
	 * since C8 was found; at C1E the intercepts win but C1E is too
	 * shallow: the first suitable state, C8.
	 */
	CHECK_EQ_INT("teo-6.1: ... with the tick stopped, C8: the deepest with a span >= the tick",
		     sim_select_tick(&stopped, 10 * MS, true, 0), C8);

	/*
	 * The next 50 us wakeup, from C1E (exit 10 us): measured 45 us, bin
	 * 2 again.  hits[0] 784, C1E's intercepts 896 + 1024 = 1920.
	 */
	sim_sleep(&s, 50 * US);
	sim_select(&s, 10 * MS);
	CHECK_EQ("teo-6.1: a second wakeup in C1E's bin: its intercepts 1920, 2 recent",
		 t->state_bins[C1E].intercepts + t->state_bins[C1E].recent, 1920 + 2);
}

static void test_teo_timer_wakeup(void)
{
	struct sim s;
	struct model_teo *t;

	/* The span reached the sleep length: measured U64_MAX, a hit in bin 8. */
	sim_start(&s, MODEL_TEO);
	t = model_teo_data(&s.ms);
	sim_select(&s, 10 * MS);
	sim_sleep_in(&s, -1, 10 * MS, true, false);
	CHECK_EQ_INT("teo-6.1: woken by its 10 ms timer, it stays in C10",
		     sim_select(&s, 10 * MS), C10);
	check(t->state_bins[C10].hits == 1024 && t->state_bins[C10].intercepts == 0 &&
	      t->recent_idx[1] == -1,
	      "teo-6.1: ... a hit in C10's bin, no recent intercept",
	      "hits %u, intercepts %u, recent_idx %d", t->state_bins[C10].hits,
	      t->state_bins[C10].intercepts, t->recent_idx[1]);
}

static void test_teo_tick_and_limit(void)
{
	struct sim s;

	/*
	 * A 500 us sleep length: C6 (200 us) is the deepest that fits.
	 * Under the tick period with the tick running, the state must also
	 * fit the tick's next event: 150 us away, C6's 200 us does not, C3's
	 * 100 us does.
	 */
	sim_start(&s, MODEL_TEO);
	CHECK_EQ_INT("teo-6.1: a 500 us timer and the tick 150 us away: C3",
		     sim_select_tick(&s, 500 * US, false, 150 * US), C3);
	sim_start(&s, MODEL_TEO);
	CHECK_EQ_INT("teo-6.1: ... the tick 300 us away: C6",
		     sim_select_tick(&s, 500 * US, false, 300 * US), C6);
	sim_start(&s, MODEL_TEO);
	CHECK_EQ_INT("teo-6.1: ... the tick stopped: C6",
		     sim_select_tick(&s, 500 * US, true, 150 * US), C6);

	/* A 100 us PM QoS limit: C6 (exit 85 us) is the deepest within it. */
	sim_start(&s, MODEL_TEO);
	s.in.latency_req_ns = 100 * US;
	CHECK_EQ_INT("teo-6.1: a 100 us PM QoS limit caps a 10 ms sleep at C6",
		     sim_select(&s, 10 * MS), C6);
}

/*
 * teo of 6.12
 * ===========
 */
static void test_teo612(void)
{
	struct sim s, skip, other;
	struct model_teo612 *t;

	/*
	 * First select as 6.1's: a hit in bin 0.  The candidate is the
	 * deepest enabled state, C10; nothing intercepts, so it asks for the
	 * sleep length, within which C10's 5 ms fits.
	 */
	sim_start(&s, MODEL_TEO612);
	t = model_teo612_data(&s.ms);
	CHECK_EQ_INT("teo-6.12: a fresh CPU with a 10 ms timer chooses C10",
		     sim_select(&s, 10 * MS), C10);
	CHECK_EQ_INT("teo-6.12: ... having asked for the sleep length",
		     t->r.sleep_length_ns, 10 * MS);

	/*
	 * 50 us in C10: measured 25 us, an intercept in bin 2, total 896 +
	 * 1024 = 1920; 2 * 1024 > 1920 - 896: C1E.  Its 20 us target is not
	 * below RESIDENCY_THRESHOLD_NS (15 us): it asks for the sleep length
	 * (10 ms, C1E fits), and the tick intercepts (1024) are not above
	 * 1920 / 2 + 1920 / 8 = 1200.
	 */
	skip = s;
	sim_sleep(&s, 50 * US);
	CHECK_EQ_INT("teo-6.12: one 50 us wakeup under a 10 ms timer: C1E",
		     sim_select(&s, 10 * MS), C1E);
	check(t->state_bins[POLL].hits == 896 && t->state_bins[C1E].intercepts == 1024 &&
	      t->total == 1920 && t->r.sleep_length_ns == (__s64)(10 * MS),
	      "teo-6.12: ... hits[0] 896, C1E's intercepts 1024, total 1920, sleep length asked",
	      "hits %u, intercepts %u, total %u, sleep length %lld", t->state_bins[POLL].hits,
	      t->state_bins[C1E].intercepts, t->total, (long long)t->r.sleep_length_ns);

	/*
	 * 5 us in C10 instead: measured 2.5 us, an intercept in bin 1 (C1,
	 * 2 us).  C1 is below RESIDENCY_THRESHOLD_NS after a polling state
	 * 0: no sleep length asked, it stays KTIME_MAX, and a record
	 * without one lacks nothing.
	 */
	sim_sleep(&skip, 5 * US);
	other = skip;
	t = model_teo612_data(&skip.ms);
	CHECK_EQ_INT("teo-6.12: one 5 us wakeup: C1, without asking for the sleep length",
		     sim_select(&skip, 0), C1);
	check(t->r.sleep_length_ns == KTIME_MAX && !skip.ms.lacked_inputs,
	      "teo-6.12: ... its sleep length KTIME_MAX, no input lacked",
	      "sleep length %lld, lacked %#x", (long long)t->r.sleep_length_ns,
	      skip.ms.lacked_inputs);

	/*
	 * On another kernel's record, which had a 10 ms timer, and whose span
	 * then reached it but by no safety net: the model, whose sleep length
	 * was KTIME_MAX, takes the safety net's verdict, not the span's.  5 us
	 * in C1 (exit 2 us): measured 4 us, bin 1 again, an intercept (C1's
	 * 896 + 1024), not the hit in C10's bin a full span would make.
	 */
	t = model_teo612_data(&other.ms);
	sim_select(&other, 10 * MS);
	sim_sleep_in(&other, -1, 5 * US, true, false);
	sim_select(&other, 10 * MS);
	check(t->state_bins[C1].intercepts == 896 + 1024 && t->state_bins[C10].hits == 0,
	      "teo-6.12: without its own sleep length, only a safety net makes a hit",
	      "C1's intercepts %u, C10's hits %u", t->state_bins[C1].intercepts,
	      t->state_bins[C10].hits);

	/* 50 us in C1E again: C1E, which asks for the sleep length. */
	sim_sleep(&s, 50 * US);
	sim_select(&s, 0);
	CHECK_EQ("teo-6.12: a select that asks for a sleep length the record lacks says so",
		 s.ms.lacked_inputs, IDLESCOPE_F_HAS_NEXT_TIMER);
}

/*
 * menu of 6.12
 * ============
 */
static void test_menu612(void)
{
	struct sim s, stopped;
	struct model_menu *m;
	int i;

	/*
	 * No interval yet: every one is 0, get_typical_interval() gives up
	 * (UINT_MAX), so it asks for the timer: 10 ms, bucket 4 (no I/O
	 * half), factor 8192: (4096000 + 10^7 * 8192) / 8192000 = 10000 us.
	 */
	sim_start(&s, MODEL_MENU612);
	m = model_menu_data(&s.ms);
	CHECK_EQ_INT("menu-6.12: a fresh CPU with a 10 ms timer chooses C10",
		     sim_select(&s, 10 * MS), C10);
	CHECK_EQ("menu-6.12: ... predicting 10 ms", s.predicted_ns, 10 * MS);
	CHECK_EQ("menu-6.12: ... in bucket 4 of its 6", m->bucket, 4);

	/*
	 * Eight 10 us periods in POLL (exit 0: measured 10 us each): the
	 * ninth select's typical interval is 10 us, not above 15 us with the
	 * tick running: no timer asked (KTIME_MAX), the tick half a period
	 * away.  C1 (2 us) is within the prediction, C1E (20 us) is not, and
	 * 10 us is below the tick: C1.
	 */
	for (i = 0; i < 8; i++) {
		sim_sleep_in(&s, POLL, 10 * US, false, false);
		stopped = s;
		sim_select(&s, i < 7 ? 10 * MS : 0);
	}
	CHECK_EQ_INT("menu-6.12: eight 10 us periods: C1", s.ms.chosen_state, C1);
	check(s.predicted_ns == 10 * US && m->next_timer_ns == (__u64)KTIME_MAX &&
	      m->bucket == 5 && !s.ms.lacked_inputs,
	      "menu-6.12: ... predicting 10 us, no timer asked (bucket 5), nothing lacked",
	      "predicted %llu, next timer %llu, bucket %u, lacked %#x",
	      (unsigned long long)s.predicted_ns, (unsigned long long)m->next_timer_ns,
	      m->bucket, s.ms.lacked_inputs);

	/*
	 * The same select with the tick stopped asks for the timer; 10 us is
	 * below the tick, so the state is chosen for the 10 ms timer: C10.
	 * The prediction stored is the 10 us, before that adjustment.
	 */
	CHECK_EQ_INT("menu-6.12: ... with the tick stopped: C10 for the 10 ms timer",
		     sim_select_tick(&stopped, 10 * MS, true, 0), C10);
	CHECK_EQ("menu-6.12: ... still predicting 10 us", stopped.predicted_ns, 10 * US);
}

/*
 * Which model checks a governor
 * =============================
 */
static void test_model_of_governor(void)
{
	CHECK_EQ_INT("model of menu on 6.1.0-57-amd64: menu",
		     model_of_governor(IDLESCOPE_GOV_MENU, "6.1.0-57-amd64"), MODEL_MENU);
	CHECK_EQ_INT("model of menu on 6.12.118+deb12-amd64: menu-6.12",
		     model_of_governor(IDLESCOPE_GOV_MENU, "6.12.118+deb12-amd64"),
		     MODEL_MENU612);
	CHECK_EQ_INT("model of teo on 6.1.192: teo-6.1",
		     model_of_governor(IDLESCOPE_GOV_TEO, "6.1.192"), MODEL_TEO);
	CHECK_EQ_INT("model of teo on 6.12.118: teo-6.12",
		     model_of_governor(IDLESCOPE_GOV_TEO, "6.12.118"), MODEL_TEO612);
	CHECK_EQ_INT("model of teo on 6.10.3: 6.1's, the newest not newer",
		     model_of_governor(IDLESCOPE_GOV_TEO, "6.10.3"), MODEL_TEO);
	CHECK_EQ_INT("model of menu on 6.15-rc1: 6.12's",
		     model_of_governor(IDLESCOPE_GOV_MENU, "6.15-rc1"), MODEL_MENU612);
	CHECK_EQ_INT("model of menu on 5.15.0: the oldest, 6.1's",
		     model_of_governor(IDLESCOPE_GOV_MENU, "5.15.0"), MODEL_MENU);
	check(model_of_governor(IDLESCOPE_GOV_MENU, NULL) == MODEL_MENU &&
	      model_of_governor(IDLESCOPE_GOV_MENU, "") == MODEL_MENU &&
	      model_of_governor(IDLESCOPE_GOV_TEO, "unknown") == MODEL_TEO,
	      "model of a governor on an unknown release: the oldest", "differs");
	check(model_of_governor(IDLESCOPE_GOV_MENU2010RPD, "6.12.118") == MODEL_MENU2010RPD &&
	      model_of_governor(IDLESCOPE_GOV_LADDER, "6.1.0") == -1,
	      "model of a governor with one model: it on any kernel; ladder: none",
	      "differs");
}

/*
 * The pipeline's checks of chosen states
 * ======================================
 */

/*
 * Three teo periods of CPU 0, each 50 us long under a 10 ms timer, the
 * first after teo's ->enable(), each with the state the kernel chose.
 */
static void add_teo_periods(struct pipeline *pl, const int chosen[3])
{
	struct idlescope_record rec;
	int i;

	for (i = 0; i < 3; i++) {
		memset(&rec, 0, sizeof(rec));
		memcpy(rec.workload, "w", 1);
		rec.governor = IDLESCOPE_GOV_TEO;
		rec.seq = i;
		rec.state = chosen[i];
		rec.chosen_state = chosen[i];
		rec.residency_ns = 50 * US;
		rec.kernel_residency_ns = 50 * US;
		rec.next_timer_ns = 10 * MS;
		rec.delta_tick_ns = 1 * MS;
		rec.latency_req_ns = NO_QOS_NS;
		rec.predicted_ns = IDLESCOPE_UNKNOWN_NS;
		rec.flags = IDLESCOPE_F_SELECTED | IDLESCOPE_F_REFLECTED |
			    IDLESCOPE_F_SELECT_PROBED | IDLESCOPE_F_HAS_NEXT_TIMER |
			    IDLESCOPE_F_HAS_TICK_STATE |
			    (i ? IDLESCOPE_F_HAS_TEO_SPAN : IDLESCOPE_F_RESTARTED);
		pipeline_add(pl, &rec);
	}
}

static void test_pipeline_states(void)
{
	struct model_states_table table = skl_table();
	struct idlescope_state states[IDLESCOPE_MAX_STATES] = {};
	/* teo chooses C10, then C1E twice; the kernel "chose" C7s the third time */
	static const int chosen[3] = { C10, C1E, C7S };
	const struct agg_shadow *sh61, *sh612;
	struct pipeline pl;
	struct agg_stats st;
	int i;

	for (i = 0; i < table.nr_states; i++) {
		states[i].target_residency_ns = table.states[i].target_residency_ns;
		states[i].exit_latency_ns = table.states[i].exit_latency_ns;
		states[i].polling = table.states[i].polling;
	}
	if (pipeline_init(&pl, states, table.nr_states, 1000, "6.1.0-57-amd64")) {
		check(false, "pipeline: starts", "pipeline_init failed");
		return;
	}
	add_teo_periods(&pl, chosen);
	agg_sum(pl.agg, AGG_ANY, AGG_ANY, AGG_ANY, &st);
	sh61 = &st.shadow[MODEL_TEO];
	sh612 = &st.shadow[MODEL_TEO612];
	check(sh61->state_agree_checked == 3 && sh61->state_agree_samples == 2,
	      "pipeline: on 6.1, teo-6.1's state is checked on every select: 2 of 3 agree",
	      "%llu of %llu", (unsigned long long)sh61->state_agree_samples,
	      (unsigned long long)sh61->state_agree_checked);
	CHECK_EQ("pipeline: ... and teo-6.12's is not checked", sh612->state_agree_checked, 0);

	/*
	 * The ideal state of 50 us is C1E (C3 wants 100 us).  The first
	 * period lacks teo's span of the one before: excluded.  The others:
	 * C1E, C1E by both models, hits; the kernel entered C1E then C7s.
	 */
	check(sh61->ideal_samples == 2 && sh61->ideal_hit_samples == 2 &&
	      sh61->excluded_samples == 1,
	      "pipeline: teo-6.1's chosen states against the ideal one: 2 hits of 2, 1 excluded",
	      "%llu hits of %llu, %llu excluded", (unsigned long long)sh61->ideal_hit_samples,
	      (unsigned long long)sh61->ideal_samples,
	      (unsigned long long)sh61->excluded_samples);
	check(sh612->ideal_samples == 2 && sh612->ideal_hit_samples == 2,
	      "pipeline: teo-6.12 on 6.1's periods: 2 hits of 2", "%llu of %llu",
	      (unsigned long long)sh612->ideal_hit_samples,
	      (unsigned long long)sh612->ideal_samples);
	check(st.ideal_samples == 3 && st.ideal_hit_samples == 1 &&
	      st.ideal_too_deep_samples == 2,
	      "pipeline: the kernel's entered states: 1 hit, 2 too deep", "%llu hits, %llu deep",
	      (unsigned long long)st.ideal_hit_samples,
	      (unsigned long long)st.ideal_too_deep_samples);

	/* The same periods recorded on 6.12: teo-6.12 is the one checked. */
	pipeline_restart(&pl, states, table.nr_states, 1000, "6.12.118+deb12-amd64");
	add_teo_periods(&pl, chosen);
	agg_sum(pl.agg, AGG_ANY, AGG_ANY, AGG_ANY, &st);
	check(st.shadow[MODEL_TEO612].state_agree_checked == 3 &&
	      st.shadow[MODEL_TEO612].state_agree_samples == 2 &&
	      st.shadow[MODEL_TEO].state_agree_checked == 3,
	      "pipeline: on 6.12, teo-6.12 is checked instead: 2 of 3",
	      "teo-6.12 %llu of %llu, teo-6.1 %llu checked",
	      (unsigned long long)st.shadow[MODEL_TEO612].state_agree_samples,
	      (unsigned long long)st.shadow[MODEL_TEO612].state_agree_checked,
	      (unsigned long long)st.shadow[MODEL_TEO].state_agree_checked);
	pipeline_free(&pl);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_teo_first_select();
	test_teo_intercept();
	test_teo_timer_wakeup();
	test_teo_tick_and_limit();
	test_teo612();
	test_menu612();
	test_model_of_governor();
	test_pipeline_states();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
