#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit test of the logical idle periods (loader/stats/logical.h).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_logical || exit
cd "$top" && exec build/tests/test_logical
