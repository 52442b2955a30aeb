#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of why the periods missed and what they cost
# (loader/stats/why.c, wakeup.c, tickstop.c, energy.c).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_why || exit
cd "$top" && exec build/tests/test_why
