#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One boot runs every guest test script (tests/guest/*.sh, installed in the
# initramfs); their PASS/FAIL lines come back through the 9p share.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
share=$top/build/test/vm-suite
rm -rf "$share"
mkdir -p "$share"

"$top/vm/run.sh" -s "$share" -t 900 -- \
	'for t in /usr/share/idlescope/tests/*.sh; do sh "$t"; done 2>&1 | tee /host/results.txt' \
	>"$share/run.log" 2>&1
rc=$?
check "vm: the test boot ends with status 0 (log: $share/console.log)" [ $rc = 0 ]
if [ -s "$share/results.txt" ]; then
	tr -d '\r' <"$share/results.txt" | grep -E '^(PASS|FAIL): '
else
	fail "vm: guest tests reported results" "no $share/results.txt; tail of console: $(tail -n 5 "$share/console.log" | tr '\n' ' ')"
fi
