#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of lib/: the seeded PRNG and the duration statistics.

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/test/test_rng_stats
mkdir -p "$(dirname "$bin")"
gcc -O2 -g -Wall -Wextra -I"$top/lib" "$top/tests/host/test_rng_stats.c" \
	"$top/lib/rng.c" "$top/lib/stats.c" -lm -o "$bin" ||
	{ echo "FAIL: rng_stats: test program does not build"; exit 1; }
"$bin"
