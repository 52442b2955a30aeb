#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the workloads' own figures: the figures file reader and its
# report table and JSON (build/tests/test_figures), and each parser of
# vm/guest/figures.sh on a real output of its program, kept in
# tests/host/fixtures/figures/PARSER.out (captured in the guest): the exact
# figures it gives (PARSER.want), and the output cut to less than half (no
# summary line left whole) is one
# error line naming the program, exit status 1.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$top/tests/host/fixtures/figures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
parsers=$(cd "$fixtures" && ls *.out | sed 's/\.out$//')
# The reader's 17 checks, two per parser, one for an unknown parser.
plan $((17 + 2 * $(echo $parsers | wc -w) + 1))

make -s -C "$top" --no-print-directory build/tests/test_figures || exit
"$top/build/tests/test_figures"

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
