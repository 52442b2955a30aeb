#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm/run.sh's contract: the guest command's exit status becomes the runner's,
# and a kernel panic is a distinct failure with a one-line reason, well
# within the timeout.  The hang is a busy loop: in the virtual clock (sleep=off)
# an idle guest skips ahead, so a sleeping command would end.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
share=$top/build/test/vm-runner
rm -rf "$share"
mkdir -p "$share"

"$top/vm/run.sh" -s "$share/exit3" -t 300 -- 'exit 3' >"$share/exit3.log" 2>&1
rc=$?
check "runner: a guest command exiting 3 makes the runner exit 3 (got $rc)" [ $rc = 3 ]

start=$(date +%s)
"$top/vm/run.sh" -s "$share/panic" -t 300 -- 'echo c >/proc/sysrq-trigger' \
	>"$share/panic.log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))
reason=$(grep '^vm: error:' "$share/panic.log")
check "runner: a guest panic exits 125 (got $rc)" [ $rc = 125 ]
check "runner: a guest panic is reported in one line ($reason)" \
	[ "$(echo "$reason" | grep -c 'kernel panic')" = 1 ]
check "runner: a guest panic ends before the timeout (${elapsed}s)" [ $elapsed -lt 300 ]

"$top/vm/run.sh" -s "$share/timeout" -t 20 -- 'while :; do :; done' >"$share/timeout.log" 2>&1
rc=$?
check "runner: a guest that hangs times out with 124 (got $rc)" [ $rc = 124 ]
