#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The files `idlescope report` and `compare` read besides the record files
# (a record file's figures file, --power's table, -w's workload list),
# against issue 39's fuzzing round: a FIFO in their place once blocked
# for ever, a directory read as an I/O error or as an empty list, two
# values near the largest double gave JSON's missing "inf", more than 32
# boots were refused, a long line's tail was read as a line, a name twice
# kept the first, and control bytes from the files and their names
# reached the terminal.  Each is one error line with its exit status, or
# a report that is right.  The loader runs as the ASan/UBSan build.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/inputs
plan 22
rm -rf "$out"
mkdir -p "$out/cases"
cd "$out" || exit 1
asan_suite inputs
"$top/build/genrec" -n 600 -c 2 -o base.rec && "$top/build/genrec" -n 600 -c 2 -s 2 -o other.rec &&
	"$top/build/tests/recfile_cases" cases base.rec cases || exit 1
mkfifo fifo
# escaped TEXT FILE...: the first FILE has TEXT, and no byte of any FILE
# is a control byte (a newline aside).
escaped() {
	grep -qF -- "$1" "$2" &&
		shift && [ -z "$(cat "$@" | tr -d '\n' | LC_ALL=C grep -P '[\x00-\x1f\x7f]')" ]
}

# What would block: a FIFO, never opened for writing.
mkdir -p fifofig/seed-1/menu && cp base.rec fifofig/seed-1/menu/run.rec &&
	mkfifo fifofig/seed-1/menu/run.rec.figures
error_status=1
check_error "inputs: report with a FIFO for run.rec.figures is one error, not a hang" \
	'fifofig/seed-1/menu/run.rec.figures: not a regular file \(a FIFO' \
	timeout 20 "$L" report fifofig
error_status=2 check_error "inputs: compare with a FIFO for run.rec.figures is one error, exit 2" \
	'run.rec.figures: not a regular file' timeout 20 "$L" compare fifofig base.rec
check_error "inputs: --power FIFO is one error, not a hang" \
	'--power fifo: not a regular file \(a FIFO' timeout 20 "$L" report base.rec --power fifo
check_error "inputs: -w FIFO is one error, not a hang" \
	'fifo: cannot read the workload list: not a regular file \(a FIFO' \
	timeout 20 "$L" report base.rec -w fifo

# A directory: not an I/O error, not an empty list.
mkdir adir
check_error "inputs: --power DIR says it is a directory" \
	'--power adir: a directory, not a regular file' "$L" report base.rec --power adir
check_error "inputs: -w DIR says it is a directory" \
	'adir: cannot read the workload list: a directory, not a regular file' \
	"$L" report base.rec -w adir
: >empty.txt
check_error "inputs: -w of an empty list is one error" \
	'empty.txt: no workload in the list' "$L" report base.rec -w empty.txt

# The workload list's lines: a long one is refused whole, a name listed twice too.
{ printf 'periodic1ms default timer %*s\n' 1100 x; echo 'idle default timer idle'; } >long.txt
check_error "inputs: a workload-list line over 1022 bytes is one error, its tail not read" \
	'long.txt:1: a line longer than 1022 bytes' "$L" report base.rec -w long.txt
printf 'periodic1ms default timer a\npingpong default ipi b\nperiodic1ms default host c\n' >twice.txt
check_error "inputs: a workload listed twice is one error" \
	'twice.txt:3: workload periodic1ms is listed twice' "$L" report base.rec -w twice.txt
printf 'periodic1ms default timer a\nw\033[2J default frob c\n' >esc.txt
check_error "inputs: a workload-list error naming an escape sequence stays one line" \
	"esc.txt:2: workload w\\\\x1b\\[2J: EVENTS must be .*, not 'frob'" \
	"$L" report base.rec -w esc.txt

# --power's path: in the error, and in the report, escaped.
power_name=$(printf 'pow\033[2Jer')
for s in $(seq 0 8); do echo "S$s 1 0"; done >"$power_name"
"$L" report base.rec --power "$power_name" >power.txt 2>power.err
check -m "exit $?: $(head -c 200 power.err)" \
	"inputs: --power's path reaches the report escaped" \
	escaped 'power table pow\x1b[2Jer;' power.txt
echo "S0 x 0" >"$(printf 'bad\npower')"
check_error "inputs: an error naming --power's path with a newline stays one line" \
	'--power bad\\x0apower: line 1: power' "$L" report base.rec --power "$(printf 'bad\npower')"
unset error_status

# Figures: values JSON cannot sum, names with control bytes, many boots.
mkdir -p big/a big/b && cp base.rec big/a/run.rec && cp other.rec big/b/run.rec
for d in a b; do
	printf '# idlescope figures 1\nmenu periodic1ms big_us 1.7e308 us\n' >big/$d/run.rec.figures
done
"$L" report -j big >big.json 2>big.err
check -m "exit $?: $(grep -o '"mean": [^,]*' big.json | head -n 1) $(head -c 200 big.err)" \
	"inputs: two figures of 1.7e308 give the mean 1.7e308 in JSON, not inf" \
	[ -n "$(grep -F '"runs": 2, "mean": 1.7e+308,' big.json)" ]
check "inputs: ... and a report.json the schema check accepts" \
	python3 "$top/tests/check_report_json.py" big.json
printf '# idlescope figures 1\nmenu periodic1ms f\033]0;t\007 1 u\033[2J\n' >big/a/run.rec.figures
rm big/b/run.rec.figures
"$L" report big >esc.txt 2>esc.err && "$L" report big --format linux-pm >escpm.txt 2>>esc.err
check -m "exit $?: $(head -c 200 esc.err)" \
	"inputs: a figure's name and unit with control bytes reach the report escaped" \
	escaped '  f\x1b]0;t\x07' esc.txt escpm.txt
mkdir many
for i in $(seq 1 40); do
	mkdir many/$i && "$top/build/genrec" -n 200 -c 2 -s "$i" -o many/$i/run.rec &&
		printf '# idlescope figures 1\nmenu periodic1ms rate_per_s %d 1/s\n' "$i" \
			>many/$i/run.rec.figures
done
"$L" report -j many >many.json 2>many.err
check -m "exit $?: $(head -c 200 many.err)" "inputs: figures of 40 boots are read (more than 32)" \
	[ -n "$(grep -F '"runs": 40, "mean": 20.5,' many.json)" ]

# A wake-up name from a trailer, in every document of the report set.
mkdir wake
"$L" report "cases/wake-name-newline.rec" -o wake >wake.txt 2>wake.err
check -m "exit $?: $(head -c 200 wake.err)" \
	"inputs: a wake-up name with a newline reaches the report escaped" \
	escaped '    hrtimer fn\x0asleep 0 0 1 ipi' wake.txt wake/report.txt wake/summary.md \
		wake/linuxpm.txt

# File names found in a run directory, in errors and warnings.
mkdir -p rundir/g && cp cases/killed-cut.rec "rundir/g/$(printf 'k\033[2Jd').rec"
"$L" report rundir >rundir.txt 2>rundir.err
check -m "exit $?: $(cat rundir.err)" \
	"inputs: warnings naming a file found in a run directory are escaped" \
	escaped 'rundir/g/k\x1b[2Jd.rec: the loader did not finish it' rundir.err
rm rundir/g/k* && cp cases/data-twice.rec "rundir/g/$(printf 't\twice').rec"
error_status=1 check_error "inputs: an error naming a file found in a run directory stays one line" \
	'rundir/g/t\\x09wice.rec: record 601: ' "$L" report rundir
rm rundir/g/t* && cp base.rec rundir/g/a.rec &&
	"$top/build/genrec" -n 200 -c 2 -s 3 -H cases/overflows.rec -o "rundir/g/$(printf 'b\033c').rec"
error_status=1 check_error "inputs: ... also when it has another state table" \
	'rundir/g/b\\x1bc.rec: another state table than the first file' "$L" report rundir
rm rundir/g/*
mkdir -p rundir/big/a && cp base.rec rundir/big/a/run.rec
printf '# idlescope figures 1\nmenu w f nan u\n' >rundir/big/a/run.rec.figures
mv rundir/big/a "rundir/big/$(printf 'a\nb')"
error_status=1 check_error "inputs: an error in a figures file found in a run directory stays one line" \
	'rundir/big/a\\x0ab/run.rec.figures:2: the value is not a number' "$L" report rundir/big
error_status=1 check_error "inputs: -o DIR with a newline in an error stays one line" \
	'cannot write reports into no\\x0adir: No such file' \
	"$L" report base.rec -o "$(printf 'no\ndir')"
