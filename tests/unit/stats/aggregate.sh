#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the loader's aggregation (loader/stats/aggregate.c; no BPF,
# no VM); what the reports print of it: tests/unit/report/report.sh.

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_aggregate || exit
cd "$top" && exec build/tests/test_aggregate
