// SPDX-License-Identifier: GPL-2.0
/*
 * test_summaries - the BPF side's per-period summary arithmetic of
 * bpf/idlescope_summary.h, which user space runs on records too, with
 * known values: the within-F counts at each factor's exact boundary, the
 * zeros, values past the clamp.  Exit status 1 if any check failed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "stats/summaries.h"
#include "check.h"

/* The within counts of one prediction, as a string "11111". */
static const char *within_of(__u64 predicted_ns, __u64 actual_ns)
{
	static char out[IDLESCOPE_NR_FACTORS + 1];
	__u64 within[IDLESCOPE_NR_FACTORS] = {};
	int i;

	idlescope_within_add(within, predicted_ns, actual_ns);
	for (i = 0; i < IDLESCOPE_NR_FACTORS; i++)
		out[i] = '0' + within[i];
	out[i] = '\0';
	return out;
}

#define CHECK_WITHIN(name, p, a, want)					\
	check(!strcmp(within_of(p, a), want), name, "got %s, want %s",	\
	      within_of(p, a), want)

static void test_within(void)
{
	/* Factors 1.5x 2x 4x 10x 100x, in that order. */
	CHECK_WITHIN("summary: equal values are within every factor", 1000, 1000, "11111");
	CHECK_WITHIN("summary: exactly 1.5x is within 1.5x", 1500, 1000, "11111");
	CHECK_WITHIN("summary: 1 ns past 1.5x is not", 1501, 1000, "01111");
	CHECK_WITHIN("summary: the order does not matter", 1000, 1501, "01111");
	CHECK_WITHIN("summary: exactly 2x", 2000, 1000, "01111");
	CHECK_WITHIN("summary: just past 4x", 4001, 1000, "00011");
	CHECK_WITHIN("summary: exactly 100x", 1, 100, "00001");
	CHECK_WITHIN("summary: past 100x is within none", 1, 101, "00000");
	CHECK_WITHIN("summary: a zero prediction is within none", 0, 1000, "00000");
	CHECK_WITHIN("summary: a zero actual is within none", 1000, 0, "00000");
	CHECK_WITHIN("summary: two zeros agree", 0, 0, "11111");
	/* Clamped to 2^56 ns: products with num < 128 stay in 64 bits. */
	CHECK_WITHIN("summary: both past the clamp agree", ~0ULL, 1ULL << 60, "11111");
	CHECK_WITHIN("summary: 2^56 against 2^55: within 2x, not 1.5x",
		     ~0ULL, 1ULL << 55, "01111");
}

static void test_add(void)
{
	struct idlescope_record rec = {};
	struct idlescope_summary s = {};
	const __u64 no_exit[IDLESCOPE_MAX_STATES] = {};

	rec.state = 2;
	rec.residency_ns = 3000;
	rec.predicted_ns = 1900;
	rec.flags = IDLESCOPE_F_PREDICTED | IDLESCOPE_F_MISS_BELOW;
	idlescope_summary_add(&s, &rec, no_exit);
	rec.flags = IDLESCOPE_F_MISS_ABOVE;
	idlescope_summary_add(&s, &rec, no_exit);
	CHECK_EQ("summary: two periods", s.periods, 2);
	CHECK_EQ("summary: one predicted", s.predicted, 1);
	CHECK_EQ("summary: 1900 against 3000 is within 2x", s.within[1], 1);
	CHECK_EQ("summary: ... not within 1.5x", s.within[0], 0);
	CHECK_EQ("summary: a miss of each kind", s.miss_above + 10 * s.miss_below, 11);
	CHECK_EQ("summary: both in state 2", s.state_periods[2], 2);
	CHECK_EQ("summary: 3 us is log2 bucket 1", s.woke_us_log2[1], 2);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_within();
	test_add();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
