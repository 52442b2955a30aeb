#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the confidence intervals (loader/ci.c).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/test/test_ci
mkdir -p "$(dirname "$bin")"
gcc -O2 -g -Wall -Wextra -I"$top/bpf" -I"$top/loader" -I"$top/lib" "$top/tests/host/test_ci.c" \
	"$top/loader/ci.c" "$top/lib/rng.c" -lm -o "$bin" ||
	{ echo "FAIL: ci: test program does not build"; exit 1; }
"$bin"
