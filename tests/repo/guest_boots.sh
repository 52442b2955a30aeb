#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/guest/boots.txt, the boots that run the guest suites side by side
# (tests/vm/suite.sh): every guest suite runs in exactly one boot, every
# name there is a guest suite, and a boot named twice or a boot that is
# not in the list is refused before anything boots.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
list=$top/tests/guest/boots.txt

plan 4

# listed: every suite of every boot, one a line.
listed=$(awk '$1 !~ /^#/ && NF { for (i = 2; i <= NF; i++) print $i }' "$list")
missing=
for t in "$top"/tests/guest/*.sh; do
	n=$(basename "$t" .sh)
	[ "$(grep -cx -- "$n" <<<"$listed")" = 1 ] || missing="$missing $n"
done
check -m "not in exactly one boot:$missing" "guest boots: every guest suite runs in exactly one boot" \
	[ -z "$missing" ]
unknown=
for n in $listed; do
	[ -f "$top/tests/guest/$n.sh" ] || unknown="$unknown $n"
done
check -m "no such suite:$unknown" "guest boots: every suite a boot names exists" [ -z "$unknown" ]
check -m "$(bash "$top/tests/vm/suite.sh" --boots | tr '\n' ' ')" \
	"guest boots: no boot is named twice" \
	[ -z "$(bash "$top/tests/vm/suite.sh" --boots | sort | uniq -d)" ]
error_status=2 check_error "guest boots: a boot not in the list is one line of error" \
	"^suite: no boot 'nosuch' in .*boots.txt$" bash "$top/tests/vm/suite.sh" nosuch
