#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of report.txt's first screen (loader/headline.c).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/test/test_headline
mkdir -p "$(dirname "$bin")"
gcc -O2 -g -Wall -Wextra -I"$top/bpf" -I"$top/loader" "$top/tests/host/test_headline.c" \
	"$top/loader/aggregate.c" "$top/loader/inputs.c" "$top/loader/ci.c" "$top/loader/json.c" "$top/loader/headline.c" \
	"$top/loader/report.c" "$top/loader/report_tables.c" "$top/loader/report_json.c" "$top/loader/table.c" "$top/loader/dashboard.c" -lm -o "$bin" ||
	{ echo "FAIL: headline: test program does not build"; exit 1; }
"$bin"
