#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of per-governor shadow scoring and ideal-state scoring.

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/test/test_scoring
mkdir -p "$(dirname "$bin")"
gcc -O2 -g -Wall -Wextra -I"$top/bpf" -I"$top/loader" "$top/tests/host/test_scoring.c" \
	"$top/loader/aggregate.c" "$top/loader/inputs.c" "$top/loader/ci.c" -lm -o "$bin" ||
	{ echo "FAIL: scoring: test program does not build"; exit 1; }
"$bin"
