#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the confidence intervals (loader/stats/ci.c).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_ci || exit
cd "$top" && exec build/tests/test_ci
