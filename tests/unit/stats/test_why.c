// SPDX-License-Identifier: GPL-2.0
/*
 * test_why - why the periods missed and what they cost (stats/why.h):
 * the energy of hand-made records under a given power table, exactly; the
 * oracle against every governor state on random periods; the default
 * table's oracle against the ideal state; power table files; wake-up
 * classes, their names and verdicts; the tick decision's verdicts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/aggregate.h"
#include "stats/why.h"
#include "rng.h"
#include "check.h"
#include "fixtures.h"

#define TICK_NS		1000000ULL	/* HZ 1000 */

/* why_add() of a record's raw period. */
static int why_add_record(struct why *why, int workload, const struct idlescope_record *rec,
			  int ideal_state)
{
	struct period p;

	period_of_record(&p, rec, 0, NULL);
	return why_add(why, workload, &p, ideal_state);
}

/* A three-state table, its power: A 1 W, B 100 mW + 5 uJ, C 10 mW + 50.5 uJ. */
static const struct idlescope_state abc_states[] = {
	{ .target_residency_ns = 0, .exit_latency_ns = 0, .polling = 1 },
	{ .target_residency_ns = 10 * US, .exit_latency_ns = 5 * US },
	{ .target_residency_ns = 100 * US, .exit_latency_ns = 50 * US },
};

static const char abc_power[] =
	"# a hand-made table\n"
	"A 1000 0\n"
	"B  100 5     # mW, uJ\n"
	"\n"
	"C 10 50.5\n";

static struct why *abc_why(void)
{
	struct why *why = why_new();
	struct power_table pt;
	char err[128];

	why_set_states(why, abc_states, 3, 1000);
	if (power_table_parse(abc_power, &pt, err, sizeof(err)) || why_set_power(why, &pt))
		printf("# abc table: %s\n", err);
	return why;
}

static void add(struct why *why, int state, __u64 residency_ns)
{
	struct idlescope_record rec = make_record("w", IDLESCOPE_GOV_MENU, 0, state, residency_ns);

	why_add_record(why, 0, &rec, -1);
}

/*
 * Four periods, energies worked out by hand in fJ (uW x ns):
 *   A  20 us: 10^6 x 20000            = 2.0e10; cheapest B: 7.0e9
 *   B  50 us: 10^5 x 50000 + 5e9      = 1.0e10; cheapest B
 *   C 1000 us: 10^4 x 10^6 + 5.05e10  = 6.05e10; cheapest C
 *   C  30 us: 10^4 x 30000 + 5.05e10  = 5.08e10; cheapest B: 8.0e9
 */
static void test_exact_energy(void)
{
	struct why *why = abc_why();
	struct why_stats ws;

	add(why, 0, 20 * US);
	add(why, 1, 50 * US);
	add(why, 2, 1000 * US);
	add(why, 2, 30 * US);
	why_sum(why, -1, -1, -1, &ws);
	CHECK_EQ("energy: a hand-made sequence costs exactly 141.3 uJ",
		 (__u64)ws.energy.energy_fj, 141300000000ULL);
	CHECK_EQ("energy: ... and the oracle's choices exactly 85.5 uJ",
		 (__u64)ws.energy.oracle_fj, 85500000000ULL);
	CHECK_EQ("energy: ... exit latency paid 105 us, the oracle 65 us",
		 ws.energy.exit_latency_ns * 1000 + ws.energy.oracle_exit_latency_ns / 1000,
		 105000ULL * 1000 + 65);
	check(ws.energy.shallower == 1 && ws.energy.deeper == 1 &&
	      ws.energy.shallow_ns == 20 * US && ws.energy.idle_ns == 1100 * US,
	      "energy: ... one period shallower (20 us of idle time), one deeper",
	      "shallower %llu deeper %llu shallow_ns %llu idle_ns %llu",
	      (unsigned long long)ws.energy.shallower, (unsigned long long)ws.energy.deeper,
	      (unsigned long long)ws.energy.shallow_ns, (unsigned long long)ws.energy.idle_ns);
	why_free(why);
}

/* A random table and random periods: no governor state beats the oracle's. */
static void test_oracle_never_more(void)
{
	struct idlescope_state states[IDLESCOPE_MAX_STATES] = {};
	struct idlescope_record rec;
	struct power_table pt = {};
	__u64 gov_fj = 0, worse = 0, not_min = 0;
	struct why *why = why_new();
	struct why_stats ws;
	struct rng rng;
	energy_fj_t fj, best;
	int i, s, nr = 6, oracle;

	rng_seed(&rng, 29);
	pt.nr_states = nr;
	for (s = 0; s < nr; s++) {
		states[s].exit_latency_ns = s * rng_range(&rng, 1, 300) * US;
		states[s].target_residency_ns = states[s].exit_latency_ns * 2;
		states[s].disabled = s == 3;
		pt.states[s].power_uw = rng_range(&rng, 0, 2000000);
		pt.states[s].exit_energy_fj = rng_range(&rng, 0, 200) * 1000000000ULL;
	}
	why_set_states(why, states, nr, 1000);
	why_set_power(why, &pt);
	for (i = 0; i < 20000; i++) {
		s = rng_range(&rng, 0, nr - 1);
		rec = make_record("w", 1 + i % (IDLESCOPE_NR_GOVERNORS - 1), i % 2, s,
				  rng_range(&rng, 0, 20000) * US);
		if (i % 3) {
			rec.flags |= IDLESCOPE_F_SELECT_PROBED;
			rec.latency_req_ns = rng_range(&rng, 0, 3) ?
					     (__s64)(rng_range(&rng, 0, 900) * US) :
					     IDLESCOPE_LATENCY_REQ_UNKNOWN;
		}
		fj = energy_of_period_fj(&pt.states[s], rec.residency_ns);
		oracle = energy_oracle_state(&pt, states, nr, rec.residency_ns,
					     rec.flags & IDLESCOPE_F_SELECT_PROBED ?
					     rec.latency_req_ns : IDLESCOPE_LATENCY_REQ_UNKNOWN);
		/* The oracle's state against every state it may pick. */
		for (best = ~(energy_fj_t)0, s = 0; s < nr; s++)
			if (!states[s].disabled && (!(rec.flags & IDLESCOPE_F_SELECT_PROBED) ||
						    rec.latency_req_ns == IDLESCOPE_LATENCY_REQ_UNKNOWN ||
						    (__s64)states[s].exit_latency_ns <= rec.latency_req_ns) &&
			    energy_of_period_fj(&pt.states[s], rec.residency_ns) < best)
				best = energy_of_period_fj(&pt.states[s], rec.residency_ns);
		not_min += oracle >= 0 &&
			   energy_of_period_fj(&pt.states[oracle], rec.residency_ns) != best;
		why_add_record(why, 0, &rec, -1);
		gov_fj += fj;
		why_sum(why, 0, rec.governor, rec.cpu, &ws);
		worse += ws.energy.oracle_fj > ws.energy.energy_fj;
	}
	CHECK_EQ("energy: the oracle picks the cheapest allowed state of 20000 random periods",
		 not_min, 0);
	CHECK_EQ("energy: ... and never spends more than any governor, key by key", worse, 0);
	why_sum(why, -1, -1, -1, &ws);
	check(ws.energy.energy_fj == gov_fj && ws.energy.oracle_fj <= ws.energy.energy_fj &&
	      ws.energy.periods == 20000,
	      "energy: ... nor in all, and every period is priced", "periods %llu",
	      (unsigned long long)ws.energy.periods);
	why_free(why);
}

/* POLL and the Skylake states as idlescope_states_table.h has them. */
static int skylake_states(struct idlescope_state *states)
{
	static const unsigned int exit_target_us[][2] = {
		{ 2, 2 }, { 10, 20 }, { 70, 100 }, { 85, 200 }, { 124, 800 }, { 200, 800 },
		{ 480, 5000 }, { 890, 5000 },
	};
	unsigned int i;

	memset(states, 0, sizeof(*states) * IDLESCOPE_MAX_STATES);
	states[0].polling = 1;
	for (i = 0; i < ARRAY_SIZE(exit_target_us); i++) {
		states[1 + i].exit_latency_ns = exit_target_us[i][0] * US;
		states[1 + i].target_residency_ns = exit_target_us[i][1] * US;
	}
	return 1 + ARRAY_SIZE(exit_target_us);
}

static void test_default_table(void)
{
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	struct agg_state_info info[IDLESCOPE_MAX_STATES] = {};
	int nr = skylake_states(states), i, differ = 0;
	struct agg *agg = agg_new();
	struct power_table pt;
	__u64 r;

	check(power_table_default(states, nr, &pt) && pt.nr_states == nr &&
	      !strcmp(pt.states[2].name, "C1E"),
	      "power table: the default fits the Skylake states", "nr %d", pt.nr_states);
	states[4].exit_latency_ns++;
	check(!power_table_default(states, nr, &pt) && !pt.nr_states,
	      "power table: ... and no other state table", "nr %d", pt.nr_states);
	states[4].exit_latency_ns--;
	power_table_default(states, nr, &pt);
	for (i = 0; i < nr; i++) {
		info[i].target_residency_ns = states[i].target_residency_ns;
		info[i].exit_latency_ns = states[i].exit_latency_ns;
	}
	agg_set_states(agg, info, nr);
	/* Every microsecond to 6 ms, and each target residency exactly. */
	for (r = 0; r <= 6000 * US; r += US)
		differ += energy_oracle_state(&pt, states, nr, r, IDLESCOPE_LATENCY_REQ_UNKNOWN) !=
			  agg_ideal_state(agg, r, IDLESCOPE_LATENCY_REQ_UNKNOWN);
	CHECK_EQ("power table: the default's oracle is the ideal state, 0 to 6 ms", differ, 0);
	agg_free(agg);
}

static void test_power_files(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "A 1\n", "line 1: expected NAME POWER_MW EXIT_ENERGY_UJ" },
		{ "A 1 2\nB 1 2 3\n", "line 2: expected NAME POWER_MW EXIT_ENERGY_UJ" },
		{ "A -1 2\n", "line 1: power (mW) is not a number from 0 to 100000 with at most 3 decimals" },
		{ "A 1.0001 2\n", "line 1: power (mW) is not a number from 0 to 100000 with at most 3 decimals" },
		{ "A 1 1e3\n", "line 1: exit energy (uJ) is not a number from 0 to 1000000 with at most 9 decimals" },
		{ "# nothing\n", "no state" },
	};
	struct power_table pt;
	char err[160];
	unsigned int i, ok = 0;
	struct why *why = why_new();

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ok += power_table_parse(bad[i].text, &pt, err, sizeof(err)) == -EINVAL &&
		      !strcmp(err, bad[i].why) && !pt.nr_states;
		if (strcmp(err, bad[i].why))
			printf("# '%s': %s\n", bad[i].text, err);
	}
	CHECK_EQ("power table: each bad file is refused with its line and reason", ok,
		 ARRAY_SIZE(bad));
	check(!power_table_parse("X 0.001 0.000000001\n", &pt, err, sizeof(err)) &&
	      pt.states[0].power_uw == 1 && pt.states[0].exit_energy_fj == 1,
	      "power table: 3 decimals of mW and 9 of uJ are read exactly", "%s", err);
	why_set_states(why, abc_states, 3, 1000);
	power_table_parse("A 1 1\nB 1 1\n", &pt, err, sizeof(err));
	CHECK_EQ_INT("power table: one of another number of states is refused",
		     why_set_power(why, &pt), -EINVAL);
	why_free(why);
}

static int resolves;

static int resolve(void *ctx, __u32 kind, __u64 value, char *name, size_t size)
{
	resolves++;
	if (kind == WAKE_NAME_FUNCTION && value == 0x1000) {
		snprintf(name, size, "hrtimer_wakeup");
		return 0;
	}
	return -ENOENT;
}

static struct idlescope_record woken(int source, __u64 fn, __u32 irq, int state)
{
	struct idlescope_record rec = make_record("w", IDLESCOPE_GOV_TEO, 0, state, 50 * US);

	rec.flags |= IDLESCOPE_F_HAS_WAKE | IDLESCOPE_F_WAKE_RESCHED;
	rec.wake_source = source;
	rec.wake_fn = fn;
	rec.wake_irq = irq;
	return rec;
}

static void test_wake_classes(void)
{
	static const char *const want[] = {
		"hrtimer hrtimer_wakeup", "hrtimer 0x2000", "tick", "ipi call_function_single",
		"irq 4 ttyS0", "irq 11", "polled (no IPI)", "poll limit", "unknown",
	};
	struct wake_names names = {};
	struct idlescope_record recs[] = {
		woken(IDLESCOPE_WAKE_HRTIMER, 0x1000, 0, 1),
		woken(IDLESCOPE_WAKE_HRTIMER, 0x1000, 0, 1),
		woken(IDLESCOPE_WAKE_HRTIMER, 0x2000, 0, 1),
		woken(IDLESCOPE_WAKE_TICK, 0x3000, 0, 1),
		woken(IDLESCOPE_WAKE_IPI, 0, IDLESCOPE_IPI_CALL_FUNCTION_SINGLE, 1),
		woken(IDLESCOPE_WAKE_IRQ, 0, 4, 1),
		woken(IDLESCOPE_WAKE_IRQ, 0, 11, 1),
		woken(IDLESCOPE_WAKE_NO_IPI, 0, 0, 0),
		woken(IDLESCOPE_WAKE_UNKNOWN, 0, 0, 0),
		woken(IDLESCOPE_WAKE_UNKNOWN, 0, 0, 1),
	};
	struct why *why = why_new();
	char label[WAKE_LABEL_LEN + WAKE_NAME_LEN], got[512] = "";
	struct idlescope_record plain = make_record("w", IDLESCOPE_GOV_TEO, 0, 1, 10 * US);
	struct why_stats ws;
	unsigned int i;

	recs[8].flags |= IDLESCOPE_F_POLL_LIMIT;	/* in POLL: its time limit */
	wake_names_add(&names, WAKE_NAME_IRQ, 4, "ttyS0");
	why_set_states(why, abc_states, 3, 1000);
	why_set_names(why, &names);
	why_set_resolver(why, resolve, NULL);
	for (i = 0; i < ARRAY_SIZE(recs); i++)
		why_add_record(why, 0, &recs[i], -1);
	why_add_record(why, 0, &plain, -1);
	for (i = 0; i < (unsigned int)why_nr_classes(why); i++) {
		wake_class_label(why_class(why, i), label, sizeof(label));
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? "|" : "", label);
	}
	for (i = 0; i < ARRAY_SIZE(want) && i < (unsigned int)why_nr_classes(why); i++) {
		wake_class_label(why_class(why, i), label, sizeof(label));
		if (strcmp(label, want[i]))
			break;
	}
	check(i == ARRAY_SIZE(want) && why_nr_classes(why) == (int)ARRAY_SIZE(want),
	      "wake-up: each source, IPI, IRQ and function is a class, named", "%s", got);
	/* 0x1000 once, 0x2000 once, IRQ 11 once; IRQ 4 was named already. */
	CHECK_EQ("wake-up: the resolver is asked once per unnamed number", resolves, 3);
	why_sum(why, -1, -1, -1, &ws);
	check(ws.periods == 11 && ws.wake_known == 10 && ws.cls[0].periods == 2 &&
	      ws.hits == 4 && ws.intercepts == 4,
	      "wake-up: timers are hits, IPIs, devices and polled wake-ups intercepts",
	      "periods %llu known %llu hits %llu intercepts %llu",
	      (unsigned long long)ws.periods, (unsigned long long)ws.wake_known,
	      (unsigned long long)ws.hits, (unsigned long long)ws.intercepts);
	why_free(why);
}

/* Scores by class: predictions within 2x and the ideal state, per class. */
static void test_class_scores(void)
{
	struct why *why = why_new();
	struct idlescope_record rec;
	struct why_stats ws;
	int i;

	why_set_states(why, abc_states, 3, 1000);
	for (i = 0; i < 8; i++) {
		rec = woken(i < 4 ? IDLESCOPE_WAKE_TICK : IDLESCOPE_WAKE_IPI, 0,
			    IDLESCOPE_IPI_RESCHEDULE, 1);
		rec.flags |= IDLESCOPE_F_PREDICTED;
		/* tick: 3 of 4 within 2x; IPI: 1 of 4. */
		rec.predicted_ns = (i < 4 ? i < 3 : i == 4) ? 60 * US : 500 * US;
		why_add_record(why, 0, &rec, i % 2 ? 1 : 2);
	}
	why_sum(why, 0, IDLESCOPE_GOV_TEO, 0, &ws);
	check(ws.cls[0].predicted == 4 && ws.cls[0].within_2x == 3 && ws.cls[1].within_2x == 1,
	      "wake-up: within 2x is counted per class",
	      "tick %llu of %llu, ipi %llu", (unsigned long long)ws.cls[0].within_2x,
	      (unsigned long long)ws.cls[0].predicted, (unsigned long long)ws.cls[1].within_2x);
	check(ws.cls[0].ideal_hit == 2 && ws.cls[0].too_shallow == 2 && ws.cls[1].ideal_scored == 4,
	      "wake-up: ... and the ideal state", "hit %llu shallow %llu",
	      (unsigned long long)ws.cls[0].ideal_hit, (unsigned long long)ws.cls[0].too_shallow);
	why_free(why);
}

static struct idlescope_record tick_rec(bool stop, __u64 enter_ns, __u64 residency_ns,
					int source, bool resched)
{
	struct idlescope_record rec = make_record("w", IDLESCOPE_GOV_MENU, 1, 1, residency_ns);

	rec.enter_ns = enter_ns;
	rec.flags |= IDLESCOPE_F_SELECT_PROBED | IDLESCOPE_F_HAS_WAKE |
		     (stop ? IDLESCOPE_F_STOP_TICK : 0) | (resched ? IDLESCOPE_F_WAKE_RESCHED : 0);
	rec.wake_source = source;
	return rec;
}

static void test_tick(void)
{
	struct idlescope_record recs[] = {
		/* stopped, 5.2 ms + 700 us ends before 6 ms: for nothing */
		tick_rec(true, 5200 * US, 700 * US, IDLESCOPE_WAKE_IPI, true),
		/* stopped, ends at 6.1 ms: past the tick */
		tick_rec(true, 5200 * US, 900 * US, IDLESCOPE_WAKE_HRTIMER, true),
		/* stopped, ends exactly at the tick: not before it */
		tick_rec(true, 5200 * US, 800 * US, IDLESCOPE_WAKE_HRTIMER, true),
		/* kept, the tick woke it, nothing to run: needless */
		tick_rec(false, 5200 * US, 800 * US, IDLESCOPE_WAKE_TICK, false),
		/* kept, the tick woke a task: not needless */
		tick_rec(false, 6000 * US, 1000 * US, IDLESCOPE_WAKE_TICK, true),
		/* kept, an hrtimer first */
		tick_rec(false, 6000 * US, 300 * US, IDLESCOPE_WAKE_HRTIMER, true),
	};
	struct idlescope_record no_probe = recs[0], no_wake = recs[3];
	struct why *why = why_new();
	struct why_stats ws;
	unsigned int i;

	no_probe.flags &= ~IDLESCOPE_F_SELECT_PROBED;
	no_wake.flags &= ~IDLESCOPE_F_HAS_WAKE;
	CHECK_EQ("tick: the next tick after 5.2 ms is 6 ms", tick_next_ns(5200 * US, TICK_NS),
		 6000 * US);
	CHECK_EQ("tick: ... and after 6 ms, 7 ms", tick_next_ns(6000 * US, TICK_NS), 7000 * US);
	why_set_states(why, abc_states, 3, 1000);
	for (i = 0; i < ARRAY_SIZE(recs); i++)
		why_add_record(why, 0, &recs[i], -1);
	why_add_record(why, 0, &no_probe, -1);
	why_add_record(why, 0, &no_wake, -1);
	why_sum(why, -1, -1, -1, &ws);
	check(ws.tick.stopped == 3 && ws.tick.stopped_short == 1 && ws.tick.kept == 3 &&
	      ws.tick.kept_needless == 1 && ws.tick.kept_unknown == 1,
	      "tick: stopped for nothing, paid off, needless, fine, unknown",
	      "stopped %llu short %llu kept %llu needless %llu unknown %llu",
	      (unsigned long long)ws.tick.stopped, (unsigned long long)ws.tick.stopped_short,
	      (unsigned long long)ws.tick.kept, (unsigned long long)ws.tick.kept_needless,
	      (unsigned long long)ws.tick.kept_unknown);
	why_free(why);
}

/* The aggregate feeds its store: the same periods, the ideal state it scored. */
static void test_fed_by_agg(void)
{
	struct agg_state_info info[3] = {
		{ 0, 0, false }, { 10 * US, 5 * US, false }, { 100 * US, 50 * US, false },
	};
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	struct why_stats ws;

	agg_set_states(agg, info, 3);
	why_set_states(agg_why(agg), abc_states, 3, 1000);
	rec = woken(IDLESCOPE_WAKE_IPI, 0, IDLESCOPE_IPI_RESCHEDULE, 1);
	rec.residency_ns = 500 * US;	/* ideal: state 2, entered 1 */
	agg_add(agg, &rec);
	why_sum(agg_why(agg), agg_workload_index(agg, "w"), IDLESCOPE_GOV_TEO, 0, &ws);
	check(ws.periods == 1 && ws.cls[0].too_shallow == 1,
	      "wake-up: agg_add() feeds the store with its ideal state", "periods %llu shallow %llu",
	      (unsigned long long)ws.periods, (unsigned long long)ws.cls[0].too_shallow);
	agg_free(agg);
}

/*
 * Two files' aggregates merged as a report of several boots merges them:
 * the same classes first seen in the other order, the same workloads
 * interned in the other order, land on one class and one workload each.
 */
static void test_merge(void)
{
	struct agg *a = agg_new(), *b = agg_new(), *sum = agg_new();
	struct idlescope_record ipi = woken(IDLESCOPE_WAKE_IPI, 0, IDLESCOPE_IPI_RESCHEDULE, 1);
	struct idlescope_record tick = woken(IDLESCOPE_WAKE_TICK, 0, 0, 1);
	struct idlescope_record x_ipi = ipi, x_tick = tick;
	char label[2][WAKE_LABEL_LEN + WAKE_NAME_LEN];
	struct why_stats ws;
	int w, i;

	memcpy(x_ipi.workload, "x", 2);
	memcpy(x_tick.workload, "x", 2);
	/* a: w's ticks, then x's IPIs; b: x's IPIs and ticks, then w's IPIs. */
	agg_add(a, &tick);
	agg_add(a, &tick);
	agg_add(a, &x_ipi);
	agg_add(b, &x_ipi);
	agg_add(b, &x_tick);
	agg_add(b, &ipi);
	check(!agg_merge(sum, a) && !agg_merge(sum, b), "wake-up: aggregates merge", "-");
	for (i = 0; i < 2; i++)
		wake_class_label(why_class(agg_why(sum), i), label[i], sizeof(label[i]));
	check(why_nr_classes(agg_why(sum)) == 2 && !strcmp(label[0], "tick") &&
	      !strcmp(label[1], "ipi reschedule"),
	      "wake-up: a merge keeps one class per source, as first seen", "%d: %s, %s",
	      why_nr_classes(agg_why(sum)), label[0], label[1]);
	w = agg_workload_index(sum, "w");
	why_sum(agg_why(sum), w, -1, -1, &ws);
	check(ws.periods == 3 && ws.cls[0].periods == 2 && ws.cls[1].periods == 1,
	      "wake-up: ... each period on its own workload and class",
	      "w: %llu periods, tick %llu, ipi %llu", (unsigned long long)ws.periods,
	      (unsigned long long)ws.cls[0].periods, (unsigned long long)ws.cls[1].periods);
	why_sum(agg_why(sum), agg_workload_index(sum, "x"), -1, -1, &ws);
	check(ws.periods == 3 && ws.cls[0].periods == 1 && ws.cls[1].periods == 2,
	      "wake-up: ... for the other workload too",
	      "x: %llu periods, tick %llu, ipi %llu", (unsigned long long)ws.periods,
	      (unsigned long long)ws.cls[0].periods, (unsigned long long)ws.cls[1].periods);
	agg_free(a);
	agg_free(b);
	agg_free(sum);
}

int main(void)
{
	test_exact_energy();
	test_oracle_never_more();
	test_default_table();
	test_power_files();
	test_wake_classes();
	test_class_scores();
	test_tick();
	test_fed_by_agg();
	test_merge();
	return check_done();
}
