#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One command line convention for every idlescope subcommand (issue 24):
# --help on stdout, exit 0, the exit statuses in it; a usage error is one
# line and exit status 2 everywhere; numbers are read as written (no
# " 5", "0x10", "-0"); compare's 1 is a regression and nothing else; dump
# prints a large unsigned value as itself; `report DIR` reads a run
# directory as `compare DIR` does.  The live run's options are checked
# through build/tests/cli_idlescope, the command line with a stub for the
# run itself (nothing may be loaded into the host's kernel); the rest
# through the sanitizer build of the loader.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/cli
plan 42
rm -rf "$out"
mkdir -p "$out/cases" "$out/run/gov"
cd "$out" || exit 1
if [ ! -f "$top/build/idlescope.skel.h" ]; then
	fail "cli: test programs build" "no build/idlescope.skel.h: run make loader first"
	exit 1
fi
make -s -C "$top" --no-print-directory build/asan/idlescope build/tests/cli_idlescope \
	build/genrec build/tests/recfile_cases >build.log 2>&1 ||
	{ fail "cli: test programs build" "$(tail -n 3 build.log | tr '\n' ' ')"; exit 1; }
export ASAN_OPTIONS=exitcode=99:detect_leaks=0 UBSAN_OPTIONS=exitcode=99:print_stacktrace=1
L=$top/build/asan/idlescope
live=$top/build/tests/cli_idlescope
# check_error sends stdout to /dev/null: a shell between.
to_full() { "$@" >/dev/full; }
"$top/build/genrec" -n 600 -c 2 -o base.rec &&
	"$top/build/tests/recfile_cases" cases base.rec cases || exit 1

# --help: stdout, exit 0, the exit statuses.
for cmd in "" report dump compare tag; do
	# shellcheck disable=SC2086
	if [ -z "$cmd" ]; then bin=$live; else bin=$L; fi
	"$bin" $cmd --help >help.out 2>help.err
	rc=$?
	check -m "exit $rc" "cli: idlescope ${cmd:+$cmd }--help prints its usage and exit statuses" \
		[ $rc = 0 -a ! -s help.err -a -n "$(grep '^Exit status: 0 ' help.out)" ]
done

# --help whose text cannot be written (issue 39): not exit 0.
for cmd in "" report dump compare extract; do
	# shellcheck disable=SC2086
	if [ -z "$cmd" ]; then bin=$live; else bin=$L; fi
	want=1
	[ "$cmd" = compare ] && want=2
	error_status=$want check_error \
		"cli: idlescope ${cmd:+$cmd }--help to a full disk is exit $want, one line" \
		'writing to stdout: No space left on device' to_full "$bin" $cmd --help
done
"$L" compare --help >help.out
check -m "$(grep -A2 -- '--across' help.out | tr -s ' ' | tr '\n' ' ')" \
	"cli: compare --help lists every fact --across takes, exit_cost too" \
	sh -c "tr -s ' \n' '  ' <help.out | grep -qF 'FACT: kernel, hz, driver, states, clock or exit_cost'"

# Usage errors: one line, exit 2, in every subcommand.
error_status=2
check_error "cli: an unknown option of the live run is exit 2" "unrecognized option '--frobnicate'" \
	"$live" --frobnicate
check_error "cli: -d 0 is exit 2" "duration must be an integer from 1" "$live" -d 0
check_error "cli: -d ' 5' (strtol's leading blank) is refused" "not ' 5'" "$live" -d ' 5'
check_error "cli: -d 0x10 is refused" "not '0x10'" "$live" -d 0x10
check_error "cli: -d -0 is refused" "not '-0'" "$live" -d -0
check_error "cli: -b 2^32, a power of two a ring buffer cannot hold, is refused" \
	"ring buffer size must be an integer from 4096 to 2147483648, not '4294967296'" \
	"$live" -b 4294967296
check_error "cli: -w with an escape byte is refused, escaped" \
	"workload name must be .* not 'a\\\\x1bb'" "$live" -w "$(printf 'a\033b')"
check_error "cli: a live run argument is exit 2" "unexpected argument 'extra'" "$live" extra
check_error "cli: -m takes full, light or lean" "mode must be full, light or lean, not 'heavy'" \
	"$live" -m heavy
check_error "cli: a lean run's record file is refused" "needs records" "$live" -m lean -r x.rec
check_error "cli: -j is refused in a light run" "not with -m light" "$live" -m light -j
check_error "cli: report without a file is exit 2" "usage: idlescope report" "$L" report
check_error "cli: report with an unknown option is exit 2" "unrecognized option|invalid option" \
	"$L" report -x base.rec
check_error "cli: dump without a file is exit 2" "usage: idlescope dump FILE" "$L" dump
check_error "cli: dump of two files is exit 2" "one file" "$L" dump base.rec base.rec
check_error "cli: compare of one run is exit 2" "usage: idlescope compare A B" "$L" compare base.rec
check_error "cli: tag of two names is exit 2" "one name" "$L" tag a b
check_error "cli: tag with a newline is exit 2, on one line" "not 'a\\\\x0ab'" \
	"$L" tag "$(printf 'a\nb')"
unset error_status
"$live" -d 5 -b 2147483648 >live.out
check -m "$(cat live.out)" "cli: numbers as written are read: -d 5, -b 2^31" \
	[ "$(cat live.out)" = "live run: -d 5 -i 1 -b 2147483648 -w (none)" ]

# Errors that are not usage: 1, but compare's are 2 (1 is its verdict).
error_status=1
check_error "cli: report of a missing file is exit 1" "No such file" "$L" report nonexistent.rec
check_error "cli: dump of a bad file is exit 1" "version 2 is older" "$L" dump cases/v2.rec
check_error "cli: report to a full disk is exit 1" "writing to stdout" to_full "$L" report base.rec
error_status=2
check_error "cli: compare of a missing file is exit 2" "No such file" \
	"$L" compare base.rec nonexistent.rec
check_error "cli: compare to a full disk is exit 2, not a regression" "writing to stdout" \
	to_full "$L" compare base.rec base.rec
check_error "cli: compare of a bad file is exit 2" "version 2 is older" \
	"$L" compare base.rec cases/v2.rec
unset error_status

# dump: a predicted_ns of 2^63 + 5 is itself, not negative.
"$L" dump "cases/predicted-2^63+5.rec" >huge.csv
check -m "$(csv_awk '{ print $col["predicted_ns"] }' huge.csv | sort -u | head -n 3 | tr '\n' ' ')" \
	"cli: dump prints a prediction of 2^63 + 5 as 9223372036854775813" \
	[ "$(csv_awk '{ print $col["predicted_ns"] }' huge.csv | sort -u)" = 9223372036854775813 ]

# report DIR reads a run directory's *.rec, as compare DIR does.
cp base.rec run/gov/run.rec
"$L" report run >dir.txt 2>dir.err
rc=$?
"$L" report run/gov/run.rec >file.txt
check -m "exit $rc: $(head -n 1 dir.err)" "cli: report DIR is the report of DIR's record files" \
	[ $rc = 0 -a "$(cmp dir.txt file.txt 2>&1)" = "" ]
error_status=1
mkdir -p empty
check_error "cli: report of a directory without record files is one error" \
	"empty: no record files \\(\\*.rec\\)" "$L" report empty
ln -s gov/run.rec run/link.rec
check_error "cli: report DIR refuses a file twice through a link" "given twice" "$L" report run
rm run/link.rec
cp cases/v2.rec "run/$(printf 'new\nline').rec"
check_error "cli: an error naming a file found in DIR stays one line" \
	'run/new\\x0aline.rec: record file version 2' "$L" report run
rm run/new*
unset error_status
mkdir -p many
# 70 runs: copies of one file would be refused as copies (issue 39).
for i in $(seq 1 70); do "$top/build/genrec" -n 600 -c 2 -s "$i" -o "many/$i.rec"; done
"$L" report many >many.txt 2>many.err
rc=$?
check -m "exit $rc: $(head -n 1 many.err)" "cli: report of 70 files (no limit of 64)" \
	[ $rc = 0 -a -n "$(grep -E '^  all +42000 +0$' many.txt)" ]
