#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of judging each period by its wake-up (loader/stats/period.h).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_wakeup || exit
cd "$top" && exec build/tests/test_wakeup
