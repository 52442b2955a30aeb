// SPDX-License-Identifier: GPL-2.0
/*
 * test_scoring - what the aggregate scores per host governor: a shadow
 * model only on periods whose record holds its inputs (never pooled, never
 * fed zeros), and the ideal-state verdict of every period against a known
 * state table.
 */
#include <errno.h>
#include <string.h>
#include "stats/aggregate.h"
#include "models/models.h"
#include "replay/inputs.h"
#include "check.h"
#include "fixtures.h"

static const char *const models[] = {
	"menu2010", "menu2010fix", "menu2010rpd", "menu",
};

/* Shadow s predicts (s + 1) * the actual residency: within 2x only s == 0, 1. */
static void add_with_shadows(struct agg *agg, struct idlescope_record *rec)
{
	int s;

	agg_add(agg, rec);
	for (s = 0; s < 4; s++)
		agg_add_shadow(agg, rec, inputs_of_record(rec), s, (s + 1) * rec->residency_ns, -1);
}

static void test_inputs_per_governor(void)
{
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	const struct agg_stats *st;
	char buf[64];
	int i;

	agg_set_shadows(agg, models, model_input_masks, 4);
	CHECK_EQ("inputs: menu2010 models need next timer, iowaiters, load",
		 agg_shadow_inputs(agg, 1), IDLESCOPE_F_HAS_NEXT_TIMER |
		 IDLESCOPE_F_HAS_IOWAITERS | IDLESCOPE_F_HAS_LOAD);
	inputs_format(buf, sizeof(buf), agg_shadow_inputs(agg, 3));
	check(!strcmp(buf, "next timer, iowaiters, tick wakeup"),
	      "inputs: stock menu's model needs menu's own data", "got \"%s\"", buf);

	/* menu2010 ran 4 periods, teo 3, menu 2, the same workload. */
	for (i = 0; i < 4; i++) {
		rec = make_prediction("w", IDLESCOPE_GOV_MENU2010, 0, 100 * US, 100 * US);
		add_with_shadows(agg, &rec);
	}
	for (i = 0; i < 3; i++) {
		rec = make_record("w", IDLESCOPE_GOV_TEO, 0, 1, 100 * US);
		add_with_shadows(agg, &rec);
	}
	for (i = 0; i < 2; i++) {
		rec = make_prediction("w", IDLESCOPE_GOV_MENU, 0, 100 * US, 100 * US);
		add_with_shadows(agg, &rec);
	}

	st = agg_get(agg, 0, IDLESCOPE_GOV_MENU2010, 0);
	check(st->shadow[0].samples == 4 && st->shadow[1].samples == 4 &&
	      st->shadow[2].samples == 4 && st->shadow[1].within_factor[1] == 4 &&
	      st->shadow[2].within_factor[1] == 0 && st->shadow[2].within_factor[2] == 4,
	      "per governor: 2010 models scored exactly on menu2010's 4 periods",
	      "samples %llu %llu %llu", (unsigned long long)st->shadow[0].samples,
	      (unsigned long long)st->shadow[1].samples,
	      (unsigned long long)st->shadow[2].samples);
	check(st->shadow[3].samples == 0 && st->shadow[3].excluded_samples == 4,
	      "per governor: stock menu's model excluded on menu2010's periods",
	      "samples %llu excluded %llu", (unsigned long long)st->shadow[3].samples,
	      (unsigned long long)st->shadow[3].excluded_samples);

	st = agg_get(agg, 0, IDLESCOPE_GOV_TEO, 0);
	check(st->shadow[0].samples + st->shadow[1].samples + st->shadow[2].samples +
	      st->shadow[3].samples == 0 && st->shadow[0].excluded_samples == 3 &&
	      st->shadow[3].excluded_samples == 3,
	      "per governor: no model is scored on teo's periods (no load, no iowaiters)",
	      "excluded %llu", (unsigned long long)st->shadow[0].excluded_samples);

	st = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 0);
	check(st->shadow[3].samples == 2 && st->shadow[0].samples == 0 &&
	      st->shadow[0].excluded_samples == 2,
	      "per governor: menu's periods score only menu's model",
	      "menu %llu, menu2010 %llu", (unsigned long long)st->shadow[3].samples,
	      (unsigned long long)st->shadow[0].samples);

	/* A BPF side that says what it read is believed over the governor. */
	rec = make_record("w", IDLESCOPE_GOV_TEO, 1, 1, 100 * US);
	rec.flags |= IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_IOWAITERS |
		     IDLESCOPE_F_HAS_LOAD;
	add_with_shadows(agg, &rec);
	st = agg_get(agg, 0, IDLESCOPE_GOV_TEO, 1);
	check(st->shadow[1].samples == 1 && st->shadow[3].excluded_samples == 1,
	      "inputs: HAS_* flags on the record decide when set", "samples %llu",
	      (unsigned long long)st->shadow[1].samples);

	/* menu2010 without the prediction read: no iowaiters either. */
	rec = make_record("w", IDLESCOPE_GOV_MENU2010, 2, 1, 100 * US);
	add_with_shadows(agg, &rec);
	st = agg_get(agg, 0, IDLESCOPE_GOV_MENU2010, 2);
	check(st->shadow[0].samples == 0 && st->shadow[0].excluded_samples == 1,
	      "inputs: menu2010 record without its prediction lacks iowaiters", "samples %llu",
	      (unsigned long long)st->shadow[0].samples);
	agg_free(agg);
}

/*
 * A state table: POLL, C1 (2 us), C2 (20 us, exit 10 us), C3 (600 us,
 * exit 200 us), C4 (800 us) disabled.
 */
static const struct agg_state_info states[] = {
	{ .target_residency_ns = 0, .exit_latency_ns = 0 },
	{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
	{ .target_residency_ns = 20 * US, .exit_latency_ns = 10 * US },
	{ .target_residency_ns = 600 * US, .exit_latency_ns = 200 * US },
	{ .target_residency_ns = 800 * US, .exit_latency_ns = 300 * US, .disabled = true },
};

static void test_ideal_state(void)
{
	static const struct {
		__u64 residency_us;
		int entered;
		__s64 latency_req_ns;
		int ideal;
	} periods[] = {
		{ 1, 0, IDLESCOPE_LATENCY_REQ_UNKNOWN, 0 },	/* hit */
		{ 10, 2, IDLESCOPE_LATENCY_REQ_UNKNOWN, 1 },	/* too deep */
		{ 700, 2, IDLESCOPE_LATENCY_REQ_UNKNOWN, 3 },	/* too shallow */
		{ 900, 3, IDLESCOPE_LATENCY_REQ_UNKNOWN, 3 },	/* hit: C4 disabled */
		{ 900, 3, 50 * US, 2 },				/* too deep for PM QoS */
	};
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	const struct agg_stats *st;
	struct agg_state_info off[2] = {
		{ .target_residency_ns = 0, .disabled = true },
		{ .target_residency_ns = 2 * US },
	};
	struct ci_pct hit;
	bool ideal_ok = true;
	unsigned int i;

	agg_set_states(agg, states, ARRAY_SIZE(states));
	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		ideal_ok &= agg_ideal_state(agg, periods[i].residency_us * US,
					    periods[i].latency_req_ns) == periods[i].ideal;
		rec = make_record("i", IDLESCOPE_GOV_LADDER, 0, periods[i].entered,
				  periods[i].residency_us * US);
		rec.latency_req_ns = periods[i].latency_req_ns;
		rec.flags |= IDLESCOPE_F_SELECT_PROBED;
		agg_add(agg, &rec);
	}
	check(ideal_ok, "ideal: deepest enabled state that fits residency and PM QoS",
	      "a period's ideal state differs");
	rec = make_record("i", IDLESCOPE_GOV_LADDER, 0, 9, 5 * US);
	agg_add(agg, &rec);
	/* A limit the select probe did not read is no limit: C3 is ideal. */
	rec = make_record("i", IDLESCOPE_GOV_LADDER, 1, 3, 900 * US);
	rec.latency_req_ns = 50 * US;
	agg_add(agg, &rec);
	st = agg_get(agg, 0, IDLESCOPE_GOV_LADDER, 1);
	CHECK_EQ("ideal: PM QoS limit used only when the select probe read it",
		 st->ideal_hit_samples, 1);

	st = agg_get(agg, 0, IDLESCOPE_GOV_LADDER, 0);
	check(st->ideal_samples == 5 && st->ideal_hit_samples == 2 &&
	      st->ideal_too_deep_samples == 2 && st->ideal_too_shallow_samples == 1,
	      "ideal: 2 hits, 2 too deep, 1 too shallow of 5 (state 9 not scored)",
	      "samples %llu hit %llu deep %llu shallow %llu",
	      (unsigned long long)st->ideal_samples,
	      (unsigned long long)st->ideal_hit_samples,
	      (unsigned long long)st->ideal_too_deep_samples,
	      (unsigned long long)st->ideal_too_shallow_samples);
	CHECK_EQ("ideal: scored idle time", st->ideal_idle_ns, 2511 * US);
	CHECK_EQ("ideal: idle time in a state shallower than ideal",
		 st->ideal_shallow_idle_ns, 700 * US);
	hit = ci_result(&st->ideal_hit_ci);
	check(hit.pct == 40.0, "ideal: hit share through the interval code", "got %g", hit.pct);

	agg_set_states(agg, off, 2);
	CHECK_EQ_INT("ideal: nothing fits -> the shallowest enabled state",
		     agg_ideal_state(agg, 1 * US, IDLESCOPE_LATENCY_REQ_UNKNOWN), 1);
	off[1].disabled = true;
	agg_set_states(agg, off, 2);
	CHECK_EQ_INT("ideal: no enabled state -> -1",
		     agg_ideal_state(agg, 1 * US, IDLESCOPE_LATENCY_REQ_UNKNOWN), -1);
	agg_free(agg);
}

int main(void)
{
	test_inputs_per_governor();
	test_ideal_state();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
