# SPDX-License-Identifier: GPL-2.0
#
# lib/: the few functions the workloads and bench/ share (the argp
# convention and value tables, the seeded PRNG, duration statistics).
# Programs compile the sources they need with -Ilib; no archive for a
# handful of functions.

LIB_ARGS := lib/args.c lib/args.h
LIB_RNG := lib/rng.c lib/rng.h
LIB_STATS := lib/stats.c lib/stats.h
