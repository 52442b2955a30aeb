#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `idlescope extract` against the record files of issue 39's fuzzing round
# (tests/hostile/recfile_cases.c): each one a hang, a trace of sleeps no run
# had with exit 0, a raw line written into the trace, or a damaged file
# taken in silence, before.  Times past 2^63 ns, a CPU's periods repeated
# or overlapping are one error line and exit 1; a cut, killed or
# zero-filled file extracts with a warning; -o on a full disk leaves the
# previous trace.  The loader runs as the ASan/UBSan build.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/extract
plan 16
rm -rf "$out"
mkdir -p "$out/cases"
cd "$out" || exit 1
asan_suite extract
"$top/build/genrec" -n 600 -c 2 -o base.rec &&
	"$top/build/tests/recfile_cases" cases base.rec cases || exit 1
c=cases

# A period at 2^62 ns, the last of its CPU: the worst window's search once
# walked the empty span between, 50 ms at a time (and wrapped near 2^64).
timeout 60 "$L" extract "$c/enter-2^62-last.rec" -o far.trace 2>far.err
rc=$?
check -m "exit $rc: $(head -c 300 far.err)" \
	"extract: a period at 2^62 ns, its CPU's last, is extracted without walking the span" \
	[ $rc = 0 -a "$(grep -c '^sleep ' far.trace 2>/dev/null)" -gt 0 ]
error_status=1
check_error "extract: a period that ends past 2^63 ns is one error, not a hang" \
	"record 600: cpu 1's period of [0-9]+ ns from 18446744073709551610 ns ends past 2\\^63 ns" \
	timeout 60 "$L" extract "$c/enter-2^64.rec"
check_error "extract: a period at 2^62 ns amid its CPU's is one error" \
	"cpu 0's period enters at [0-9]+ ns, before its last one ended \\(4611686018" \
	"$L" extract "$c/enter-2^62.rec" --all

# Periods that come twice, or overlap: no run had them.
check_error "extract: a data section written twice is one error" \
	"record 601: cpu 0's period 0 after its period 299: periods repeated or out of order" \
	"$L" extract "$c/data-twice.rec" --all
check_error "extract: a record repeated is one error" \
	"record 22: cpu 0's period 10 after its period 10: periods repeated" \
	"$L" extract "$c/record-repeated.rec" --all
check_error "extract: a period entering before its CPU's last one ended is one error" \
	"record 31: cpu 0's period enters at [0-9]+ ns, before its last one ended .*overlapping" \
	"$L" extract "$c/records-overlap.rec" --all
unset error_status

# A wake-up name from the trailer with a newline and an escape sequence:
# the sleep's WHAT, escaped, on its own line.
"$L" extract "$c/wake-name-newline.rec" --all -o newline.trace 2>newline.err
rc=$?
stray=$(grep -cvE '^(idlescope-trace 2|# .*|tick_ns [0-9]+|origin_ns [0-9]+|cpus [0-9]+|sleep [0-9]+ [0-9]+ [0-9]+ [a-z]+( [ -~]*)?)$' \
	newline.trace)
check -m "exit $rc, $stray stray lines: $(head -c 300 newline.err)" \
	"extract: a wake-up name with a newline writes no line of its own into the trace" \
	[ $rc = 0 -a "$stray" = 0 -a "$(grep -c '^sleep ' newline.trace)" = 600 ]
check "extract: ... its bytes escaped in the sleep's WHAT" \
	grep -qF 'sleep 0 0 992702 timer hrtimer fn\x0asleep 0 0 1 ipi\x1b[2J' newline.trace

# Damaged ends: extracted, and said.
"$L" extract "$c/killed-cut.rec" --all >killed.trace 2>killed.err
check -m "$(cat killed.err)" "extract: a killed loader's file extracts, saying its last record was cut" \
	[ $? = 0 -a -n "$(grep -x 'idlescope: warning: cases/killed-cut.rec: last record cut short, ignored' killed.err)" ]
check "extract: ... and that the loader did not finish it" \
	grep -q '^idlescope: warning: cases/killed-cut.rec: the loader did not finish it' killed.err
"$L" extract "$c/zero-tail.rec" --all >zeros.trace 2>zeros.err
check -m "$(cat zeros.err)" "extract: a zero-filled tail ends the periods, with a warning" \
	[ $? = 0 -a "$(grep -c '^sleep ' zeros.trace)" = 10 -a \
	  -n "$(grep -x 'idlescope: warning: cases/zero-tail.rec: record 11 is all zeros: the records end there' zeros.err)" ]

# -o on a full disk (a file size limit stands for one): the write fails in
# the middle, and the trace written before stays whole.
"$L" extract base.rec --all -o keep.trace 2>/dev/null && cp keep.trace before.trace
(trap '' XFSZ; ulimit -f 8
	error_status=1 check_error "extract -o on a full disk is one error" \
		'writing keep.trace: File too large' "$L" extract "$c/names.rec" --all -o keep.trace)
check "extract -o: ... which leaves the previous trace as it was" cmp -s before.trace keep.trace
check "extract -o: ... and no temporary file" [ "$(ls | grep -c '^keep\.trace\.tmp\.')" = 0 ]

# Names the user gave, in error lines: one line each.
cp base.rec "$(printf 'new\nline').rec"
error_status=1 check_error "extract: an error naming a file with a newline stays one line" \
	'new\\x0aline.rec: no period of that workload' \
	"$L" extract "$(printf 'new\nline').rec" -w nosuch
error_status=2 check_error "extract: a usage error naming a governor with an escape stays one line" \
	'-g a\\x1b\[2Jb: no such governor' "$L" extract base.rec -g "$(printf 'a\033[2Jb')"
