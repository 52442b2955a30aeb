#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The record file reader and the report writer against damaged and hostile
# input, on the host: one named input per case that once gave silently
# wrong output (issue 15), then seeded bit flips of a real record file.
# The loader runs as an ASan/UBSan build (sanitizer findings end it with
# status 99), so a crash or undefined behaviour fails the check that
# caused it.  Input files come from genrec and tests/hostile/recfile_cases.c.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/recfile
FUZZ_CASES=300
plan 84
rm -rf "$out"
mkdir -p "$out/cases" "$out/fuzz"
cd "$out" || exit 1

# The loader's main() needs the BPF skeleton, which needs the kernel.
cflags="-O1 -g -Wall -Wextra -Wno-unused-parameter -I$top/bpf -I$top/loader -I$top/lib -I$top/kernel/modules/idlescope_states"
if [ ! -f "$top/build/idlescope.skel.h" ]; then
	fail "recfile: test programs build" "no build/idlescope.skel.h: run make loader first"
	exit 1
fi
make -s -C "$top" --no-print-directory build/genrec build/asan/idlescope \
	build/tests/recfile_cases >build.log 2>&1 &&
cp "$top/build/genrec" genrec && cp "$top/build/tests/recfile_cases" recfile_cases &&
cp "$top/build/asan/idlescope" idlescope &&
# Without the sanitizers, whose own SIGBUS handler would stand in the way.
gcc $cflags "$top/tests/hostile/recfile_shrink.c" "$top/loader/recfile.c" \
	"$top/loader/format/escape.c" "$top/lib/infile.c" -lm -o recfile_shrink ||
	{ fail "recfile: test programs build" "$(tail -n 3 build.log | tr '\n' ' ')"; exit 1; }
export ASAN_OPTIONS=exitcode=99:detect_leaks=0 UBSAN_OPTIONS=exitcode=99:print_stacktrace=1
L=$out/idlescope

./genrec -n 600 -c 2 -o base.rec &&
./recfile_cases cases base.rec cases &&
./recfile_cases fuzz base.rec fuzz $FUZZ_CASES ||
	{ fail "recfile: test inputs made" "genrec or recfile_cases failed"; exit 1; }
c=$out/cases

# The header says what decides whether the numbers can be trusted.
"$L" report base.rec >base.txt 2>base.err
check "recfile: a good file reports without a word on stderr" [ $? = 0 -a ! -s base.err ]
check "recfile: the header names kernel, HZ and cpuidle driver" \
	grep -qx '  kernel         genrec (HZ 1000, cpuidle driver idlescope_states)' base.txt
check "recfile: the header names the clock mode and its QEMU arguments" \
	grep -qx '  clock          virtual (made up by genrec)' base.txt
check "recfile: the header gives the timer lateness" \
	grep -qE '^  timer lateness median [0-9.]+ us, p99 [0-9.]+ us, max [0-9.]+ us \([0-9]+ wake-ups\)$' base.txt
check "recfile: no WARNING line without losses" [ -z "$(grep WARNING base.txt)" ]
"$L" report base.rec -j >base.json
check "recfile: the JSON report passes the schema check" \
	python3 "$top/tests/check_report_json.py" base.json \
	--expect hz=1000 --expect clock_mode=virtual
"$L" report "$c/dropped-3.rec" >dropped.txt
check "recfile: drops make a WARNING the third line" \
	[ "$(sed -n 3p dropped.txt | cut -c1-34)" = "WARNING: 3 idle periods dropped (r" ]

# A file that shrinks under the reader's mapped window (truncated while
# `idlescope report` reads it) is bad input, not a crash: the reader's
# SIGBUS guard says so in one line, status 1.
cp base.rec shrink.rec
./recfile_shrink shrink.rec 2>shrink.err
rc=$?
check -m "status $rc: $(head -c 200 shrink.err)" \
	"recfile: a file that shrinks while it is read ends in one line and status 1" \
	[ $rc = 1 -a "$(cat shrink.err)" = \
	  "idlescope: error: shrink.rec: the file shrank while it was read" ]

# 1: a clean file without records is no records, not its trailer read as some.
./genrec -n 0 -c 2 -o empty.rec
"$L" report empty.rec >empty.txt
check "recfile: a clean file with 0 records reports 0 periods" \
	grep -qE '^  all +0 +0$' empty.txt
check "recfile: ... and dumps no record" [ "$("$L" dump empty.rec | wc -l)" = 1 ]
# 2: sizes that wrapped the old count * size.
check_error "recfile: a data size of 2^60 more is one error" 'truncated: the header says' \
	"$L" report "$c/size-wrap.rec"
check_error "recfile: the largest data size is one error" 'truncated: the header says' \
	"$L" report "$c/size-max.rec"
check_error "recfile: a data size of partial records is one error" 'not whole records' \
	"$L" report "$c/size-partial.rec"
# 3: -o ''.
mkdir empty-o && (cd empty-o && check_error "recfile: -o '' is one error" \
	"-o needs a directory name" "$L" report ../base.rec -o '')
check "recfile: ... and writes nothing" [ -z "$(ls -A empty-o)" ]
# 4: nr_cpus against the records and the trailer.
check_error "recfile: 0 CPUs is one error" 'inconsistent header \(0 CPUs' \
	"$L" report "$c/cpus-0.rec"
check_error "recfile: 9 CPUs is one error" 'inconsistent header \(9 CPUs' \
	"$L" report "$c/cpus-9.rec"
check_error "recfile: a record of CPU 5 in a 2-CPU file is one error" \
	'record 11: cpu 5 in a file of 2 CPUs' "$L" report "$c/cpu-5-of-2.rec"
check_error "recfile: ... also for dump" 'cpu 5 in a file of 2 CPUs' "$L" dump "$c/cpu-5-of-2.rec"
check_error "recfile: trailer counters of CPU 5 in a 2-CPU file are one error" \
	'counters for cpu 5 of 2 CPUs' "$L" report "$c/trailer-cpu-5-of-2.rec"
# The trailer's names of wake-up sources (stats/wakeup.h).
check_error "recfile: more wake-up names than the table holds are one error" \
	'corrupt trailer \(65 names\)' "$L" report "$c/wake-names-65.rec"
check_error "recfile: an unterminated wake-up name is one error" \
	'name 0: unterminated' "$L" report "$c/wake-name-unterminated.rec"
"$L" report "$c/wake-garbage.rec" -j >wake-garbage.json 2>wake-garbage.err
check -m "$(head -c 300 wake-garbage.err)" \
	"recfile: wake-up sources, IPIs and names out of range report as numbers" \
	python3 "$top/tests/check_report_json.py" wake-garbage.json
# 5: no NaN or infinity reaches JSON.
check_error "recfile: a NaN duration is one error" 'duration nan' \
	"$L" report -j "$c/duration-nan.rec"
check_error "recfile: an infinite duration is one error" 'duration inf' \
	"$L" report -j "$c/duration-inf.rec"
# 6: names with commas, quotes and escape sequences.
"$L" dump "$c/names.rec" >names.csv
check "recfile: dump quotes CSV fields: every row has the header's columns" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows))' names.csv
check "recfile: dump writes the names back exactly, escape bytes as \\xNN" python3 -c '
import csv, sys
names = {r["workload"] for r in csv.DictReader(open(sys.argv[1], newline=""))}
sys.exit(names != {"a,b", "q\"x", "esc\\x1b[31m", "a b", "a_b", "a/b"})' names.csv
# A tag of all 16 bytes has no NUL: dump once read past it (ASan).
"$L" dump "$c/workload-unterminated.rec" >unterminated.csv 2>unterminated.err
rc=$?
check -m "exit $rc: $(head -c 300 unterminated.err)" \
	"recfile: dump reads a 16-byte tag without a NUL as those 16 bytes" \
	[ $rc = 0 -a "$(csv_awk '{ print $col["workload"] }' unterminated.csv | sort -u)" = wwwwwwwwwwwwwwww ]
mkdir names overflows lost
"$L" report "$c/names.rec" -o names >names.txt
check "recfile: no control byte reaches the terminal from dump or report" \
	[ -z "$(cat names.csv names.txt | tr -d '\n' | LC_ALL=C grep -P '[\x00-\x1f\x7f]')" ]
# 8: plot names: one file per name.
check "recfile: plot names differ for 'a b', 'a_b' and 'a/b'" \
	[ -f names/plots/a_20b.svg -a -f names/plots/a_5fb.svg -a -f names/plots/a_2fb.svg ]
check "recfile: one plot per workload" [ "$(ls names/plots | wc -l)" = 6 ]
# 7: the report set as one: stale temporaries and old plots go, a failed
# write leaves the previous set.
touch names/report.json.tmp.999999 names/linuxpm.txt.tmp.999999 names/keep.tmp.999999
mkdir names/.idlescope-tmp.999998
"$L" report base.rec -o names >/dev/null
check "recfile: a new report set replaces the old plots" \
	[ "$(ls names/plots)" = "periodic1ms.svg" ]
check "recfile: temporaries of dead idlescopes are removed, other files kept" \
	[ "$(ls -A names | tr '\n' ' ')" = "keep.tmp.999999 linuxpm.txt plots report.html report.json report.txt summary.md " ]
cp -r names before
(trap '' XFSZ; ulimit -f 64; check_error "recfile: a report set that cannot be written is one error" \
	'writing the reports into names: File too large' "$L" report "$c/names.rec" -o names)
check "recfile: ... and leaves the previous set as it was" diff -r before names
# 9: stdout write errors (check_error sends stdout to /dev/null: a shell between).
to_full() { "$@" >/dev/full; }
check_error "recfile: report to a full disk is one error" 'writing to stdout: No space' \
	to_full "$L" report base.rec
check_error "recfile: dump to a full disk is one error" 'writing to stdout: No space' \
	to_full "$L" dump base.rec
check_error "recfile: report -j to a full disk is one error" 'writing to stdout: No space' \
	to_full "$L" report -j base.rec
# 10, 11: signed overflows (UBSan ends the run with 99) and 65535 lost selects.
quiet() { "$@" >/dev/null; }
check "recfile: exit latencies of 2^63-1 and a load of 2^31-1 replay without overflow" \
	quiet "$L" report "$c/overflows.rec" -o overflows
check "recfile: 65535 lost selects on every record replay" \
	quiet "$L" report "$c/lost-selects.rec" -o lost
# 12: the same file twice, a FIFO.
check_error "recfile: the same file twice is one error" 'given twice' \
	"$L" report base.rec "$c/../base.rec"
mkfifo fifo
check_error "recfile: a FIFO is one error, not a hang" 'fifo: not a regular file' \
	timeout 10 "$L" report fifo
check_error "recfile: a directory is one error" 'not a regular file' "$L" dump cases

# Versions, setups that do not mix, killed loaders.
check_error "recfile: a version 2 file is one error" 'version 2 is older than this idlescope \(4\)' \
	"$L" report "$c/v2.rec"
check_error "recfile: files of two clock modes are one error" "under clock 'host'" \
	"$L" report base.rec "$c/clock-host.rec"
check_error "recfile: files of two HZ are one error" 'HZ 250' \
	"$L" report base.rec "$c/hz-250.rec"
check_error "recfile: files of two cpuidle drivers are one error" "driver 'intel_idle'" \
	"$L" report base.rec "$c/driver-intel_idle.rec"
check_error "recfile: a data size without the completion flag is one error" \
	'without a clean close' "$L" report "$c/data-size-without-flag.rec"
check_error "recfile: unknown flags are one error" 'unknown flags' \
	"$L" report "$c/unknown-flags.rec"
check_error "recfile: an unterminated clock name is one error" 'unterminated' \
	"$L" report "$c/unterminated-clock.rec"
check_error "recfile: a histogram that is not its count is one error" 'does not sum' \
	"$L" report "$c/lateness-count.rec"
"$L" report "$c/killed-cut.rec" >killed.txt 2>killed.err
check "recfile: a killed loader's file reports, saying so" \
	[ $? = 0 -a -n "$(grep 'last record cut short' killed.err)" ]
check "recfile: ... up to its last whole record" grep -qE '^  all +10 +unknown$' killed.txt
check "recfile: ... and says so in a WARNING line" grep -q '^WARNING: .* 1 cut short' killed.txt
check "recfile: killed before the flag: the trailer is not read as records" \
	[ "$("$L" dump "$c/killed-before-flag.rec" 2>/dev/null | wc -l)" = 601 ]

# Issue 24, 4: a killed loader's file says what it does not know.
"$L" report "$c/killed-cut.rec" -j >killed.json 2>/dev/null
check "recfile: a killed loader's duration and drops are null in JSON, not 0" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["duration_s"] is None and d["dropped_records"] is None and
              all(c["dropped_records"] is None for c in d["per_cpu_records"])))' killed.json
check "recfile: ... and unknown in the text" grep -qx '  duration       unknown' killed.txt
check "recfile: ... whose losses line never says nothing was lost" \
	grep -q '^WARNING: drops unknown (a record file without its trailer), ' killed.txt
check "recfile: ... and whose report.json passes the schema check" \
	python3 "$top/tests/check_report_json.py" killed.json
"$L" report "$c/seq-gap-5.rec" >seqgap.txt
check "recfile: a gap in a CPU's period numbers is periods lost, in the losses line" \
	grep -q '^WARNING: 0 idle periods dropped (ring buffer full), 5 missing from the period sequence, ' \
	seqgap.txt
"$L" report "$c/killed-seq-gap-7.rec" >killedgap.txt 2>/dev/null
check "recfile: ... also in a file without its trailer" \
	grep -q '^WARNING: drops unknown .*, 7 missing from the period sequence, ' killedgap.txt
"$L" report "$c/zero-tail.rec" >zeros.txt 2>zeros.err
check "recfile: a zero-filled tail ends the records: 10 periods, not 1010" \
	grep -qE '^  all +10 +unknown$' zeros.txt
check "recfile: ... with a warning naming its first record" \
	grep -q '^idlescope: warning: .*zero-tail.rec: record 11 is all zeros: the records end there$' zeros.err
check "recfile: ... and no period of governor none" \
	[ -z "$(grep -E '^== workload .*, governor none ==$' zeros.txt)" ]
"$L" dump "$c/zero-tail.rec" >zeros.csv 2>/dev/null
check "recfile: ... nor a record of it in dump" [ "$(grep -c . zeros.csv)" = 11 ]

# Issue 24, 6: names from a file reach the terminal escaped, and stay distinct.
"$L" report "$c/hostile-names.rec" >hostile.txt 2>hostile.err
check "recfile: header names, skipped programs and tags reach the terminal escaped" \
	[ $? = 0 -a -z "$(tr -d '\n' <hostile.txt | LC_ALL=C grep -P '[\x00-\x1f\x7f]')" ]
check "recfile: ... a control byte as \\xNN" \
	grep -qF 'cpuidle driver drv\x0a\x1b[31mred' hostile.txt
check "recfile: ... and a skipped program's name too" grep -qF '    prog\x1b]0;title\x07 ' hostile.txt
check "recfile: tags that differ only in a control byte stay two workloads" \
	grep -qxF '  workloads      tag\x01, tag\x02' hostile.txt
check_error "recfile: an error naming a clock mode with a newline stays one line" \
	"under clock 'virt\\\\x0aual'" "$L" report base.rec "$c/clock-newline.rec"

# Issue 24, 7: counters and sums that a crafted file could make wrap.
check_error "recfile: per-CPU drop counts that would wrap to 0 are one error" \
	'cpu 0: 300 records produced, 9223372036854775808 dropped: more than 2\^48' \
	"$L" report "$c/dropped-wrap.rec"
"$L" report "$c/residency-huge.rec" >huge.txt && "$L" report -j "$c/residency-huge.rec" >huge.json
check "recfile: residencies near 2^64 give no share of idle time over 100%" awk '
	/share of idle time per state/ { on = 1; next }
	on && /^$/ { on = 0 }
	on && $1 ~ /^[0-9]/ { for (i = 2; i <= NF; i++) if ($i + 0 > 100) bad = 1 }
	END { exit bad }' huge.txt
check "recfile: ... and a report.json the schema check accepts" \
	python3 "$top/tests/check_report_json.py" huge.json
"$L" report "$c/state-past-table.rec" >pasttable.txt
check "recfile: a state index equal to the table's size is out of range, not a row" \
	[ -n "$(grep -xE '    [0-9]+ samples with a state index out of range' pasttable.txt)" -a \
	  -z "$(grep -E '^    9 ' pasttable.txt)" ]

# Issue 39: periods that come twice, a copy of a file, the other byte
# order, other QEMU clock arguments, why/cost's sums of ns.
check_error "recfile: a data section written twice is one error, not twice the periods" \
	"record 601: cpu 0's period 0 after its period 299: periods repeated or out of order" \
	"$L" report "$c/data-twice.rec"
check_error "recfile: ... and a record repeated, also for dump" \
	"record 22: cpu 0's period 10 after its period 10: periods repeated" \
	"$L" dump "$c/record-repeated.rec"
mkdir -p copy/seed-1/menu && ./recfile_cases boot-id base.rec copy/seed-1/menu/run.rec 0123-boot &&
	cp copy/seed-1/menu/run.rec copy/seed-1/menu/run-copy.rec
check_error "recfile: a copied record file in a run directory is one error, not a second boot" \
	'copy/seed-1/menu/run.rec: a copy of copy/seed-1/menu/run-copy.rec \(the same boot, the same first period\)' \
	"$L" report copy
check_error "recfile: a big-endian file is one error saying so" \
	'a big-endian record file \(version 4\): this idlescope reads little-endian ones' \
	"$L" report "$c/big-endian.rec"
check_error "recfile: files of one clock mode with other QEMU arguments are one error" \
	"under clock 'virtual \(-icount shift=7\)', base.rec under 'virtual \(made up by genrec\)'" \
	"$L" report base.rec "$c/clock-args-7.rec"
"$L" report "$c/residency-wrap.rec" >wrap.txt
check -m "$(grep 'shallower time %' wrap.txt | head -n 1)" \
	"recfile: sums of ns that would wrap give no shallower time over 100% in why / cost" awk '
	$1 == "shallower" && $2 == "time" { n++; for (i = 4; i <= NF; i++) if ($i + 0 > 100) bad = 1 }
	END { exit bad || !n }' wrap.txt

# Fuzz: every mutated file gives a report (exit 0) or one error line (exit 1).
bad=0 reports=0 errors=0
for f in fuzz/*.rec; do
	for cmd in "report -j" dump; do
		# shellcheck disable=SC2086
		"$L" $cmd "$f" >"$f.${cmd%% *}.out" 2>"$f.err"
		rc=$?
		if [ $rc = 0 ]; then
			reports=$((reports + 1))
		elif [ $rc = 1 ] && [ "$(grep -c . "$f.err")" = 1 ] &&
		     grep -q '^idlescope: error: ' "$f.err"; then
			errors=$((errors + 1))
		else
			bad=$((bad + 1))
			[ $bad -gt 3 ] || echo "recfile fuzz: $f: $cmd: exit $rc: $(head -c 300 "$f.err")"
		fi
	done
done
echo "recfile fuzz: $FUZZ_CASES files, $reports outputs, $errors one-line errors, $bad other"
check "recfile fuzz: no crash, no undefined behaviour, a report or one error line" [ $bad = 0 ]
check "recfile fuzz: both outcomes occur" [ $reports -gt 0 -a $errors -gt 0 ]
check "recfile fuzz: every JSON report is valid JSON without NaN" python3 -c '
import json, os, sys
def no_constant(c): raise ValueError(c)
for p in sys.argv[1:]:
    if os.path.getsize(p) or not p.endswith(".report.out"):
        json.load(open(p, encoding="utf-8"), parse_constant=no_constant)' \
	$(for f in fuzz/*.report.out; do [ -s "$f" ] && echo "$f"; done)
check "recfile fuzz: the schema check accepts every JSON report" \
	python3 "$top/tests/check_report_json.py" \
	$(for f in fuzz/*.report.out; do [ -s "$f" ] && echo "$f"; done)
