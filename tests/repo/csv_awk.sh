#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# csv_awk (tests/lib.sh), the guest scripts' way to read `idlescope dump`
# by column name, under the guest's shell and awk: busybox sh and awk.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/csv_awk
plan 4
mkdir -p "$out"
# The columns in another order than dump's, a second file with yet another
# order: col[] follows each file's own header.
printf 'seq,governor,cpu\n7,menu,1\n8,teo,1\n9,menu,0\n' >"$out/a.csv"
printf 'cpu,seq,governor\n1,10,menu\n' >"$out/b.csv"

# bb PROGRAM: run PROGRAM with lib.sh under busybox sh, busybox awk first
# in PATH (the guest has no other).
bb() {
	mkdir -p "$out/bin"
	for t in awk grep sed sort head; do
		ln -sf /bin/busybox "$out/bin/$t"
	done
	PATH=$out/bin:$PATH /bin/busybox sh -c ". '$top/tests/lib.sh'; $1" 2>&1
}

if [ ! -x /bin/busybox ]; then
	for n in 1 2 3 4; do
		fail "csv_awk: check $n" "no /bin/busybox (apt-get install busybox-static)"
	done
	exit 0
fi
got=$(bb "csv_awk -v g=menu '\$col[\"governor\"] == g { s = s \$col[\"seq\"] \"@\" \$col[\"cpu\"] \" \" }
	END { print s }' '$out/a.csv' '$out/b.csv'")
check -m "got '$got'" "csv_awk: selects by name in each file's column order" \
	[ "$got" = "7@1 9@0 10@1 " ]
got=$(bb "csv_awk '{ n++ } END { print n }' '$out/a.csv'")
check -m "got '$got'" "csv_awk: the header line is not a record" [ "$got" = 3 ]
got=$(bb "csv_awk '\$col[\"govrnor\"] == 1' '$out/a.csv'; echo \"exit \$?\"")
check -m "got '$got'" "csv_awk: an unknown column name is one error line and exit 2" \
	[ "$got" = "csv_awk: $out/a.csv: no column \"govrnor\"
exit 2" ]
got=$(bb "csv_awk -v x='a b' 'END { print x }' '$out/a.csv'")
check -m "got '$got'" "csv_awk: -v values with spaces pass through" [ "$got" = "a b" ]
