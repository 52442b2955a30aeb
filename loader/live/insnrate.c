// SPDX-License-Identifier: GPL-2.0
/*
 * insnrate.c - guest time per instruction (see insnrate.h).
 */
#include <time.h>
#include "live/insnrate.h"

#define LOOP_ITERATIONS		100000ULL	/* two instructions each */
#define LOOP_INSNS		(2 * LOOP_ITERATIONS)
#define ROUNDS			3

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Guest ns of one run of the loop: dec and jnz, LOOP_ITERATIONS times. */
static __u64 time_loop_ns(void)
{
	__u64 left = LOOP_ITERATIONS, start = now_ns();

#if defined(__x86_64__)
	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(left));
#else
	return 0;
#endif
	return now_ns() - start;
}

__u32 insnrate_measure_ps(void)
{
	__u64 best_ns = 0, ns;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		ns = time_loop_ns();
		if (ns && (!best_ns || ns < best_ns))
			best_ns = ns;
	}
	/* ps per instruction: ns * 1000 / instructions, rounded */
	return (best_ns * 1000 + LOOP_INSNS / 2) / LOOP_INSNS;
}
