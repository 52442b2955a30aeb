#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Each parser of vm/guest/figures.sh, the guest's reader of the workloads'
# own figures, on a real output of its program, kept in
# tests/harness/fixtures/figures/PARSER.out (captured in the guest): the
# exact figures it gives (PARSER.want), and the output cut to less than
# half (no summary line left whole) is one error line naming the program,
# exit status 1.  (The loader's reader of the figures file is
# tests/unit/report/figures.sh.)

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/tests/harness/fixtures/figures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
parsers=$(cd "$fixtures" && ls *.out | sed 's/\.out$//')
# What a workload of ours delivered of its target (figures.sh delivered),
# from its summary lines: a run of each kind (irqtrain's second line is the
# stalled train of issue 36, 23.3 of 1000 Hz, in irqtrain's own format).
delivered=$top/tests/harness/fixtures/delivered
kinds=$(cd "$delivered" && ls *.out | sed 's/\.out$//')
# Two per parser, one for an unknown parser, one per delivered kind and one
# for a workload without a target.
plan $((2 * $(echo $parsers | wc -w) + 1 + $(echo $kinds | wc -w) + 1))

for p in $parsers; do
	got=$(sh "$top/vm/guest/figures.sh" "$p" "$fixtures/$p.out" 2>&1)
	check -m "got: $(echo "$got" | tr '\n' ';')" "figures: $p's output gives its figures" \
		[ "$got" = "$(cat "$fixtures/$p.want")" ]
	lines=$(grep -c '' "$fixtures/$p.out")
	head -n $(((lines - 1) / 2)) "$fixtures/$p.out" >"$tmp/$p.cut"
	error_status=1 check_error "figures: $p's output cut in half is one error naming it" \
		"^figures: $p: no " sh "$top/vm/guest/figures.sh" "$p" "$tmp/$p.cut"
done
error_status=2 check_error "figures: an unknown parser is one error" "unknown parser 'frob'" \
	sh "$top/vm/guest/figures.sh" frob "$fixtures/$(echo $parsers | cut -d' ' -f1).out"

for k in $kinds; do
	got=$(sh "$top/vm/guest/figures.sh" delivered "$delivered/$k.out" 2>&1)
	check -m "got: $got" "figures: delivered: $k's summary lines give the worse instance's share" \
		[ "$got" = "$(cat "$delivered/$k.want")" ]
done
printf 'iowait: /dev/vda, 5000 reads\n' >"$tmp/none.out"
got=$(sh "$top/vm/guest/figures.sh" delivered "$tmp/none.out" 2>&1)
rc=$?
check -m "exit $rc, got '$got'" "figures: delivered: a workload without a target gives nothing, exit 0" \
	[ $rc = 0 -a -z "$got" ]
