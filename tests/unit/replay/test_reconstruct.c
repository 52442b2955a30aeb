// SPDX-License-Identifier: GPL-2.0
/*
 * test_reconstruct - stock menu's prediction rebuilt from menu's data
 * (loader/replay/reconstruct.c) on hand-made records, each expected value worked
 * out by hand from menu_select() of 6.1 (drivers/cpuidle/governors/menu.c):
 *
 *   predicted_us = (next_timer_ns * factor + 1024 * 8 * 1000 / 2)
 *                  / (1024 * 8 * 1000)
 *   predicted_ns = min(predicted_us, get_typical_interval()) * 1000
 *
 * and the early return before it (state 1 longer than the next timer, or
 * slower than the PM QoS limit); and from menu_select() of 6.12 for a
 * record file of that kernel (test_612()).
 */
#include <stdint.h>
#include <string.h>
#include "pipeline.h"
#include "replay/reconstruct.h"
#include "check.h"
#include "fixtures.h"

/* POLL, then a 2 us state and a 20 us one. */
static const struct model_states_table table = {
	.hz = 250,
	.nr_states = 3,
	.states = {
		{ .exit_latency_ns = 0, .target_residency_ns = 0, .polling = true },
		{ .exit_latency_ns = 2 * US, .target_residency_ns = 2 * US },
		{ .exit_latency_ns = 10 * US, .target_residency_ns = 20 * US },
	},
};

/* No typical interval: the smallest (600) is above the 501 us prediction. */
static const unsigned int spread_us[IDLESCOPE_MENU_INTERVALS] = {
	600, 5000, 800, 20000, 700, 9000, 650, 3000,
};

/*
 * A stock menu period in state 2: next timer 1 ms (bucket 3: 1 to 10 ms,
 * no I/O waiters), factor 4101 of 8192, no PM QoS limit seen.
 *   1000000 * 4101 = 4101000000; + 4096000 = 4105096000;
 *   / 8192000 = 501.1 -> 501 us (500.6 -> 500 without the half-us rounding).
 */
static struct idlescope_record stock_record(void)
{
	struct idlescope_record rec = make_record("w", IDLESCOPE_GOV_MENU, 0, 2, 700 * US);

	rec.next_timer_ns = 1000 * US;
	rec.bucket = 3;
	rec.correction_factor = 4101;
	memcpy(rec.intervals_us, spread_us, sizeof(spread_us));
	rec.latency_req_ns = IDLESCOPE_LATENCY_REQ_UNKNOWN;
	rec.flags |= IDLESCOPE_F_MENU_DATA;
	return rec;
}

static void test_timer_prediction(void)
{
	struct reconstruct_stats rs = {};
	struct idlescope_record rec = stock_record();

	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: timer x factor, rounded to the half us", rec.predicted_ns, 501 * US);
	CHECK_EQ("reconstruct: the record says rebuilt and predicted",
		 rec.flags & (IDLESCOPE_F_PREDICTED | IDLESCOPE_F_RECONSTRUCTED),
		 IDLESCOPE_F_PREDICTED | IDLESCOPE_F_RECONSTRUCTED);
	CHECK_EQ("reconstruct: no typical interval when every interval is longer",
		 rec.typical_interval_us, 0xffffffffU);
	CHECK_EQ("reconstruct: bucket 3 is the no-I/O half", rec.nr_iowaiters, 0);
	CHECK_EQ("reconstruct: counted", rs.reconstructed, 1);

	rec = stock_record();
	rec.bucket = 9;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: bucket 9 means I/O waiters", rec.nr_iowaiters, 1);

	/* Already rebuilt: a second pass changes nothing. */
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: a rebuilt record is not rebuilt again", rs.reconstructed, 2);
}

static void test_typical_interval(void)
{
	/* Sum 800, average 100; squares 0+4+4+0+1+1+0+0 = 10, / 8 = 1 <= 400. */
	static const unsigned int steady_us[IDLESCOPE_MENU_INTERVALS] = {
		100, 102, 98, 100, 101, 99, 100, 100,
	};
	/*
	 * All eight: average 31400 / 8 = 3925, variance 97129375: neither
	 * 3925^2 > 36 * variance nor <= 400, 8 > 3/4 of 8: drop above 29999.
	 * The seven 200s: average 200, variance 0, 7 * 4 >= 24: 200.
	 */
	static const unsigned int outlier_us[IDLESCOPE_MENU_INTERVALS] = {
		200, 200, 200, 200, 200, 200, 200, 30000,
	};
	struct reconstruct_stats rs = {};
	struct idlescope_record rec = stock_record();

	memcpy(rec.intervals_us, steady_us, sizeof(steady_us));
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: a steady pattern beats the timer", rec.predicted_ns, 100 * US);
	CHECK_EQ("reconstruct: its typical interval is kept", rec.typical_interval_us, 100);

	rec = stock_record();
	memcpy(rec.intervals_us, outlier_us, sizeof(outlier_us));
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: the pattern after dropping the outlier", rec.predicted_ns, 200 * US);
}

static void test_early_return(void)
{
	struct reconstruct_stats rs = {};
	struct idlescope_record rec = stock_record();

	/* 1.5 us to the next timer: state 1 (2 us) is too long, state 0 at once. */
	rec.next_timer_ns = 1500;
	rec.bucket = 0;
	rec.state = 0;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	check(rec.predicted_ns == IDLESCOPE_UNKNOWN_NS && !(rec.flags & IDLESCOPE_F_PREDICTED),
	      "reconstruct: no prediction when the timer is shorter than state 1",
	      "predicted %llu, flags %#x", (unsigned long long)rec.predicted_ns, rec.flags);

	/* A 1 us limit (select probe): state 1's 2 us exit is too slow. */
	rec = stock_record();
	rec.state = 0;
	rec.latency_req_ns = 1 * US;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	check(!(rec.flags & IDLESCOPE_F_PREDICTED),
	      "reconstruct: no prediction when state 1 is slower than the PM QoS limit",
	      "predicted %llu", (unsigned long long)rec.predicted_ns);
	CHECK_EQ("reconstruct: early returns are neither rebuilt nor unresolved",
		 rs.reconstructed + rs.unresolved, 0);

	/* State 0 with no limit seen: a limit may have sent select back. */
	rec = stock_record();
	rec.state = 0;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	check(!(rec.flags & IDLESCOPE_F_PREDICTED) && rs.unresolved == 1,
	      "reconstruct: state 0 without the PM QoS limit is left unknown",
	      "flags %#x, unresolved %llu", rec.flags, (unsigned long long)rs.unresolved);

	/* The same with the limit seen and no limit set: rebuilt. */
	rec = stock_record();
	rec.state = 0;
	rec.latency_req_ns = MODEL_LATENCY_REQ_DEFAULT_NS;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: state 0 with the PM QoS limit seen is rebuilt",
		 rec.predicted_ns, 501 * US);
}

static void test_not_applicable(void)
{
	struct reconstruct_stats rs = {};
	struct idlescope_record rec = stock_record();

	rec.governor = IDLESCOPE_GOV_TEO;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: only stock menu's periods", rec.flags & IDLESCOPE_F_PREDICTED, 0);
	rec = stock_record();
	rec.flags &= ~IDLESCOPE_F_MENU_DATA;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	CHECK_EQ("reconstruct: only with menu's data read", rec.flags & IDLESCOPE_F_PREDICTED, 0);
}

/* Our patched kernel: its own prediction stays, the rebuilt one is compared. */
static void test_kernel_prediction(void)
{
	struct reconstruct_stats rs = {};
	struct idlescope_record rec = stock_record();

	rec.predicted_ns = 501 * US;
	rec.flags |= IDLESCOPE_F_PREDICTED;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	rec.predicted_ns = 500 * US;
	reconstruct_record(&rec, &table, MODEL_MENU, &rs);
	check(rs.checked == 2 && rs.agreed == 1 && !rs.reconstructed,
	      "reconstruct: the kernel's own prediction is compared, not replaced",
	      "checked %llu, agreed %llu, reconstructed %llu", (unsigned long long)rs.checked,
	      (unsigned long long)rs.agreed, (unsigned long long)rs.reconstructed);
	CHECK_EQ("reconstruct: the kernel's prediction is left as it was", rec.predicted_ns, 500 * US);
}

/*
 * Through the pipeline, as the loader and `idlescope report` feed it:
 * the rebuilt prediction is scored as the live governor's.
 */
static void test_pipeline(void)
{
	struct idlescope_state states[3] = {
		{ .polling = 1 },
		{ .exit_latency_ns = 2 * US, .target_residency_ns = 2 * US },
		{ .exit_latency_ns = 10 * US, .target_residency_ns = 20 * US },
	};
	struct idlescope_record rec = stock_record();
	const struct agg_stats *st;
	struct pipeline pl = {};

	if (pipeline_init(&pl, states, 3, 250, NULL)) {
		check(false, "reconstruct: the pipeline scores rebuilt predictions", "no memory");
		return;
	}
	pipeline_add(&pl, &rec);
	st = agg_get(pl.agg, 0, IDLESCOPE_GOV_MENU, 0);
	check(st && st->predicted_samples == 1 && pl.reconstruct.reconstructed == 1,
	      "reconstruct: the pipeline scores rebuilt predictions",
	      "predicted samples %llu, reconstructed %llu",
	      st ? (unsigned long long)st->predicted_samples : 0ULL,
	      (unsigned long long)pl.reconstruct.reconstructed);
	pipeline_free(&pl);
}

/*
 * 6.12's menu (menu_select() of 6.12's menu.c): the typical interval
 * first; the timer, scaled as 6.1 scales it, only where select asked for
 * it (next_timer_ns KTIME_MAX where it did not); no early return before
 * predicting, no I/O waiters.
 */
static void test_612(void)
{
	static const unsigned int ten_us[IDLESCOPE_MENU_INTERVALS] = {
		10, 10, 10, 10, 10, 10, 10, 10,
	};
	struct idlescope_state states[3] = {
		{ .polling = 1 },
		{ .exit_latency_ns = 2 * US, .target_residency_ns = 2 * US },
		{ .exit_latency_ns = 10 * US, .target_residency_ns = 20 * US },
	};
	struct reconstruct_stats rs = {};
	struct idlescope_record rec = stock_record();
	struct pipeline pl = {};

	/* spread_us: no typical interval (UINT_MAX); 1 ms x 4101: 501 us. */
	reconstruct_record(&rec, &table, MODEL_MENU612, &rs);
	CHECK_EQ("reconstruct 6.12: no typical interval, the scaled timer", rec.predicted_ns,
		 501 * US);
	/* In state 0 with no PM QoS limit seen: still predicted, on 6.12. */
	rec = stock_record();
	rec.state = 0;
	reconstruct_record(&rec, &table, MODEL_MENU612, &rs);
	check(rec.predicted_ns == 501 * US && !rs.unresolved,
	      "reconstruct 6.12: state 0 without the limit is still rebuilt",
	      "predicted %llu, unresolved %llu", (unsigned long long)rec.predicted_ns,
	      (unsigned long long)rs.unresolved);
	/* Ten 10 us intervals and no timer asked: 10 us, bucket 5 not read. */
	rec = stock_record();
	memcpy(rec.intervals_us, ten_us, sizeof(ten_us));
	rec.next_timer_ns = MODEL_KTIME_MAX;
	rec.bucket = 5;
	reconstruct_record(&rec, &table, MODEL_MENU612, &rs);
	check(rec.predicted_ns == 10 * US && rec.typical_interval_us == 10 &&
	      rec.nr_iowaiters == 0,
	      "reconstruct 6.12: no timer asked: the typical interval, no I/O waiters",
	      "predicted %llu, typical %u", (unsigned long long)rec.predicted_ns,
	      rec.typical_interval_us);

	/* A pipeline of a 6.12 record file rebuilds with 6.12's arithmetic. */
	if (pipeline_init(&pl, states, 3, 250, "6.12.118+deb12-amd64")) {
		check(false, "reconstruct 6.12: the pipeline of a 6.12 file", "no memory");
		return;
	}
	rec = stock_record();
	memcpy(rec.intervals_us, ten_us, sizeof(ten_us));
	rec.next_timer_ns = MODEL_KTIME_MAX;
	pipeline_add(&pl, &rec);
	CHECK_EQ("reconstruct 6.12: the pipeline of a 6.12 file rebuilds 6.12's way",
		 pl.agg ? agg_get(pl.agg, 0, IDLESCOPE_GOV_MENU, 0)->predicted_sum_ns : 0,
		 10 * US);
	pipeline_free(&pl);
}

int main(void)
{
	test_timer_prediction();
	test_typical_interval();
	test_early_return();
	test_not_applicable();
	test_kernel_prediction();
	test_pipeline();
	test_612();
	return check_done();
}
