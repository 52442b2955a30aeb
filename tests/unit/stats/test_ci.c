// SPDX-License-Identifier: GPL-2.0
/*
 * test_ci - the batch-means intervals of loader/stats/ci.c: exact arithmetic on
 * hand-made batches, merging, and coverage on synthetic autocorrelated
 * data whose true share is known; the interval over boots the headline
 * uses (ci_over_boots()), exactly and by its coverage at correlation
 * lengths of 10, 100 and 1000 periods with a boot-to-boot offset.
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

/*
 * A boot of the coverage datasets: its own true share (the run's plus the
 * boot's offset, normal with sd BOOT_SD) and a two-state chain around it
 * whose correlation length is @len periods (leaving each state with
 * probability share / len or (1 - share) / len: neighbours correlate by
 * 1 - 1 / len).
 */
#define BOOT_SAMPLES	20000
#define BOOT_SD		0.02
#define RUN_SHARE	0.6
/* make run's default REPEATS: the boots behind a headline interval. */
#define BOOTS		4

static struct ci_pct boot(struct rng *rng, double share, double len, int nr)
{
	struct ci_acc acc;
	bool state = rng_unit(rng) < share;
	int i;

	memset(&acc, 0, sizeof(acc));
	for (i = 0; i < nr; i++) {
		ci_add_hit(&acc, state);
		if (rng_unit(rng) < (state ? 1 - share : share) / len)
			state = !state;
	}
	return ci_result(&acc);
}

/*
 * The headline's estimator on NR_DATASETS datasets of BOOTS boots each, at
 * one correlation length: how many intervals contain the run's share.
 */
static int boot_coverage(double len, double *mean_half)
{
	struct ci_pct boots[BOOTS], r;
	int d, b, covered = 0;
	struct rng rng;
	double share;

	*mean_half = 0;
	for (d = 0; d < NR_DATASETS; d++) {
		rng_seed(&rng, 5000 + d + 100000 * (int)len);
		for (b = 0; b < BOOTS; b++) {
			share = fmin(0.99, fmax(0.01, RUN_SHARE + BOOT_SD * rng_normal(&rng)));
			boots[b] = boot(&rng, share, len, BOOT_SAMPLES);
		}
		r = ci_over_boots(boots, BOOTS);
		covered += r.lo <= 100 * RUN_SHARE && 100 * RUN_SHARE <= r.hi;
		*mean_half += r.half / NR_DATASETS;
	}
	return covered;
}

static void test_boot_coverage(void)
{
	static const struct { double len; const char *name; } lens[] = {
		{ 10, "ci: over boots, 95% intervals cover the share in >= 90% of datasets, correlation 10" },
		{ 100, "ci: over boots, 95% intervals cover the share in >= 90% of datasets, correlation 100" },
		{ 1000, "ci: over boots, 95% intervals cover the share in >= 90% of datasets, correlation 1000" },
	};
	double mean_half;
	unsigned int i;
	int covered;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		covered = boot_coverage(lens[i].len, &mean_half);
		check(covered >= 0.90 * NR_DATASETS, lens[i].name, "%d of %d", covered, NR_DATASETS);
		printf("coverage over %d boots, correlation length %.0f: %d of %d (%.1f%%), "
		       "mean half-width %.2f pp\n", BOOTS, lens[i].len, covered, NR_DATASETS,
		       100.0 * covered / NR_DATASETS, mean_half);
	}
}

/*
 * Within one boot the batch length follows the correlation: at 100
 * periods the intervals it gives still cover; at 1000, 20000 samples are
 * some twenty independent stretches, too few: no interval, said so.
 */
static void test_adaptive_batches(void)
{
	int d, given = 0, covered = 0, too_correlated = 0;
	struct ci_pct r;
	struct rng rng;

	for (d = 0; d < NR_DATASETS; d++) {
		rng_seed(&rng, 9000 + d);
		r = boot(&rng, RUN_SHARE, 100, BOOT_SAMPLES);
		if (isnan(r.half))
			continue;
		given++;
		covered += r.lo <= 100 * RUN_SHARE && 100 * RUN_SHARE <= r.hi;
	}
	check(given >= NR_DATASETS / 2 && covered >= 0.90 * given,
	      "ci: within one boot, intervals at correlation 100 cover the share in >= 90%",
	      "%d of %d intervals given cover", covered, given);
	printf("within one boot, correlation length 100: %d of %d intervals given cover\n",
	       covered, given);
	for (d = 0; d < NR_DATASETS; d++) {
		rng_seed(&rng, 9000 + d);
		r = boot(&rng, RUN_SHARE, 1000, BOOT_SAMPLES);
		too_correlated += r.too_correlated && isnan(r.half);
	}
	check(too_correlated >= 0.95 * NR_DATASETS,
	      "ci: a boot too correlated for its length has no interval",
	      "%d of %d said so", too_correlated, NR_DATASETS);
}

/* ci_over_boots() by hand: a t interval over boots, the within-boot floor. */
static void test_over_boots(void)
{
	struct ci_pct b[3] = {
		{ .pct = 10, .se = 0.5 }, { .pct = 20, .se = 0.5 }, { .pct = 30, .se = 0.5 },
	};
	struct ci_pct r, none = { .pct = NAN, .half = NAN, .se = NAN };
	double want;

	r = ci_over_boots(b, 3);
	want = 4.303 * 10 / sqrt(3);
	check(r.pct == 20 && fabs(r.half - want) < 1e-9 && r.nr_boots == 3 && r.df == 2,
	      "ci: over boots, the mean and a t interval of the boots' values",
	      "got %g ±%g over %u boots, want 20 ±%g", r.pct, r.half, r.nr_boots, want);
	b[0].pct = b[1].pct = 50;
	b[0].se = b[1].se = 2;
	b[2] = none;
	r = ci_over_boots(b, 3);
	want = 12.706 * sqrt(4.0 / 2);
	check(r.pct == 50 && fabs(r.half - want) < 1e-9 && r.nr_boots == 2,
	      "ci: over boots that agree, the within-boot variance is the floor",
	      "got %g ±%g over %u boots, want 50 ±%g", r.pct, r.half, r.nr_boots, want);
	b[0].half = 3.9;
	r = ci_over_boots(b, 1);
	check(r.pct == 50 && r.half == 3.9, "ci: over one boot, its own interval",
	      "got %g ±%g", r.pct, r.half);
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
	test_over_boots();
	test_adaptive_batches();
	test_boot_coverage();
	return check_done();
}
