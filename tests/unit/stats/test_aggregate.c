// SPDX-License-Identifier: GPL-2.0
/*
 * test_aggregate.c - host unit tests of loader/stats/aggregate.c (with its
 * shadows, stats/shadows.c): the log2 and ratio buckets, the factor table,
 * keys and limits, merging, the shadow models' scores and the cross-check
 * of chosen states.  No BPF, no kernel: records are made by hand and every
 * expectation below is computed by hand, so each check reads as a line of
 * the specification.  What the reports print of an aggregate is
 * tests/unit/report/test_report.c.
 *
 * Built by `make build/tests/test_aggregate`, run by
 * tests/unit/stats/aggregate.sh.  Output: one "PASS: <name>" or
 * "FAIL: <name> (<why>)" line per check, then the plan (check.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/aggregate.h"
#include "models/models.h"
#include "replay/inputs.h"
#include "check.h"
#include "fixtures.h"
#include "governors.h"

/* ---- log2 buckets --------------------------------------------------- */

static void test_log2_buckets(void)
{
	char name[64];
	int k;

	CHECK_EQ_INT("log2 bucket: 0 -> bucket 0", agg_log2_bucket(0), 0);
	CHECK_EQ_INT("log2 bucket: 1 -> bucket 0 (libbpf-tools: 0 and 1 share it)",
		     agg_log2_bucket(1), 0);
	CHECK_EQ_INT("log2 bucket: 2 -> bucket 1", agg_log2_bucket(2), 1);
	CHECK_EQ_INT("log2 bucket: 3 -> bucket 1", agg_log2_bucket(3), 1);
	CHECK_EQ_INT("log2 bucket: 4 -> bucket 2", agg_log2_bucket(4), 2);
	CHECK_EQ_INT("log2 bucket: 7 -> bucket 2", agg_log2_bucket(7), 2);
	CHECK_EQ_INT("log2 bucket: 1023 -> bucket 9", agg_log2_bucket(1023), 9);
	CHECK_EQ_INT("log2 bucket: 1024 -> bucket 10", agg_log2_bucket(1024), 10);
	for (k = 2; k <= 63; k += 10) {
		snprintf(name, sizeof(name), "log2 bucket: 2^%d-1 -> %d, 2^%d -> %d",
			 k, k - 1, k, k);
		check(agg_log2_bucket((1ULL << k) - 1) == k - 1 &&
		      agg_log2_bucket(1ULL << k) == k, name, "got %d and %d",
		      agg_log2_bucket((1ULL << k) - 1),
		      agg_log2_bucket(1ULL << k));
	}
	CHECK_EQ_INT("log2 bucket: 2^64-1 -> bucket 63 (the last slot)",
		     agg_log2_bucket(UINT64_MAX), AGG_LOG2_SLOTS - 1);
}

/* ---- the factor table ---------------------------------------------- */

static void test_factor_boundaries(void)
{
	char name[128];
	int i;

	for (i = 0; i < AGG_NR_FACTORS; i++) {
		const struct agg_factor *f = &agg_factors[i];
		/* a is a multiple of den, so F * a is a whole number of ns */
		__u64 a = 2000 * f->den, fa = a * f->num / f->den;

		snprintf(name, sizeof(name),
			 "factor %s: p = F*a counts, p = F*a + 1 ns does not", f->label);
		check(agg_within_factor(fa, a, f) && !agg_within_factor(fa + 1, a, f),
		      name, "p=%llu a=%llu", (unsigned long long)fa,
		      (unsigned long long)a);
		snprintf(name, sizeof(name),
			 "factor %s: a = F*p counts, a = F*p + 1 ns does not (symmetric)",
			 f->label);
		check(agg_within_factor(a, fa, f) && !agg_within_factor(a, fa + 1, f),
		      name, "p=%llu a=%llu", (unsigned long long)a,
		      (unsigned long long)fa);
		snprintf(name, sizeof(name),
			 "factor %s: p = 0 < a and a = 0 < p are misses, p = a = 0 a hit",
			 f->label);
		check(!agg_within_factor(0, 5, f) && !agg_within_factor(5, 0, f) &&
		      agg_within_factor(0, 0, f), name, "wrong zero handling");
	}

	/* 100 * a near 2^64: exact without overflow. */
	check(agg_within_factor(100 * (UINT64_MAX / 100), UINT64_MAX / 100,
				&agg_factors[4]) &&
	      !agg_within_factor(100 * (UINT64_MAX / 100) + 1, UINT64_MAX / 100,
				 &agg_factors[4]),
	      "factor 100x: exact near 2^64 (no overflow)", "wrong result");
	check(agg_factors[0].num == 3 && agg_factors[0].den == 2 &&
	      !strcmp(agg_factors[0].label, "1.5x") &&
	      !strcmp(agg_factors[4].label, "100x"),
	      "factor table: 1.5x is 3/2, last is 100x", "table changed");
}

static void test_ratio_buckets(void)
{
#define RATIO_K(p, a)	(agg_ratio_bucket((p), (a)) + AGG_RATIO_LOG2_MIN)
	CHECK_EQ_INT("ratio bucket: p = a -> k 0", RATIO_K(1000, 1000), 0);
	CHECK_EQ_INT("ratio bucket: p = 2a - 1 -> k 0", RATIO_K(1999, 1000), 0);
	CHECK_EQ_INT("ratio bucket: p = 2a -> k 1", RATIO_K(2000, 1000), 1);
	CHECK_EQ_INT("ratio bucket: p = a/2 exactly -> k -1", RATIO_K(1000, 2000), -1);
	CHECK_EQ_INT("ratio bucket: p = a - 1 -> k -1", RATIO_K(1999, 2000), -1);
	CHECK_EQ_INT("ratio bucket: p = a/2 - 1 -> k -2", RATIO_K(999, 2000), -2);
	CHECK_EQ_INT("ratio bucket: p/a = 2^-16 -> k -16", RATIO_K(1, 65536), -16);
	CHECK_EQ_INT("ratio bucket: p/a < 2^-16 clamps to -16", RATIO_K(1, 1 << 20), -16);
	CHECK_EQ_INT("ratio bucket: p/a = 2^16 -> k 16", RATIO_K(65536, 1), 16);
	CHECK_EQ_INT("ratio bucket: p/a = 2^17 clamps to 16", RATIO_K(131072, 1), 16);
	CHECK_EQ_INT("ratio bucket: p = 0 < a -> lowest (-16)", RATIO_K(0, 5), -16);
	CHECK_EQ_INT("ratio bucket: a = 0 < p -> highest (16)", RATIO_K(5, 0), 16);
	CHECK_EQ_INT("ratio bucket: p = a = 0 -> k 0", RATIO_K(0, 0), 0);
	CHECK_EQ_INT("ratio bucket: 2^64-1 / 1 clamps to 16", RATIO_K(UINT64_MAX, 1), 16);
	CHECK_EQ_INT("ratio bucket: 1 / 2^64-1 clamps to -16", RATIO_K(1, UINT64_MAX), -16);
#undef RATIO_K
}

/* ---- aggregation ----------------------------------------------------- */

static void test_prediction_counting(void)
{
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	const struct agg_stats *st;

	/*
	 * Flag set, value known: counted, a 0 ns prediction too (within no
	 * factor, the lowest ratio).  Flag set but UNKNOWN (not read, or patch
	 * 0004's U64_MAX: select returned before predicting), or value
	 * present without the flag: not a prediction.
	 */
	rec = make_prediction("w", IDLESCOPE_GOV_MENU, 0, 1500 * US, 1000 * US);
	agg_add(agg, &rec);
	rec = make_prediction("w", IDLESCOPE_GOV_MENU, 0, IDLESCOPE_UNKNOWN_NS, 1000 * US);
	agg_add(agg, &rec);
	rec = make_prediction("w", IDLESCOPE_GOV_MENU, 0, 0, 1000 * US);
	agg_add(agg, &rec);
	rec = make_record("w", IDLESCOPE_GOV_MENU, 0, 1, 1000 * US);
	rec.predicted_ns = 1000 * US;
	agg_add(agg, &rec);

	st = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 0);
	check(st && st->samples == 4 && st->predicted_samples == 2 &&
	      st->within_factor[0] == 1 && st->predicted_sum_ns == 1500 * US &&
	      st->ratio_hist[0] == 1 && st->predicted_us_hist[0] == 1,
	      /* the name is from when 0 was "no prediction": 0 ns counts now */
	      "predictions: only IDLESCOPE_F_PREDICTED with a value other than UNKNOWN and 0 count",
	      "samples %llu predicted %llu", st ? (unsigned long long)st->samples : 0,
	      st ? (unsigned long long)st->predicted_samples : 0);
	check(st && st->predicted_us_hist[10] == 1 &&	/* 1500 us: [1024, 2047] */
	      st->ratio_hist[0 - AGG_RATIO_LOG2_MIN] == 1 &&
	      st->residency_us_hist[9] == 4,		/* 1000 us: [512, 1023] */
	      "predictions: histograms bucket us values (1000 us -> 512..1023, 1500 us -> 1024..2047)",
	      "wrong buckets");
	agg_free(agg);
}

static void test_keys_and_limits(void)
{
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	char name[IDLESCOPE_WORKLOAD_LEN + 1];
	int i, err = 0;

	rec = make_record("x", IDLESCOPE_GOV_MENU, IDLESCOPE_MAX_CPUS, 0, 1);
	CHECK_EQ_INT("agg_add: cpu >= IDLESCOPE_MAX_CPUS -> -ERANGE", agg_add(agg, &rec), -ERANGE);
	rec = make_record("x", IDLESCOPE_NR_GOVERNORS, 0, 0, 1);
	CHECK_EQ_INT("agg_add: unknown governor -> -EINVAL", agg_add(agg, &rec), -EINVAL);

	for (i = 0; i < AGG_MAX_WORKLOADS && !err; i++) {
		snprintf(name, sizeof(name), "w%d", i);
		rec = make_record(name, IDLESCOPE_GOV_TEO, 0, 0, 1);
		err = agg_add(agg, &rec);
	}
	CHECK_EQ_INT("agg_add: AGG_MAX_WORKLOADS workloads fit", err, 0);
	rec = make_record("one-too-many", IDLESCOPE_GOV_TEO, 0, 0, 1);
	CHECK_EQ_INT("agg_add: a new workload beyond capacity -> -ENOSPC",
		     agg_add(agg, &rec), -ENOSPC);
	rec = make_record("w3", IDLESCOPE_GOV_TEO, 1, 0, 1);
	CHECK_EQ_INT("agg_add: a known workload still fits when the table is full",
		     agg_add(agg, &rec), 0);
	CHECK_EQ("agg_rejected_records counts every refused record",
		 agg_rejected_records(agg), 3);

	/* A tag using all 16 bytes has no NUL in the record. */
	agg_free(agg);
	agg = agg_new();
	rec = make_record("", IDLESCOPE_GOV_MENU, 0, 0, 1);
	memcpy(rec.workload, "sixteen-chars-ab", IDLESCOPE_WORKLOAD_LEN);
	agg_add(agg, &rec);
	check(agg_workload_name(agg, 0) &&
	      !strcmp(agg_workload_name(agg, 0), "sixteen-chars-ab"),
	      "workload: a 16-byte tag without NUL becomes a 16-char name",
	      "got %s", agg_workload_name(agg, 0));
	CHECK_EQ_INT("workload: agg_workload_index finds it",
		     agg_workload_index(agg, "sixteen-chars-ab"), 0);

	check(!strcmp(governor_name(IDLESCOPE_GOV_MENU2010RPD), "menu2010rpd") &&
	      !strcmp(governor_name(IDLESCOPE_GOV_NONE), "none") &&
	      !strcmp(governor_name(99), "unknown") &&
	      governor_id("menu2010fix") == IDLESCOPE_GOV_MENU2010FIX &&
	      governor_id("haltpoll") == -1,
	      "governor names: id <-> name, unknown ids and names", "mismatch");
	agg_free(agg);
}

static void test_merge(void)
{
	struct agg *agg = agg_new();
	const __u64 cpu0_us[] = { 1, 3, 5 }, cpu1_us[] = { 5, 100 };
	const struct agg_stats *s0, *s1, *st;
	struct idlescope_record rec;
	struct agg_stats all, manual;
	struct agg_key key = { .workload = -1 };
	unsigned int i;
	int nr;

	for (i = 0; i < 3; i++) {
		rec = make_prediction("p", IDLESCOPE_GOV_MENU, 0, 2 * cpu0_us[i] * US,
				      cpu0_us[i] * US);
		agg_add(agg, &rec);
	}
	for (i = 0; i < 2; i++) {
		rec = make_record("p", IDLESCOPE_GOV_MENU, 1, 2, cpu1_us[i] * US);
		agg_add(agg, &rec);
	}
	/* Other keys that must not leak into (p, menu). */
	rec = make_record("p", IDLESCOPE_GOV_TEO, 0, 0, 7 * US);
	agg_add(agg, &rec);
	rec = make_record("q", IDLESCOPE_GOV_MENU, 0, 0, 7 * US);
	agg_add(agg, &rec);

	nr = agg_sum(agg, 0, IDLESCOPE_GOV_MENU, AGG_ANY, &all);
	CHECK_EQ_INT("merge: (p, menu) has 2 CPUs", nr, 2);
	check(all.samples == 5 && all.predicted_samples == 3 &&
	      all.residency_min_ns == 1 * US && all.residency_max_ns == 100 * US &&
	      all.residency_sum_ns == (1 + 3 + 5 + 5 + 100) * US,
	      "merge: counts add, min/max over CPUs (1 us, 100 us, sum 114 us)",
	      "samples %llu min %llu max %llu", (unsigned long long)all.samples,
	      (unsigned long long)all.residency_min_ns,
	      (unsigned long long)all.residency_max_ns);
	/* 1 -> [0,1], 3 -> [2,3], 5, 5 -> [4,7], 100 -> [64,127] */
	check(all.residency_us_hist[0] == 1 && all.residency_us_hist[1] == 1 &&
	      all.residency_us_hist[2] == 2 && all.residency_us_hist[6] == 1 &&
	      agg_highest_bucket(all.residency_us_hist, AGG_LOG2_SLOTS) == 6,
	      "merge: all-CPUs residency histogram is the per-CPU sum", "wrong buckets");
	check(all.state_entered[1] == 3 && all.state_entered[2] == 2 &&
	      all.ratio_hist[1 - AGG_RATIO_LOG2_MIN] == 3 &&
	      all.within_factor[0] == 0 && all.within_factor[1] == 3,
	      "merge: states, ratio (p = 2a -> k 1) and factor counts add",
	      "wrong counts");
	/* cpu 0: 1 + 3 + 5 us in state 1; cpu 1: 5 + 100 us in state 2 */
	check(all.state_residency_ns[1] == 9 * US &&
	      all.state_residency_ns[2] == 105 * US &&
	      all.state_residency_ns[0] == 0,
	      "merge: idle time per entered state adds (state 1: 9 us, state 2: 105 us)",
	      "state 1 %llu ns, state 2 %llu ns",
	      (unsigned long long)all.state_residency_ns[1],
	      (unsigned long long)all.state_residency_ns[2]);

	s0 = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 0);
	s1 = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 1);
	memset(&manual, 0, sizeof(manual));
	agg_stats_merge(&manual, s1);
	agg_stats_merge(&manual, s0);
	check(!memcmp(&manual, &all, sizeof(all)),
	      "merge: agg_stats_merge(cpu1, cpu0) equals agg_sum over CPUs (any order)",
	      "structs differ");

	nr = agg_sum(agg, AGG_ANY, AGG_ANY, 0, &all);
	check(nr == 3 && all.samples == 5,
	      "agg_sum: cpu 0 across every workload and governor", "nr %d samples %llu",
	      nr, (unsigned long long)all.samples);
	nr = agg_sum(agg, 5, AGG_ANY, AGG_ANY, &all);
	check(nr == 0 && all.samples == 0, "agg_sum: no match gives an empty aggregate",
	      "nr %d", nr);

	/* Iteration: workload-major, then governor, then cpu. */
	{
		char order[128] = "";
		size_t len = 0;

		for (nr = 0; (st = agg_next(agg, &key)); nr++)
			len += snprintf(order + len, sizeof(order) - len, "%s/%s/%d(%llu) ",
					agg_workload_name(agg, key.workload),
					governor_name(key.governor), key.cpu,
					(unsigned long long)st->samples);
		check(!strcmp(order, "p/menu/0(3) p/menu/1(2) p/teo/0(1) q/menu/0(1) "),
		      "agg_next: visits every used key once, workload-major", "got %s", order);
	}
	check(!agg_get(agg, 0, IDLESCOPE_GOV_LADDER, 0) && !agg_get(agg, 9, 0, 0),
	      "agg_get: NULL for keys without records", "not NULL");
	agg_free(agg);
}

/* ---- shadow replay scores -------------------------------------------- */

/* The model registry's names, in its order, as the pipeline sets them. */
#define shadow_names	model_names

static void test_shadow_names(void)
{
	char long_name[AGG_SHADOW_NAME_LEN + 1];
	const char *bad[2] = { "ok", NULL };
	const char *too_long[1] = { long_name };
	struct agg *agg = agg_new();

	CHECK_EQ_INT("shadow names: none by default", agg_nr_shadows(agg), 0);
	check(agg_shadow_name(agg, 0) == NULL, "shadow names: index beyond nr -> NULL",
	      "not NULL");
	CHECK_EQ_INT("shadow names: AGG_MAX_SHADOWS names fit",
		     agg_set_shadows(agg, shadow_names, model_input_masks, AGG_MAX_SHADOWS), 0);
	check(agg_nr_shadows(agg) == AGG_MAX_SHADOWS &&
	      !strcmp(agg_shadow_name(agg, 2), "menu2010rpd") &&
	      !agg_shadow_name(agg, AGG_MAX_SHADOWS) && !agg_shadow_name(agg, -1),
	      "shadow names: nr and names read back, out of range -> NULL", "mismatch");

	memset(long_name, 'x', AGG_SHADOW_NAME_LEN);
	long_name[AGG_SHADOW_NAME_LEN] = '\0';
	CHECK_EQ_INT("shadow names: more than AGG_MAX_SHADOWS -> -EINVAL",
		     agg_set_shadows(agg, shadow_names, model_input_masks, AGG_MAX_SHADOWS + 1), -EINVAL);
	CHECK_EQ_INT("shadow names: a NULL name -> -EINVAL",
		     agg_set_shadows(agg, bad, NULL, 2), -EINVAL);
	CHECK_EQ_INT("shadow names: AGG_SHADOW_NAME_LEN chars -> -ENAMETOOLONG",
		     agg_set_shadows(agg, too_long, NULL, 1), -ENAMETOOLONG);
	check(agg_nr_shadows(agg) == AGG_MAX_SHADOWS && !strcmp(agg_shadow_name(agg, 0), "menu2010"),
	      "shadow names: a refused list keeps the previous names", "changed");
	long_name[AGG_SHADOW_NAME_LEN - 1] = '\0';
	CHECK_EQ_INT("shadow names: AGG_SHADOW_NAME_LEN - 1 chars fit",
		     agg_set_shadows(agg, too_long, NULL, 1), 0);
	CHECK_EQ_INT("shadow names: 0 names turn the shadows off",
		     agg_set_shadows(agg, NULL, NULL, 0) || agg_nr_shadows(agg), 0);
	agg_free(agg);
}

static void test_shadow_scoring(void)
{
	struct idlescope_record rec;
	const struct agg_stats *st;
	char name[160];
	struct agg *agg;
	int i, k;

	/*
	 * Boundaries, per factor: shadow 0 predicts p = F * a exactly (a
	 * hit), shadow 1 one ns more (a miss), and the live prediction is
	 * p = F * a too, so shadow 0's row must equal the live one: same
	 * rule, same helper.
	 */
	for (i = 0; i < AGG_NR_FACTORS; i++) {
		const struct agg_factor *f = &agg_factors[i];
		__u64 a = 2000 * f->den, fa = a * f->num / f->den;
		bool hit_ok = true, miss_ok = true;

		agg = agg_new();
		agg_set_shadows(agg, shadow_names, model_input_masks, 2);
		rec = make_prediction("b", IDLESCOPE_GOV_MENU, 0, fa, a);
		rec.flags |= INPUTS_ALL;	/* every model's inputs read */
		agg_add(agg, &rec);
		agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, fa, -1);
		agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, fa + 1, -1);
		st = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 0);
		for (k = 0; k < AGG_NR_FACTORS; k++) {
			/* F * a is within every F' >= F, and F * a + 1 too above F */
			hit_ok &= st->shadow[0].within_factor[k] == (k >= i);
			miss_ok &= st->shadow[1].within_factor[k] == (k > i);
		}
		snprintf(name, sizeof(name),
			 "shadow %s: p = F*a is within it, p = F*a + 1 ns is not", f->label);
		check(hit_ok && miss_ok && st->shadow[0].samples == 1 &&
		      st->shadow[1].samples == 1, name, "wrong within_factor");
		snprintf(name, sizeof(name),
			 "shadow %s: a shadow with the live prediction scores like live", f->label);
		check(!memcmp(st->shadow[0].within_factor, st->within_factor,
			      sizeof(st->within_factor)) &&
		      !memcmp(st->shadow[0].ratio_hist, st->ratio_hist,
			      sizeof(st->ratio_hist)), name, "differs from live");
		agg_free(agg);
	}

	agg = agg_new();
	agg_set_shadows(agg, shadow_names, model_input_masks, 3);
	rec = make_record("z", IDLESCOPE_GOV_TEO, 2, 1, 1000 * US);
	rec.flags |= INPUTS_ALL;
	CHECK_EQ_INT("agg_add_shadow: before agg_add of the key -> -ENOENT",
		     agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, -1), -ENOENT);
	agg_add(agg, &rec);
	CHECK_EQ_INT("agg_add_shadow: after agg_add -> 0",
		     agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, -1), 0);
	/* A prediction of 0 ns, and none (UNKNOWN: no select, or select returned early) */
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, 0, -1);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, IDLESCOPE_UNKNOWN_NS, -1);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, 4000 * US, -1);
	st = agg_get(agg, 0, IDLESCOPE_GOV_TEO, 2);
	check(st->shadow[0].samples == 1 && st->shadow[0].within_factor[0] == 1 &&
	      st->shadow[0].ratio_hist[0 - AGG_RATIO_LOG2_MIN] == 1,
	      "shadow: a prediction equal to the actual is in every row and ratio 2^0",
	      "wrong counts");
	check(st->shadow[1].samples == 2 && st->shadow[1].within_factor[1] == 0 &&
	      st->shadow[1].within_factor[2] == 1 && st->shadow[1].ratio_hist[0] == 1 &&
	      st->shadow[1].ratio_hist[2 - AGG_RATIO_LOG2_MIN] == 1,
	      /* the name is from when 0 was "no prediction": 0 ns is a sample now */
	      "shadow: predictions of 0 ns and UNKNOWN are not samples; 4000 us on 1000 us is 4x",
	      "samples %llu", (unsigned long long)st->shadow[1].samples);
	check(st->predicted_samples == 0 && st->shadow[2].samples == 0 &&
	      st->samples == 1,
	      "shadow: scores stay out of the live counts and the other shadows", "leaked");

	CHECK_EQ_INT("agg_add_shadow: shadow index >= agg_nr_shadows() -> -EINVAL",
		     agg_add_shadow(agg, &rec, inputs_of_record(&rec), 3, 1000 * US, -1), -EINVAL);
	CHECK_EQ_INT("agg_add_shadow: agreement 2 -> -EINVAL",
		     agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, 2), -EINVAL);
	rec.cpu = IDLESCOPE_MAX_CPUS;
	CHECK_EQ_INT("agg_add_shadow: cpu out of range -> -ERANGE",
		     agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, -1), -ERANGE);
	rec.cpu = 2;
	rec.governor = IDLESCOPE_NR_GOVERNORS;
	CHECK_EQ_INT("agg_add_shadow: governor out of range -> -EINVAL",
		     agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, -1), -EINVAL);
	check(st->shadow[0].samples == 1 && agg_rejected_records(agg) == 0,
	      "agg_add_shadow: refused calls count nothing (and are not rejected records)",
	      "counted");
	agg_free(agg);
}

/* What agg_add_shadow() makes of a prediction, for the four shadows. */
static void shadow_periods(const struct agg *agg, const struct idlescope_record *rec,
			   const __u64 *predicted_ns, const int *agreement,
			   struct agg_shadow_period *periods)
{
	int s;

	for (s = 0; s < 4; s++) {
		periods[s].stepped = predicted_ns[s] != IDLESCOPE_UNKNOWN_NS;
		periods[s].predicted_ns = predicted_ns[s];
		periods[s].chosen_state = -1;
		periods[s].has_inputs = agg_shadow_has_inputs(agg, s, inputs_of_record(rec));
		periods[s].agreement = agreement[s];
		periods[s].state_agreement = -1;
	}
}

/*
 * agg_add_shadows() is agg_add_shadow() of each shadow in turn: the same
 * stats to the byte over predictions near and far, made and not, on
 * menu2010 periods (the 2010 models scored, menu's excluded), and all or
 * nothing when one argument is wrong.
 */
static void test_shadow_batch(void)
{
	struct agg *one = agg_new(), *batch = agg_new();
	int agreement[4] = { 1, -1, 0, -1 };
	struct agg_shadow_period periods[4];
	__u64 predicted_ns[4];
	struct idlescope_record rec;
	const struct agg_stats *st;
	bool same;
	int i, s;

	agg_set_shadows(one, shadow_names, model_input_masks, 4);
	agg_set_shadows(batch, shadow_names, model_input_masks, 4);
	for (i = 0; i < 100; i++) {
		rec = make_prediction("b", IDLESCOPE_GOV_MENU2010, 1, 1000 * US, (i + 1) * 37 * US);
		for (s = 0; s < 4; s++)
			predicted_ns[s] = i % 7 == s ? 0 : (__u64)(s + 1) * (i + 3) * 91 * US;
		agg_add(one, &rec);
		agg_add(batch, &rec);
		for (s = 0; s < 4; s++)
			agg_add_shadow(one, &rec, inputs_of_record(&rec), s, predicted_ns[s], agreement[s]);
		shadow_periods(batch, &rec, predicted_ns, agreement, periods);
		agg_add_shadows(batch, &rec, 0, 4, periods);
	}
	same = !memcmp(agg_get(one, 0, IDLESCOPE_GOV_MENU2010, 1),
		       agg_get(batch, 0, IDLESCOPE_GOV_MENU2010, 1), sizeof(struct agg_stats));
	st = agg_get(batch, 0, IDLESCOPE_GOV_MENU2010, 1);
	check(same && st->shadow[0].samples > 0 && st->shadow[3].excluded_samples == 100,
	      "agg_add_shadows: the same stats as agg_add_shadow() per shadow",
	      "differ, or nothing scored (%llu) or menu not excluded (%llu)",
	      (unsigned long long)st->shadow[0].samples,
	      (unsigned long long)st->shadow[3].excluded_samples);

	agreement[2] = 2;
	shadow_periods(batch, &rec, predicted_ns, agreement, periods);
	CHECK_EQ_INT("agg_add_shadows: one bad agreement -> -EINVAL",
		     agg_add_shadows(batch, &rec, 0, 4, periods), -EINVAL);
	CHECK_EQ_INT("agg_add_shadows: shadows past agg_nr_shadows() -> -EINVAL",
		     agg_add_shadows(batch, &rec, 1, 4, periods), -EINVAL);
	check(!memcmp(agg_get(one, 0, IDLESCOPE_GOV_MENU2010, 1), st, sizeof(*st)),
	      "agg_add_shadows: a refused call counts none of its shadows", "counted");
	agg_free(one);
	agg_free(batch);
}

static void test_shadow_agreement(void)
{
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	const struct agg_stats *st;

	agg_set_shadows(agg, shadow_names, model_input_masks, 2);
	rec = make_prediction("a", IDLESCOPE_GOV_MENU2010, 0, 1000 * US, 1000 * US);
	agg_add(agg, &rec);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, 1);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, 2000 * US, -1);
	rec = make_prediction("a", IDLESCOPE_GOV_MENU2010, 0, 1000 * US, 1000 * US);
	agg_add(agg, &rec);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1001 * US, 0);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, 2000 * US, -1);
	/* Kernel and model both predicted 0 ns: checked, agreed, and a sample. */
	rec = make_prediction("a", IDLESCOPE_GOV_MENU2010, 0, 0, 1000 * US);
	agg_add(agg, &rec);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 0, 1);
	st = agg_get(agg, 0, IDLESCOPE_GOV_MENU2010, 0);
	check(st->shadow[0].agree_checked == 3 && st->shadow[0].agree_samples == 2,
	      "agreement: 1 agreed, 0 disagreed, both checked; a shared 0 ns agrees",
	      "checked %llu agreed %llu", (unsigned long long)st->shadow[0].agree_checked,
	      (unsigned long long)st->shadow[0].agree_samples);
	check(st->shadow[0].samples == 3 && st->predicted_samples == 3,
	      "agreement: counted whether or not a prediction was made", "samples %llu",
	      (unsigned long long)st->shadow[0].samples);
	check(st->shadow[1].agree_checked == 0 && st->shadow[1].agree_samples == 0 &&
	      st->shadow[1].samples == 2,
	      "agreement: -1 is not checked", "checked %llu",
	      (unsigned long long)st->shadow[1].agree_checked);
	agg_free(agg);
}

static void test_shadow_merge(void)
{
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	struct agg_stats all, manual;
	const struct agg_stats *s0, *s1;
	int cpu, i;

	agg_set_shadows(agg, shadow_names, model_input_masks, 2);
	/* CPU 0: 3 periods, CPU 1: 2; shadow 1 predicts 10 x the actual. */
	for (cpu = 0; cpu < 2; cpu++) {
		for (i = 0; i < 3 - cpu; i++) {
			rec = make_prediction("m", IDLESCOPE_GOV_MENU2010FIX, cpu,
					      1000 * US, 1000 * US);
			agg_add(agg, &rec);
			agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, i != 1);
			agg_add_shadow(agg, &rec, inputs_of_record(&rec), 1, 10000 * US, -1);
		}
	}
	/* Another governor on the same workload and CPU must not leak in. */
	rec = make_record("m", IDLESCOPE_GOV_MENU, 0, 1, 1000 * US);
	agg_add(agg, &rec);
	agg_add_shadow(agg, &rec, inputs_of_record(&rec), 0, 1000 * US, 1);

	agg_sum(agg, 0, IDLESCOPE_GOV_MENU2010FIX, AGG_ANY, &all);
	check(all.shadow[0].samples == 5 && all.shadow[0].within_factor[0] == 5 &&
	      all.shadow[0].agree_checked == 5 && all.shadow[0].agree_samples == 3,
	      "shadow merge: samples, factor rows and agreement add over CPUs (3 of 5 agreed)",
	      "samples %llu checked %llu agreed %llu",
	      (unsigned long long)all.shadow[0].samples,
	      (unsigned long long)all.shadow[0].agree_checked,
	      (unsigned long long)all.shadow[0].agree_samples);
	check(all.shadow[1].samples == 5 && all.shadow[1].within_factor[2] == 0 &&
	      all.shadow[1].within_factor[3] == 5 &&
	      all.shadow[1].ratio_hist[3 - AGG_RATIO_LOG2_MIN] == 5,
	      "shadow merge: 10x predictions: 4x misses, 10x hits, ratio 2^3 (10 in [8, 16))",
	      "wrong counts");

	s0 = agg_get(agg, 0, IDLESCOPE_GOV_MENU2010FIX, 0);
	s1 = agg_get(agg, 0, IDLESCOPE_GOV_MENU2010FIX, 1);
	memset(&manual, 0, sizeof(manual));
	agg_stats_merge(&manual, s1);
	agg_stats_merge(&manual, s0);
	check(!memcmp(&manual, &all, sizeof(all)) &&
	      s0->shadow[0].agree_samples == 2 && s1->shadow[0].agree_samples == 1,
	      "shadow merge: agg_stats_merge(cpu1, cpu0) equals agg_sum, shadows included",
	      "structs differ");
	agg_sum(agg, 0, AGG_ANY, 0, &all);
	CHECK_EQ("shadow merge: agg_sum over governors adds their shadows too",
		 all.shadow[0].agree_samples, 3);
	agg_free(agg);
}

struct crosscheck_case {
	int state;
	__u64 residency_ns;
	int too_deep, too_shallow;
	const char *why;
};

static void run_crosscheck(const struct agg_state_info *states, int nr_states,
			   const struct crosscheck_case *cases, int nr_cases)
{
	char name[192];
	int i;

	for (i = 0; i < nr_cases; i++) {
		const struct crosscheck_case *c = &cases[i];
		struct agg *agg = agg_new();
		struct idlescope_record rec;
		const struct agg_stats *st;

		agg_set_states(agg, states, nr_states);
		rec = make_record("s", IDLESCOPE_GOV_MENU, 0, c->state, c->residency_ns);
		agg_add(agg, &rec);
		st = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 0);
		snprintf(name, sizeof(name), "cross-check: state %d, %llu ns: %s",
			 c->state, (unsigned long long)c->residency_ns, c->why);
		check(st->too_deep_samples == (__u64)c->too_deep &&
		      st->too_shallow_samples == (__u64)c->too_shallow, name,
		      "too_deep %llu too_shallow %llu",
		      (unsigned long long)st->too_deep_samples,
		      (unsigned long long)st->too_shallow_samples);
		agg_free(agg);
	}
}

static void test_crosscheck(void)
{
	static const struct crosscheck_case all_enabled[] = {
		{ 1, 1000, 1, 0, "too deep: 1000 < target 2000, state 0 exists" },
		{ 1, 2000, 0, 0, "not too deep at exactly the target residency" },
		{ 2, 15000, 1, 0, "too deep: 15000 < target 20000" },
		{ 0, 500, 0, 0, "fine: 500 - exit 0 < next target 2000" },
		{ 0, 3000, 0, 1, "too shallow: 3000 - 0 >= next target 2000" },
		{ 1, 22000, 0, 1, "too shallow: 22000 - exit 2000 >= 20000 exactly" },
		{ 1, 21999, 0, 0, "fine: 21999 - exit 2000 < 20000 (exit latency counts)" },
		{ 3, 1000000, 0, 0, "fine: no deeper state than the deepest" },
		{ 0, 0, 0, 0, "fine: 0 ns in POLL, nothing shallower" },
	};
	static const struct crosscheck_case state0_disabled[] = {
		{ 1, 1000, 0, 0, "not too deep when every shallower state is disabled" },
	};
	static const struct crosscheck_case state2_disabled[] = {
		{ 1, 50000, 0, 0, "fine: C1E disabled, 48000 < C6 target 100000" },
		{ 1, 150000, 0, 1, "too shallow: skips disabled C1E, 148000 >= 100000" },
	};
	struct agg_state_info states[4];
	struct agg *agg = agg_new();
	struct idlescope_record rec;
	const struct agg_stats *st;
	int i;

	run_crosscheck(test_states, 4, all_enabled, ARRAY_SIZE(all_enabled));
	memcpy(states, test_states, sizeof(states));
	states[0].disabled = true;
	run_crosscheck(states, 4, state0_disabled, 1);
	memcpy(states, test_states, sizeof(states));
	states[2].disabled = true;
	run_crosscheck(states, 4, state2_disabled, 2);

	/*
	 * All cases in one aggregate, plus the kernel's flags and an index
	 * the table does not cover.
	 */
	agg_set_states(agg, test_states, 4);
	for (i = 0; i < (int)ARRAY_SIZE(all_enabled); i++) {
		rec = make_record("s", IDLESCOPE_GOV_MENU, 0, all_enabled[i].state,
				  all_enabled[i].residency_ns);
		if (all_enabled[i].too_deep)
			rec.flags |= IDLESCOPE_F_MISS_ABOVE;
		if (all_enabled[i].too_shallow)
			rec.flags |= IDLESCOPE_F_MISS_BELOW;
		agg_add(agg, &rec);
	}
	/* Past the 4-state table: no state, not a row of its own (issue 24). */
	rec = make_record("t", IDLESCOPE_GOV_MENU, 0, 4, 1);
	rec.chosen_state = 4;
	agg_add(agg, &rec);
	rec = make_record("s", IDLESCOPE_GOV_MENU, 0, -1, 1);
	agg_add(agg, &rec);
	st = agg_get(agg, 0, IDLESCOPE_GOV_MENU, 0);
	check(st->too_deep_samples == 2 && st->too_shallow_samples == 2 &&
	      st->crosscheck_samples == 9,
	      "cross-check: 9 covered records -> 2 too deep, 2 too shallow; state 5 and -1 not checked",
	      "deep %llu shallow %llu checked %llu",
	      (unsigned long long)st->too_deep_samples,
	      (unsigned long long)st->too_shallow_samples,
	      (unsigned long long)st->crosscheck_samples);
	check(st->miss_above_samples == 2 && st->miss_below_samples == 2,
	      "kernel flags: IDLESCOPE_F_MISS_ABOVE / _BELOW counted", "wrong counts");
	check(st->state_entered[0] == 3 && st->state_entered[1] == 4 &&
	      st->invalid_state_samples == 1,
	      "states: entered counts per index, -1 counted as invalid", "wrong counts");
	{
		__u64 in_states_ns = 0;

		for (i = 0; i < IDLESCOPE_MAX_STATES; i++)
			in_states_ns += st->state_residency_ns[i];
		check(in_states_ns == st->residency_sum_ns - 1,
		      "states: idle time per state covers every period but the 1 ns one in state -1",
		      "%llu ns in states, %llu ns in all",
		      (unsigned long long)in_states_ns,
		      (unsigned long long)st->residency_sum_ns);
	}
	st = agg_get(agg, 1, IDLESCOPE_GOV_MENU, 0);
	check(st && st->invalid_state_samples == 1 && !st->state_entered[4] &&
	      !st->state_chosen[4] && !st->state_residency_ns[4],
	      "states: an index equal to the table's size is invalid, not a state of its own",
	      "invalid %llu, entered[4] %llu", st ? (unsigned long long)st->invalid_state_samples : 0,
	      st ? (unsigned long long)st->state_entered[4] : 0);
	CHECK_EQ_INT("agg_set_states: more than IDLESCOPE_MAX_STATES -> -EINVAL",
		     agg_set_states(agg, test_states, IDLESCOPE_MAX_STATES + 1), -EINVAL);
	agg_free(agg);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_log2_buckets();
	test_factor_boundaries();
	test_ratio_buckets();
	test_prediction_counting();
	test_keys_and_limits();
	test_merge();
	test_shadow_names();
	test_shadow_scoring();
	test_shadow_agreement();
	test_shadow_batch();
	test_shadow_merge();
	test_crosscheck();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
