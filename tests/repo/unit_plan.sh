#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A C unit program prints its own plan (tests/unit/check.h: check_done()
# at the end of main), and the runner keeps its count honest with it: on a
# copy of tests/run.sh with three stand-in host suites (in tests/repo/ of
# the copy, where the runner looks for host suites), each running a
# small program built on check.h, the one that runs to its end passes on
# its own plan; the one that dies halfway prints no plan and is failed
# twice (no plan, abnormal end); the one with a failed check fails that
# check alone, its plan and exit status 1 taken as they are.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 3

mkdir -p "$tmp/tests/repo" "$tmp/bin"
cp "$top/tests/run.sh" "$top/tests/lib.sh" "$tmp/tests/"

# unit NAME BODY: build/NAME from a main() of check.h checks, BODY before
# its check_done(), and a stand-in suite that runs it as a wrapper does.
unit() {
	printf '#include <stdlib.h>\n#include "check.h"\nint main(void)\n{\n%s\n\treturn check_done();\n}\n' \
		"$2" >"$tmp/$1.c"
	${CC:-gcc} -Wall -Werror -Wno-unused-function -I"$top/tests/unit" "$tmp/$1.c" -o "$tmp/bin/$1" ||
		return
	printf 'exec "%s"\n' "$tmp/bin/$1" >"$tmp/tests/repo/$1.sh"
}
unit whole '	check(true, "unit: whole 1", "");
	CHECK_EQ("unit: whole 2", 2, 2);'
unit died '	check(true, "unit: died 1", "");
	abort();'
unit failed '	check(true, "unit: failed 1", "");
	CHECK_EQ("unit: failed 2", 1, 2);'

out=$(bash "$tmp/tests/run.sh" --host 2>&1)
# judged SUITE: the runner's own FAIL lines about stand-in SUITE, names only.
judged() { echo "$out" | sed -n "s|^FAIL: \(repo/$1: [^(]*\) (.*|\1|p" | sort -u | tr '\n' ';'; }
says() { echo "$out" | grep -qxF -- "$1"; }

check -m "runner: '$(judged whole)'; $(grep -h '^PLAN' "$tmp/build/test/repo-whole.log" 2>&1)" \
	"unit plan: a program run to check_done() passes on its own plan" \
	eval '[ -z "$(judged whole)" ] && says "PASS: unit: whole 2" &&
		grep -qx "PLAN: 2" "$tmp/build/test/repo-whole.log"'
check -m "runner: '$(judged died)'" \
	"unit plan: a program that dies before check_done() is failed: no plan, abnormal end" \
	[ "$(judged died)" = "repo/died: declares one plan;repo/died: ends normally;" ]
check -m "runner: '$(judged failed)'" \
	"unit plan: a failed check fails alone: its plan and status 1 stand" \
	eval '[ -z "$(judged failed)" ] && echo "$out" | grep -q "^FAIL: unit: failed 2 (got 1, want 2)$"'
