#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run.sh runs the VM suites side by side: on a copy of the runner
# with stand-in suites that only sleep and say when they ran, with
# TEST_JOBS=2 the guest suites' two boots (tests/vm/suite.sh BOOT) overlap,
# the guest suite a boot left is judged,
# a suite marked "# test-qemus: 2" runs with nothing beside it, every
# suite's checks are counted once, and a bad TEST_JOBS is one line of
# error.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 5

mkdir -p "$tmp/tests/repo" "$tmp/tests/vm" "$tmp/tests/guest" "$tmp/scripts"
cp "$top/tests/run.sh" "$top/tests/lib.sh" "$tmp/tests/"
# The runner watches each VM suite's boots through it.
cp "$top/scripts/progress.py" "$tmp/scripts/"
times=$tmp/times.txt

# stand_in NAME SECONDS: a suite of one check that notes its start and end.
stand_in() {
	cat <<EOF
. "$tmp/tests/lib.sh"
echo "$1 start \$(date +%s.%N)" >>"$times"
sleep $2
echo "$1 end \$(date +%s.%N)" >>"$times"
plan 1
pass "stand-in: $1 ran"
EOF
}
stand_in host 0 >"$tmp/tests/repo/one.sh"
# The boots' stand-in: boot a leaves the log of one guest suite, g.
: >"$tmp/tests/guest/g.sh"
{
	echo '[ "$1" = --boots ] && { echo a; echo b; exit; }'
	echo "g=$tmp/build/test/vm-suite/guest"
	echo 'if [ "$1" = a ]; then mkdir -p $g; printf "PLAN: 1\nPASS: stand-in: guest g ran\n" >$g/g.log; echo 0 >$g/g.status; fi'
	stand_in 'boot-$1' 2
} >"$tmp/tests/vm/suite.sh"
stand_in small 1 >"$tmp/tests/vm/small.sh"
{
	echo '# test-qemus: 2'
	stand_in pair 1
} >"$tmp/tests/vm/pair.sh"

TEST_JOBS=2 bash "$tmp/tests/run.sh" >"$tmp/out.txt" 2>&1
rc=$?
check -m "status $rc: $(tail -n 1 "$tmp/out.txt")" "runner jobs: six stand-in suites, six checks passed" \
	[ $rc = 0 -a "$(tail -n 1 "$tmp/out.txt")" = "6 passed, 0 failed" ]

# overlap A B: the runs of stand-ins A and B share some time.
overlap() {
	awk -v a="$1" -v b="$2" '{ t[$1 " " $2] = $3 }
		END { exit !(t[a " start"] < t[b " end"] && t[b " start"] < t[a " end"]) }' "$times"
}
check -m "$(tr '\n' ' ' <"$times")" "runner jobs: the guest suites' two boots run side by side" \
	overlap boot-a boot-b
alone=yes
for s in boot-a boot-b small; do
	overlap pair $s && alone=no
done
check -m "$(tr '\n' ' ' <"$times")" "runner jobs: a suite of two QEMUs runs with nothing beside it" \
	[ $alone = yes ]
check -m "$(grep -c '^== vm/' "$tmp/out.txt") vm lines" "runner jobs: each VM suite is judged once" \
	[ "$(grep '^== vm/' "$tmp/out.txt" | sort | tr '\n' ' ')" = \
		"== vm/pair == vm/small == vm/suite-a == vm/suite-b " ]
error_status=2 check_error "runner jobs: TEST_JOBS=0 is one line of error" \
	"TEST_JOBS must be a positive number, not '0'" env TEST_JOBS=0 bash "$tmp/tests/run.sh"
