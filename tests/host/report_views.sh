#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the views across governors: report.txt's first
# sections, summary.md and the per-workload SVG (no BPF, no VM).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/test/test_report_views
mkdir -p "$(dirname "$bin")"
gcc -O2 -g -Wall -Wextra -I"$top/bpf" -I"$top/loader" "$top/tests/host/test_report_views.c" \
	"$top/loader/aggregate.c" "$top/loader/inputs.c" "$top/loader/ci.c" "$top/loader/json.c" "$top/loader/headline.c" "$top/loader/report.c" "$top/loader/report_tables.c" "$top/loader/report_json.c" "$top/loader/table.c" \
	"$top/loader/summary.c" "$top/loader/plot.c" -lm -o "$bin" ||
	{ echo "FAIL: report_views: test program does not build"; exit 1; }
cd "$top" && "$bin"
