#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The report set of -o DIR is all or nothing (issue 24): `idlescope report
# NEW -o DIR` over DIR holding OLD's set is stopped at every step of its
# write (loader/output/fault.h: the sanitizer build's fault points) by an
# injected error, by SIGINT and by SIGKILL, and DIR must then hold exactly
# OLD's set or NEW's, never a mix: at once after an error or a signal,
# and, after a SIGKILL in the middle of the swap, once the next write has
# rolled the dead one's swap back.  Then what stands in the set's way (a
# directory summary.md, a file plots) is one error line, and nothing
# written.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/reportset
plan 12
rm -rf "$out"
mkdir -p "$out/cases"
cd "$out" || exit 1
asan_suite reportset

# OLD: one workload, one plot; NEW: six workloads, six plots.
"$top/build/genrec" -n 200 -c 2 -o old.rec && "$top/build/genrec" -n 600 -c 2 -o base.rec &&
	"$top/build/tests/recfile_cases" cases base.rec cases && cp cases/names.rec new.rec || exit 1
mkdir old new && "$L" report old.rec -o old >/dev/null && "$L" report new.rec -o new >/dev/null ||
	exit 1

# set_is DIR REF: DIR's set is REF's, byte for byte (temporaries aside).
set_is() {
	diff -r -x '.idlescope-tmp.*' "$1" "$2" >/dev/null 2>&1
}
temporaries() {
	ls -A "$1" | grep -c '^\.idlescope-tmp\.'
}

# The fault points of one write over an old set: until one is not reached.
steps=0
while :; do
	rm -rf d && cp -r old d
	IDLESCOPE_FAULT=$((steps + 1)):error "$L" report new.rec -o d >/dev/null 2>err
	grep -q "^idlescope: fault $((steps + 1)): " err || break
	steps=$((steps + 1))
done
echo "reportset: $steps fault points"
check -m "$steps" "reportset: the write has a fault point at each step (20 or more)" [ "$steps" -ge 20 ]

# write_stopped K ACTION: the write of NEW over OLD's set, stopped at step K;
# its exit status in $rc, its stderr in err (bash's "Killed" line aside).
write_stopped() {
	rm -rf d && cp -r old d
	(IDLESCOPE_FAULT=$1:$2 "$L" report new.rec -o d >/dev/null 2>err; echo $? >rc) 2>/dev/null
	rc=$(cat rc)
}

# interrupt ACTION: for each step, a write stopped there; the steps after
# which DIR is not OLD's set or NEW's in $bad, those with NEW's in $new.
# After an error, also: exit 1 with one error line and no temporary, or
# (the error hit only the tidying up) exit 0 with the new set.
interrupt() {
	local action=$1 k
	bad= new=
	for k in $(seq 1 "$steps"); do
		write_stopped "$k" "$action"
		if [ "$action" = kill ]; then
			# The next write: it rolls back or removes the dead one's, then fails.
			IDLESCOPE_FAULT=1:error "$L" report new.rec -o d >/dev/null 2>/dev/null
		fi
		if [ "$action" = error ] && [ "$(temporaries d)" != 0 -o \
			"$rc:$(grep -vc '^idlescope: fault' err)" != 1:1 -a "$rc" != 0 ]; then
			bad="$bad $k(exit $rc, $(grep -v '^idlescope: fault' err | tr '\n' ' '))"
		elif set_is d new; then
			new="$new $k"
		elif ! set_is d old; then
			bad="$bad $k"
		fi
	done
}

interrupt error
check -m "bad steps:$bad" "reportset: an error at any step: the old set and one error line, or the new set" \
	[ -z "$bad" ]
interrupt int
check -m "bad steps:$bad" "reportset: SIGINT at any step leaves the old set or the new one" [ -z "$bad" ]
check -m "new set after steps:$new" "reportset: ... the new one once the swap has begun (SIGINT waits for it)" \
	[ -n "$new" ]
interrupt kill
check -m "bad steps:$bad" "reportset: SIGKILL at any step, then the next write: the old set or the new one" \
	[ -z "$bad" ]
write_stopped $((steps - 2)) kill
"$L" report old.rec -o d >/dev/null 2>&1
check "reportset: ... and the next write leaves no temporary behind" [ "$(temporaries d)" = 0 ]

# What stands in the way is one error line, and nothing is written.
rm -rf d && cp -r old d && rm d/summary.md && mkdir -p d/summary.md/mine && cp -r d before
check_error "reportset: a directory where summary.md goes is one error" \
	"d/summary.md is in the way: a directory, not a report" "$L" report new.rec -o d
check "reportset: ... which leaves it and the old set as they were" diff -r before d
rm -rf d && cp -r old d && rm -r d/plots && echo mine >d/plots
check_error "reportset: a file where plots/ goes is one error" \
	"d/plots is in the way: not a directory, not the plot directory" "$L" report new.rec -o d
# Issue 39: the plot directory goes with the old set, whole: a file of the
# user's in it (a note, an SVG no report wrote) stands in the way.
rm -rf d before && cp -r old d && echo mine >d/plots/notes.txt && cp -r d before
check_error "reportset: a plot directory holding another file is one error, not deleted" \
	"d/plots is in the way: it holds notes.txt, not a plot of idlescope's" "$L" report new.rec -o d
check "reportset: ... which leaves that file and the old set as they were" diff -r before d
rm -rf d && cp -r old d && printf '<?xml version="1.0"?>\n<svg/>\n' >d/plots/mine.svg
check_error "reportset: ... also an SVG no report wrote" \
	"d/plots is in the way: it holds mine.svg, not a plot of idlescope's" "$L" report new.rec -o d
