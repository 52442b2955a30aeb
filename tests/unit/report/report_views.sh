#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the views across governors: report.txt's first
# sections, summary.md and the per-workload SVG (no BPF, no VM).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_report_views || exit
cd "$top" && exec build/tests/test_report_views
