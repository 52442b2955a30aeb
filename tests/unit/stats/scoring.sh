#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of ideal-state scoring (loader/stats/aggregate.c).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_scoring || exit
cd "$top" && exec build/tests/test_scoring
