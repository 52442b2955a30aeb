#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The loader's includes follow the layer order docs/layers.md writes down
# (tests/repo/layers.py): no include against it, no folder it does not
# place, no circle.  And the check can fail: on a copy of the loader with
# one include planted against the order, one planted circle and one new
# folder, it names each and exits 1; a table with a malformed line is one
# line of error and exit 2.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 5

check_layers=("$top/tests/repo/layers.py" "$top/docs/layers.md")
# says LINE: the last checker output holds LINE, whole.
says() { echo "$out" | grep -qxF -- "$1"; }
# clean: the checker passed and counted nothing against the order.
clean() { [ $rc = 0 ] && echo "$out" | tail -n 1 | grep -q ', 0 includes against the order, 0 circles$'; }
# broken LINE: the checker failed (1) and said LINE.
broken() { [ $rc = 1 ] && says "$1"; }
out=$("${check_layers[@]}" "$top/loader" 2>&1)
rc=$?
check -m "status $rc: $(echo "$out" | tr '\n' ' ')" \
	"layers: the loader's includes follow docs/layers.md, no circle" \
	clean

cp -a "$top/loader" "$tmp/loader"
# format/ (layer 1) reaching up into stats/.
sed -i '0,/#include "format\/escape.h"/s//&\n#include "stats\/ci.h"/' "$tmp/loader/format/escape.c"
# report/environment <-> report/headline, the circle this check opened.
echo '#include "report/environment.h"' >>"$tmp/loader/report/headline.h"
echo '#include "report/headline.h"' >>"$tmp/loader/report/environment.c"
mkdir "$tmp/loader/newfolder"
echo '/* nothing */' >"$tmp/loader/newfolder/x.c"
out=$("${check_layers[@]}" "$tmp/loader" 2>&1)
rc=$?
check -m "status $rc: $(echo "$out" | tr '\n' ' ')" \
	"layers: an include against the order is named, exit 1" \
	broken 'layers: format/escape.c includes stats/ci.h: stats (layer 5) is above format (1)'
check -m "$(echo "$out" | tr '\n' ' ')" "layers: a circle is named" \
	says 'circle: report/environment <-> report/headline'
check -m "$(echo "$out" | tr '\n' ' ')" "layers: a folder the order does not place is named" \
	says 'layers: newfolder/x.c: folder newfolder is in no layer'

printf '```layers\n1 format\nformat again\n```\n' >"$tmp/bad.md"
error_status=2 check_error "layers: a malformed table is one line of error" \
	"layers.py: $tmp/bad.md: a layers line is \"N FOLDER...\", not \"format again\"" \
	"$top/tests/repo/layers.py" "$tmp/bad.md" "$top/loader"
