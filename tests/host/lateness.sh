#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the timer lateness histogram (no BPF, no VM).

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/test/test_lateness
mkdir -p "$(dirname "$bin")"
gcc -O2 -g -Wall -Wextra -I"$top/bpf" -I"$top/loader" -I"$top/tests/host" \
	"$top/tests/host/test_lateness.c" -o "$bin" ||
	{ echo "FAIL: lateness: test program does not build"; exit 1; }
"$bin"
