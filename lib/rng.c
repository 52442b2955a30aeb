// SPDX-License-Identifier: GPL-2.0
/*
 * splitmix64 (Steele, Lea, Flood 2014) and the draws built on it; see
 * rng.h.  The arithmetic is part of every seed's meaning: a change here
 * changes every workload's sequence and every genrec file.
 */
#include <math.h>
#include "rng.h"

void rng_seed(struct rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t rng_u64(struct rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int64_t rng_range(struct rng *rng, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1;

	/* Lemire's multiply-shift: bias below 2^-40 for the spans used here */
	if (span == 0)
		return (int64_t)rng_u64(rng);
	return lo + (int64_t)(((__uint128_t)rng_u64(rng) * span) >> 64);
}

double rng_unit(struct rng *rng)
{
	/* the top 53 bits: every double in [0, 1) with that spacing */
	return (rng_u64(rng) >> 11) * 0x1.0p-53;
}

double rng_exp(struct rng *rng, double mean)
{
	/* inversion; 1 - u is in (0, 1], so the log is finite */
	return -mean * log(1.0 - rng_unit(rng));
}

double rng_normal(struct rng *rng)
{
	/* 1 - u is in (0, 1], so the log is finite */
	double u = 1.0 - rng_unit(rng), v = rng_unit(rng);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}
