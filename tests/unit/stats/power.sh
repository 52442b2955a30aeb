#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host simulation of the A/B gate's coverage and power, through the code
# compare runs for a row (loader/stats/comparison.h); `build/tests/test_power
# --curve` prints the power curve of docs/ab.md.

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_power || exit
cd "$top" && exec build/tests/test_power
