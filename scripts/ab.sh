#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make ab A=... B=...`: one governor against another on the same seeds,
# ending with the verdict.  A and B are [KERNEL:]GOVERNOR (KERNEL one of
# make run's KERNEL= values; none: KERNEL).  On one kernel, each boot runs
# both governors, their order turning with the seed (vm/guest/suite.sh),
# and `idlescope compare --pair A:B` pairs them by boot; on two, each
# kernel boots the same seeds with its governor, and compare pairs the
# two runs by seed.  Either way each pair's B - A is the unit, and the
# gate tests the primary rows (docs/ab.md).
#
# usage: scripts/ab.sh MAKE RUN_DIR KERNEL A B FAIL_ABOVE [MAKE_ARG...]
#   MAKE       the make to run make run with ($(MAKE))
#   RUN_DIR    where the boots and the verdict go
#   KERNEL     the kernel of a side that names none
#   FAIL_ABOVE the gate's points (compare --fail-above), empty: no gate
#   MAKE_ARGs  go to each make run (SEED=, REPEATS=, WORKLOAD_SET=, ...)
# Prints the verdict (RUN_DIR/verdict.txt) and exits with compare's
# status: 0, 1 a primary row worse by more than FAIL_ABOVE (flagged or
# untested), 2 an error.

set -uo pipefail

make=$1 dir=$2 default_kernel=$3 a=$4 b=$5 fail_above=$6
shift 6
top=$(cd "$(dirname "$0")/.." && pwd)
loader=$top/build/idlescope

die() {
	echo "ab: error: $1" >&2
	exit 2
}

# split SIDE: "KERNEL GOVERNOR" of [KERNEL:]GOVERNOR.
split() {
	case $1 in
	*:*) echo "${1%%:*} ${1#*:}" ;;
	*) echo "$default_kernel $1" ;;
	esac
}

[ -n "$a" ] && [ -n "$b" ] || die "usage: make ab A=[KERNEL:]GOVERNOR B=[KERNEL:]GOVERNOR"
read -r ka ga < <(split "$a")
read -r kb gb < <(split "$b")
[ -n "$ga" ] && [ -n "$gb" ] || die "A=$a B=$b: a side without a governor"
[ "$ka:$ga" != "$kb:$gb" ] || die "A and B are the same: $a"
mkdir -p "$dir" || die "cannot create $dir"
gate=()
[ -z "$fail_above" ] || gate=(--fail-above "$fail_above")

if [ "$ka" = "$kb" ]; then
	[ "$ga" != "$gb" ] || die "A and B are the same governor on one kernel"
	echo "ab: $ga against $gb on kernel $ka, both in every boot"
	"$make" --no-print-directory run KERNEL="$ka" GOVERNORS="$ga $gb" RUN_DIR="$dir" \
		RUN_LATEST= "$@" || die "the boots failed (make run, $dir)"
	sides=("$dir" "$dir")
	across=()
else
	echo "ab: $ga on kernel $ka against $gb on kernel $kb, the same seeds"
	"$make" --no-print-directory run KERNEL="$ka" GOVERNORS="$ga" RUN_DIR="$dir/A" \
		RUN_LATEST= "$@" || die "side A's boots failed (make run, $dir/A)"
	"$make" --no-print-directory run KERNEL="$kb" GOVERNORS="$gb" RUN_DIR="$dir/B" \
		RUN_LATEST= SEED="$(cut -d' ' -f3 "$dir/A/seed.txt")" "$@" ||
		die "side B's boots failed (make run, $dir/B)"
	sides=("$dir/A" "$dir/B")
	across=(--across kernel)
fi
"$loader" compare --pair "$ga:$gb" "${across[@]}" "${gate[@]}" --allow-missing \
	--html "$dir/verdict.html" "${sides[@]}" >"$dir/verdict.txt" 2>"$dir/verdict.err"
rc=$?
"$loader" compare --pair "$ga:$gb" "${across[@]}" --allow-missing -j "${sides[@]}" \
	>"$dir/verdict.json" 2>/dev/null
[ $rc -le 1 ] || { cat "$dir/verdict.err" >&2; die "compare failed (status $rc)"; }
# The verdict: the design, the family and the gate's power, then the
# primary rows, flagged ones marked, and the last line.
awk '/^design:|^primary rows|^detects/ { print; next }
	/^== primary rows/ { p = 1; print; next } /^== secondary rows/ { p = 0 }
	p && NF { print } END { }' "$dir/verdict.txt"
tail -n 1 "$dir/verdict.txt"
echo "ab: every row in $dir/verdict.txt, the page $dir/verdict.html"
exit $rc
