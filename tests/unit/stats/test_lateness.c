// SPDX-License-Identifier: GPL-2.0
/*
 * test_lateness - the timer lateness histogram of bpf/idlescope.h and
 * loader/stats/lateness.h with known values: slot boundaries, percentiles,
 * summing CPUs.  Exit status 1 if any check failed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include "stats/lateness.h"
#include "check.h"

static void test_slots(void)
{
	unsigned int slot;
	bool ok = true;

	CHECK_EQ("lateness: 0..3 ns have a slot each", idlescope_lateness_slot(3), 3);
	CHECK_EQ("lateness: 4 ns starts slot 4", idlescope_lateness_slot(4), 4);
	CHECK_EQ("lateness: 7 ns is slot 7", idlescope_lateness_slot(7), 7);
	/* 1000 = 0b1111101000: k = 9, next two bits 11: 4 * 8 + 3 */
	CHECK_EQ("lateness: 1000 ns is slot 35", idlescope_lateness_slot(1000), 35);
	CHECK_EQ("lateness: ... whose low end is 896 ns", idlescope_lateness_slot_low(35), 896);
	CHECK_EQ("lateness: values past 2^33 ns share the last slot",
		 idlescope_lateness_slot(~0ULL), IDLESCOPE_LATENESS_SLOTS - 1);
	/* Every slot's low end falls in that slot, one below in the one before. */
	for (slot = 1; slot < IDLESCOPE_LATENESS_SLOTS; slot++) {
		__u64 low = idlescope_lateness_slot_low(slot);

		ok &= idlescope_lateness_slot(low) == slot &&
		      idlescope_lateness_slot(low - 1) == slot - 1;
	}
	check(ok, "lateness: slots are contiguous and ordered", "a slot's low end is off");
}

static void test_percentiles(void)
{
	struct idlescope_lateness cpus[2] = {}, sum;
	int i;

	CHECK_EQ("lateness: nothing measured: percentile 0",
		 lateness_percentile_ns(&cpus[0], 50), 0);
	for (i = 0; i < 99; i++)
		lateness_add(&cpus[i % 2], 1000);
	lateness_add(&cpus[1], 1000000);
	lateness_sum_cpus(&sum, cpus, 2);
	CHECK_EQ("lateness: two CPUs sum to 100 wake-ups", sum.count, 100);
	CHECK_EQ("lateness: ... and the larger max", sum.max_ns, 1000000);
	CHECK_EQ("lateness: ... and the sum", sum.sum_ns, 99 * 1000 + 1000000);
	CHECK_EQ("lateness: median of 99 x 1000 ns and 1 ms is 1000 ns's slot",
		 lateness_percentile_ns(&sum, 50), 896);
	CHECK_EQ("lateness: p99 is still in it", lateness_percentile_ns(&sum, 99), 896);
	CHECK_EQ("lateness: p100 is the 1 ms slot",
		 lateness_percentile_ns(&sum, 100),
		 idlescope_lateness_slot_low(idlescope_lateness_slot(1000000)));
	CHECK_EQ("lateness: p0.5 is the smallest value's slot",
		 lateness_percentile_ns(&cpus[0], 0.5), 896);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_slots();
	test_percentiles();
	printf("# %d passed, %d failed\n", nr_passed, nr_failed);
	return check_done();
}
