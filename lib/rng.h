/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seeded PRNG for everything idlescope draws at random (the workloads'
 * sleeps and disk blocks, bench/genrec's synthetic records): splitmix64,
 * tiny and the same sequence on every machine, so one seed is one fixed
 * sequence of draws and two runs with the same seed ask for the same thing.
 */
#ifndef __RNG_H
#define __RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

void rng_seed(struct rng *rng, uint64_t seed);
uint64_t rng_u64(struct rng *rng);
/* Uniform integer in [lo, hi] (lo <= hi). */
int64_t rng_range(struct rng *rng, int64_t lo, int64_t hi);
/* Uniform double in [0, 1). */
double rng_unit(struct rng *rng);
/* Exponentially distributed with the given mean (a Poisson process gap). */
double rng_exp(struct rng *rng, double mean);
/* Standard normal (Box-Muller, one of the pair: two draws per call). */
double rng_normal(struct rng *rng);

#endif /* __RNG_H */
