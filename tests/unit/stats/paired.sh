#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of paired differences and regimes (loader/stats/paired.h,
# loader/stats/regimes.h).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_paired || exit
cd "$top" && exec build/tests/test_paired
