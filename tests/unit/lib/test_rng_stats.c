// SPDX-License-Identifier: GPL-2.0
/*
 * test_rng_stats.c - host unit tests of lib/rng.c and lib/stats.c.
 *
 * A seed must mean the same sequence forever: the workloads' sleeps and
 * disk blocks and every bench/genrec file depend on it.  So the checks pin
 * exact values: splitmix64's published outputs for seed 0, and the first
 * draw of each kind for seed 1 as the workloads made them when the PRNG
 * moved to lib/.  The statistics are checked on samples whose mean and
 * nearest-rank percentiles are worked out by hand.
 *
 * Output: one "PASS: <name>" or "FAIL: <name> (<why>)" line per check; exit
 * status 1 if any failed.
 */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "rng.h"
#include "stats.h"

#define NS_PER_US	1000ULL

static void test_splitmix64(void)
{
	/* Vigna's splitmix64.c, state 0: its first four outputs */
	static const uint64_t want[] = {
		0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL,
		0x06c45d188009454fULL, 0xf88bb8a8724c81ecULL,
	};
	struct rng rng;
	unsigned int i;
	bool same = true;

	rng_seed(&rng, 0);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		same &= rng_u64(&rng) == want[i];
	check(same, "rng: seed 0 gives splitmix64's published sequence", "a value differs");
}

static void test_draws(void)
{
	struct rng rng;
	double unit, gap;

	/* one draw of each kind in turn, as workload.c drew them before lib/ */
	rng_seed(&rng, 1);
	CHECK_EQ("rng: seed 1, first u64", rng_u64(&rng), 0x910a2dec89025cc1ULL);
	CHECK_EQ_INT("rng: seed 1, then a range draw in [-200000, 200000]",
		     rng_range(&rng, -200000, 200000), 98313);
	CHECK_EQ_INT("rng: seed 1, then a range draw in [0, 16383]",
		     rng_range(&rng, 0, 16383), 15908);
	unit = rng_unit(&rng);
	check(unit == 0.44435921705577208, "rng: seed 1, then a unit draw",
	      "got %.17g", unit);
	gap = rng_exp(&rng, 2000000.0);
	check(gap == 1174926.3574337235, "rng: seed 1, then an exponential draw of mean 2 ms",
	      "got %.17g", gap);
}

static void test_range_bounds(void)
{
	struct rng rng;
	bool in = true, lo_seen = false, hi_seen = false;
	int64_t v;
	int i;

	rng_seed(&rng, 7);
	for (i = 0; i < 1000; i++) {
		v = rng_range(&rng, -2, 2);
		in &= v >= -2 && v <= 2;
		lo_seen |= v == -2;
		hi_seen |= v == 2;
	}
	check(in && lo_seen && hi_seen, "rng: range draws reach both ends and no further",
	      "in range %d, -2 seen %d, 2 seen %d", in, lo_seen, hi_seen);
}

static void test_stats(void)
{
	struct duration_stats stats = {};
	char buf[128];
	int us;

	duration_stats_fmt(&stats, buf, sizeof(buf));
	check(!strcmp(buf, "no samples"), "stats: no samples says so", "got '%s'", buf);

	/* 100 down to 1 us: mean 50.5, rank 50 is 50 us, rank 99 is 99 us */
	for (us = 100; us >= 1; us--)
		duration_stats_add(&stats, us * NS_PER_US);
	duration_stats_fmt(&stats, buf, sizeof(buf));
	check(!strcmp(buf, "mean 50.5 us, median 50.0 us, p99 99.0 us, max 100.0 us"),
	      "stats: 1..100 us give mean, nearest-rank median and p99, max", "got '%s'", buf);
	duration_stats_free(&stats);

	/* 5 s does not fit a u32 of ns: kept as 4.29 s, but mean and max exact */
	duration_stats_add(&stats, 5000000000ULL);
	duration_stats_fmt(&stats, buf, sizeof(buf));
	check(!strcmp(buf, "mean 5000000.0 us, median 4294967.3 us, p99 4294967.3 us, max 5000000.0 us"),
	      "stats: a sample above 4.29 s saturates in percentiles only", "got '%s'", buf);
	duration_stats_free(&stats);
}

int main(void)
{
	/* Each line out as it is printed: a crash loses none of them. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_splitmix64();
	test_draws();
	test_range_bounds();
	test_stats();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
