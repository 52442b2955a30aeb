#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (`make test`): host tests, then VM tests in as few boots
# as possible.  Every check prints one line "PASS: name" or "FAIL: name: why";
# this script counts them and ends with "N passed, N failed".

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/test
rm -rf "$out"
mkdir -p "$out"
results=$out/results.txt
: >"$results"

# Run one test program, keep its PASS/FAIL lines; a program that dies
# without printing any counts as one failure.
run_test() {
	local name=$1
	shift
	echo "== $name"
	"$@" 2>&1 | tee "$out/$name.log" | grep -E '^(PASS|FAIL): '
	grep -qE '^(PASS|FAIL): ' "$out/$name.log" ||
		echo "FAIL: $name: printed no result (log: $out/$name.log)" | tee -a "$out/$name.log"
	grep -E '^(PASS|FAIL): ' "$out/$name.log" >>"$results"
}

for t in "$top"/tests/host/*.sh; do
	run_test "host-$(basename "$t" .sh)" bash "$t"
done
for t in "$top"/tests/vm/*.sh; do
	run_test "vm-$(basename "$t" .sh)" bash "$t"
done

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
if [ "$failed" -gt 0 ]; then
	echo "failed checks:"
	grep '^FAIL: ' "$results"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
