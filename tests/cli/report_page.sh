#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The report as a web page (issue 42): report.html, written with the set
# of `idlescope report -o DIR`, and compare --html's page, each opened in
# Debian's headless Chromium (tests/browser/page.js, playwright-core):
# it renders without a console or page error, asks for nothing outside
# the file, every number on it is its JSON document's (report.json,
# compare -j) and every chart point too; the report page has every
# headline share and a ratio plot per workload, the compare page its
# flagged rows first.  The reports come from genrec's synthetic records,
# so no boot; REPORT_PAGE_RUN=DIR takes a real run's record files instead
# (the README's picture).  Screenshots stay in out/ for a person to see:
# out/report-page.png (the top), out/report-page-full.png, out/compare-page.png.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/report_page
shots=$top/out
plan 16
run_dir=
if [ -n "${REPORT_PAGE_RUN:-}" ]; then
	run_dir=$(cd "$REPORT_PAGE_RUN" && pwd) || { echo "report_page: no run $REPORT_PAGE_RUN" >&2; exit 2; }
fi
rm -rf "$out"
mkdir -p "$out/run" "$shots"
cd "$out" || exit 1
if [ ! -f "$top/build/idlescope.skel.h" ]; then
	fail "report page: test programs build" "no build/idlescope.skel.h: run make loader first"
	exit 1
fi
make -s -C "$top" --no-print-directory build/idlescope build/genrec build/browser/ready \
	>build.log 2>&1 ||
	{ fail "report page: test programs build" "$(tail -n 3 build.log | tr '\n' ' ')"; exit 1; }
L=$top/build/idlescope
export NODE_PATH=$top/build/browser/node_modules

# browser KIND PAGE DOC SHOT [FULL]: page.js's checks (6 for a report, 5 for compare).
browser() {
	node "$top/tests/browser/page.js" "$@" 2>"browser-$1.err"
}

"$top/build/genrec" -n 40000 -c 2 -o a.rec &&
	"$top/build/genrec" -n 40000 -c 2 -s 2 -p 5 -w periodic1ms -o b.rec || exit 1
if [ -n "$run_dir" ]; then
	"$L" report "$run_dir" -o run -w "$top/workloads/suite.txt" >/dev/null 2>report.err
else
	"$L" report a.rec -o run >/dev/null 2>report.err
fi
check -m "$(head -n 1 report.err)" "report page: report -o writes report.html beside report.txt" \
	[ -s run/report.html -a -s run/report.txt ]
check "report page: its data block is report.json's document" python3 -c '
import json, re, sys
page = open(sys.argv[1]).read()
block = re.search(r"<script type=\"application/json\" id=\"data\">\n(.*?)</script>", page, re.S)
assert block and "<" not in block.group(1)
assert json.loads(block.group(1)) == json.load(open(sys.argv[2]))
' run/report.html run/report.json
rm -f "$shots"/report-page*.png "$shots/compare-page.png"
browser report run/report.html run/report.json "$shots/report-page.png" "$shots/report-page-full.png"
check -m "$shots/report-page.png" "report page: a screenshot of it is kept in out/" \
	[ -s "$shots/report-page.png" -a -s "$shots/report-page-full.png" ]

# compare: B has 5% of periodic1ms's predictions 64x off: flagged, worse.
"$L" compare a.rec b.rec --fail-above 2 -j >compare.json
"$L" compare a.rec b.rec --fail-above 2 --html compare.html >compare.txt
rc=$?
check -m "exit $rc; $(tail -n 1 compare.txt)" \
	"compare page: --html writes the page and keeps the verdict (exit 1)" \
	[ $rc = 1 -a -s compare.html -a -n "$(tail -n 1 compare.txt | grep 'FAIL$')" ]
browser compare compare.html compare.json "$shots/compare-page.png"
error_status=2 check_error "compare page: a page that cannot be written is one line, exit 2" \
	"writing a.rec/c.html: " "$L" compare a.rec b.rec --html a.rec/c.html
