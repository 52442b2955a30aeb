#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm/run.sh's contract: the guest command's exit status becomes the runner's,
# and a kernel panic is a distinct failure with a one-line reason (125, not
# the timeout's 124: the runner saw the panic, it did not wait the timeout
# out).  The hang is a busy loop: in the virtual clock (sleep=off) an idle
# guest skips ahead, so a sleeping command would end.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
share=$top/build/test/vm-runner
rm -rf "$share"
mkdir -p "$share"
plan 4

"$top/vm/run.sh" -s "$share/exit3" -t 300 -- 'exit 3' >"$share/exit3.log" 2>&1
rc=$?
check -m "got $rc" "runner: a guest command exiting 3 makes the runner exit 3" [ $rc = 3 ]

"$top/vm/run.sh" -s "$share/panic" -t 300 -- 'echo c >/proc/sysrq-trigger' \
	>"$share/panic.log" 2>&1
rc=$?
reason=$(grep '^vm: error:' "$share/panic.log")
check -m "got $rc" "runner: a guest panic exits 125" [ $rc = 125 ]
check -m "$reason" "runner: a guest panic is reported in one line" \
	[ "$(echo "$reason" | grep -c 'kernel panic')" = 1 ]

"$top/vm/run.sh" -s "$share/timeout" -t 20 -- 'while :; do :; done' >"$share/timeout.log" 2>&1
rc=$?
check -m "got $rc" "runner: a guest that hangs times out with 124" [ $rc = 124 ]
