#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of lib/: the seeded PRNG and the duration statistics.

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_rng_stats || exit
exec "$top/build/tests/test_rng_stats"
