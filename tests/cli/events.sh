#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Where a workload's events come from (issue 26, item 1): `idlescope report
# -w LIST` on a genrec file (clock virtual; workloads periodic1ms,
# pingpong, poisson2ms, idle) with a list that calls poisson2ms host-timed
# marks its headline rows ^, says so under the headline, and gives every
# headline cell of report.json its source; a bad list is one line and exit 1.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/idlescope || exit
L=$top/build/idlescope
"$top/build/genrec" -n 200000 -c 2 -s 7 -o "$tmp/g.rec" ||
	{ echo "FAIL: events: genrec failed"; exit 1; }
# NAME SUITES EVENTS COMMAND, as workloads/suite.txt
cat >"$tmp/list.txt" <<'LIST'
# a comment, then an empty line

periodic1ms     default         timer   periodic -d $d
pingpong        default         ipi     pingpong -d $d
poisson2ms      default         host    poisson -d $d
idle            default         device  idle -d $d
LIST
mkdir "$tmp/out"
"$L" report -w "$tmp/list.txt" -o "$tmp/out" "$tmp/g.rec" >"$tmp/report.txt" 2>"$tmp/err"
rc=$?
check -m "exit $rc: $(head -c 300 "$tmp/err")" "events: report -w takes the list" [ $rc = 0 ]

# The headline's first screen: up to the seed method.
awk '/^== seed method/ { exit } { print }' "$tmp/out/report.txt" >"$tmp/headline.txt"
marked=$(grep -c '^poisson2ms^ ' "$tmp/headline.txt")
check -m "$marked rows" "events: the host-timed workload's 5 headline rows are marked ^" \
	[ "$marked" = 5 ]
check -m "$(grep -c '^[a-z0-9][a-z0-9]*^ ' "$tmp/headline.txt") marked rows in all" \
	"events: no other workload is marked" \
	[ "$(grep -c '^[a-z0-9][a-z0-9]*^ ' "$tmp/headline.txt")" = 5 ]
check -m "$(grep '^events:' "$tmp/headline.txt")" "events: the sources line names each workload's" \
	grep -qx 'events: timer: periodic1ms; ipi: pingpong; device: idle; host: poisson2ms' \
	"$tmp/headline.txt"

got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted({"%s:%s:%s" % (h["workload"], h["events"], h["host_timed"])
                      for h in d["headline"] + d["headline_logical"]})))' "$tmp/out/report.json")
check -m "got '$got'" "events: report.json gives every headline cell its source" \
	[ "$got" = "idle:device:False periodic1ms:timer:False pingpong:ipi:False poisson2ms:host:True" ]

printf 'periodic1ms default bogus periodic\n' >"$tmp/bad.txt"
check_error "events: an unknown EVENTS word is one error" \
	"bad.txt:1: workload periodic1ms: EVENTS must be timer, ipi, device or host, not 'bogus'" \
	"$L" report -w "$tmp/bad.txt" "$tmp/g.rec"
check_error "events: an unreadable list is one error" "cannot read the workload list" \
	"$L" report -w "$tmp/nonexistent" "$tmp/g.rec"
