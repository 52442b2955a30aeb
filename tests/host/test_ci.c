// SPDX-License-Identifier: GPL-2.0
/*
 * test_ci - the batch-means intervals of loader/stats/ci.c: exact arithmetic on
 * hand-made batches, merging, and coverage on synthetic autocorrelated
 * data whose true share is known.
 */
#include <math.h>
#include <string.h>
#include "check.h"
#include "stats/ci.h"
#include "rng.h"

/*
 * A two-state Markov chain: from a hit the next sample is a miss with
 * probability LEAVE_HIT, from a miss a hit with probability LEAVE_MISS.
 * The long-run share of hits is LEAVE_MISS / (LEAVE_HIT + LEAVE_MISS), and
 * neighbours are correlated by 1 - LEAVE_HIT - LEAVE_MISS = 0.92: runs of
 * ~20 equal samples, like a governor stuck in one bucket.
 */
#define LEAVE_HIT	0.05
#define LEAVE_MISS	0.03
#define TRUE_SHARE	(LEAVE_MISS / (LEAVE_HIT + LEAVE_MISS))
#define NR_SAMPLES	20000
#define NR_DATASETS	200

static void test_exact(void)
{
	struct ci_acc acc = {};
	struct ci_pct r;
	int i;

	/* Four batches of 32: two all hits, then two all misses. */
	for (i = 0; i < 4 * CI_BATCH_MIN; i++)
		ci_add_hit(&acc, i < 2 * CI_BATCH_MIN);
	r = ci_result(&acc);
	check(r.pct == 50.0, "ci: share of four hand-made batches", "got %g", r.pct);
	CHECK_EQ("ci: four batches counted", r.nr_batches, 4);
	/* sum (h - p n)^2 = 4 * 16^2, / (k (k-1) nbar^2) = 1/12, t(3) = 3.182 */
	check(fabs(r.half - 100 * 3.182 * sqrt(1.0 / 12)) < 1e-9,
	      "ci: half-width of four batches", "got %.6f, want %.6f", r.half,
	      100 * 3.182 * sqrt(1.0 / 12));
	check(r.lo == 0.0 && r.hi == 100.0, "ci: interval clamped to 0..100",
	      "got %g..%g", r.lo, r.hi);

	memset(&acc, 0, sizeof(acc));
	for (i = 0; i < 3 * CI_BATCH_MIN; i++)
		ci_add_hit(&acc, i & 1);
	r = ci_result(&acc);
	check(r.pct == 50.0 && isnan(r.half), "ci: three batches give no interval",
	      "pct %g half %g", r.pct, r.half);
	memset(&acc, 0, sizeof(acc));
	r = ci_result(&acc);
	check(isnan(r.pct), "ci: no samples is no share", "got %g", r.pct);

	/* Time-weighted: 3 ns of 4 ns count. */
	memset(&acc, 0, sizeof(acc));
	ci_add(&acc, 3, 3);
	ci_add(&acc, 0, 1);
	r = ci_result(&acc);
	check(r.pct == 75.0, "ci: weighted share", "got %g", r.pct);
}

static void chain(struct ci_acc *acc, struct rng *rng, int nr, bool *state)
{
	int i;

	for (i = 0; i < nr; i++) {
		ci_add_hit(acc, *state);
		if (rng_unit(rng) < (*state ? LEAVE_HIT : LEAVE_MISS))
			*state = !*state;
	}
}

/* Merging two halves sees the same samples as one stream. */
static void test_merge(void)
{
	struct ci_acc one = {}, a = {}, b = {}, merged = {};
	struct ci_pct r1, r2;
	struct rng rng;
	bool state = true;

	rng_seed(&rng, 7);
	chain(&one, &rng, 10000, &state);
	rng_seed(&rng, 7);
	state = true;
	chain(&a, &rng, 5000, &state);
	chain(&b, &rng, 5000, &state);
	ci_merge(&merged, &a);
	ci_merge(&merged, &b);
	r1 = ci_result(&one);
	r2 = ci_result(&merged);
	check(fabs(r1.pct - r2.pct) < 1e-9, "ci: merged halves give the same share",
	      "one %.6f merged %.6f", r1.pct, r2.pct);
	check(fabs(r1.half - r2.half) < 0.2 * r1.half,
	      "ci: merged halves give about the same interval",
	      "one ±%.3f merged ±%.3f", r1.half, r2.half);
}

/*
 * Coverage: ~95% of the datasets' intervals contain the true share.  The
 * binomial interval on the same data is printed beside it and must be
 * clearly worse: that is why batch means are used.
 */
static void test_coverage(void)
{
	int covered = 0, binomial_covered = 0, d;
	double truth = 100.0 * TRUE_SHARE;
	struct rng rng;

	for (d = 0; d < NR_DATASETS; d++) {
		struct ci_acc acc = {};
		struct ci_pct r;
		double p, binomial_half;
		bool state;

		rng_seed(&rng, 1000 + d);
		state = rng_unit(&rng) < TRUE_SHARE;
		chain(&acc, &rng, NR_SAMPLES, &state);
		r = ci_result(&acc);
		covered += r.lo <= truth && truth <= r.hi;
		p = r.pct / 100;
		binomial_half = 100 * 1.96 * sqrt(p * (1 - p) / NR_SAMPLES);
		binomial_covered += fabs(r.pct - truth) <= binomial_half;
	}
	check(covered >= 0.90 * NR_DATASETS && covered <= 0.99 * NR_DATASETS,
	      "ci: 95% interval covers the true share in 90..99% of datasets",
	      "%d of %d (binomial interval: %d)", covered, NR_DATASETS, binomial_covered);
	check(binomial_covered < 0.8 * NR_DATASETS,
	      "ci: a binomial interval would be too narrow on correlated periods",
	      "binomial covered %d of %d", binomial_covered, NR_DATASETS);
	printf("coverage: batch means %d of %d, binomial %d of %d\n", covered,
	       NR_DATASETS, binomial_covered, NR_DATASETS);
}

static void test_diff(void)
{
	struct ci_pct a = { .pct = 60, .half = 3 }, b = { .pct = 55, .half = 4 };
	struct ci_pct d = ci_diff(&a, &b);

	check(d.pct == 5 && fabs(d.half - 5) < 1e-12, "ci: difference adds half-widths in quadrature",
	      "got %g ±%g", d.pct, d.half);
}

int main(void)
{
	test_exact();
	test_merge();
	test_coverage();
	test_diff();
	return nr_failed ? 1 : 0;
}
