#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The readers' libFuzzer target (tests/hostile/fuzz_reader.c: report,
# report -j, dump, extract and compare of a record file, compare of two
# run directories, the sleep trace, figures file, power table and
# workload list readers, in process, under ASan and UBSan) from a seed
# corpus: genrec's file and every crafted case of
# tests/hostile/recfile_cases.c (the dump crash of issue 24 and issue 39's
# fuzzing round among them) once per command that reads a record file,
# and the texts below for the other readers.
#
#   tests/hostile/fuzz.sh                 make test: FUZZ_RUNS inputs, seed 1
#   tests/hostile/fuzz.sh --seconds N     make fuzz: N seconds, growing the corpus
#                                      build/fuzz/corpus
#
# A finding (crash, sanitizer report, leak, timeout) fails the check and
# leaves the input that caused it beside the log; rerun it with
# `build/fuzz/fuzz_reader FILE`.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
FUZZ_RUNS=3000
seconds=
case ${1:-} in
--seconds) seconds=$2 ;;
'') ;;
*) echo "usage: tests/hostile/fuzz.sh [--seconds N]" >&2; exit 2 ;;
esac

plan 4
out=$top/build/test/fuzz
fuzzer=$top/build/fuzz/fuzz_reader
rm -rf "$out"
mkdir -p "$out/seeds" "$out/cases"
make -s -C "$top" --no-print-directory build/fuzz/fuzz_reader build/genrec \
	build/tests/recfile_cases >"$out/build.log" 2>&1
check -m "$(tail -n 3 "$out/build.log" | tr '\n' ' ')" "fuzz: the target builds with clang's libFuzzer" \
	test -x "$fuzzer"
[ -x "$fuzzer" ] || exit 1

# Seeds: control byte (tests/hostile/fuzz_reader.c: bit 0 repairs the header,
# bits 1.. pick the command, 12 of them), then the parts, split at
# fuzz_reader.c's FUZZ_PART_SEP.
cd "$out" || exit 1
"$top/build/genrec" -n 40 -c 2 -o base.rec && "$top/build/genrec" -n 40 -c 2 -s 2 -p 50 -o other.rec &&
	"$top/build/tests/recfile_cases" cases base.rec cases || exit 1
sep=$(printf '\n--8<--\n.')
sep=${sep%.}
# seed NAME CMD PART...: seeds/NAME-CMD, the control byte and the parts (files).
seed() {
	local name=$1 cmd=$2 first=1
	shift 2
	printf "\\$(printf %03o $((cmd * 2)))" >"seeds/$name-$cmd"
	for f in "$@"; do
		[ -n "$first" ] || printf '%s' "$sep" >>"seeds/$name-$cmd"
		cat "$f" >>"seeds/$name-$cmd"
		first=
	done
}
# 0-6: report -j, report, dump, compare, compare --allow-missing, extract, extract --all -o.
for f in base.rec cases/*.rec; do
	for cmd in 0 1 2 3 4 5 6; do
		seed "$(basename "$f" .rec)" $cmd "$f"
	done
done
# 7: sleep traces, docs/trace-format.md's example and a broken one.
printf 'idlescope-trace 2\n# from run.rec\ntick_ns 1000000\norigin_ns 41848095131\ncpus 2\nsleep 1 0 23970 ipi ipi call_function_single\nsleep 0 21770 22490 ipi ipi call_function_single\n' >t1
printf 'idlescope-trace 2\ncpus 2\nsleep 0 10 10 ipi\nsleep 0 15 1 timer fn\nsleep 0 0 1 ipi\n' >t2
seed trace 7 t1 && seed trace-bad 7 t2
# 8: two runs' figures files: good, near the largest double, control bytes.
printf '# idlescope figures 1\nmenu cyclictest latency_avg_us 53.6 us\nteo cyclictest latency_avg_us 60 us\n' >f1
printf '# idlescope figures 1\nmenu cyclictest latency_avg_us 55.6 us\n' >f2
printf '# idlescope figures 1\nmenu w big 1.7e308 us\n' >f3
printf '# idlescope figures 1\nmenu w\033[2J f\033]0;t\007 1 u\033\n' >f4
seed figures 8 f1 f2 && seed figures-big 8 f3 f3 && seed figures-escape 8 f4 f1
# 9: power tables; 10: workload lists, the real one among them.
for s in $(seq 0 8); do echo "S$s 1 0"; done >p1
printf '# state power_mW exit_energy_uJ\nPOLL 1000 0\nC1 300 1.4\nC1E 200 3.4\nC6 50 23.4\n' >p2
seed power 9 p1 && seed power-states 9 p2
{ printf 'periodic1ms default timer %*s\n' 1100 x; echo 'idle default timer idle'; } >w1
printf 'periodic1ms default timer a\npingpong default ipi b\nperiodic1ms default host c\n' >w2
seed workloads 10 "$top/workloads/suite.txt" && seed workloads-long 10 w1 && seed workloads-twice 10 w2
# 11: two run directories: A's file and figures against B's two files.
seed dirs 11 base.rec other.rec cases/names.rec f1 && seed dirs-copy 11 base.rec base.rec base.rec f3
nr_seeds=$(ls seeds | wc -l)
check "fuzz: the seed corpus has the unterminated tag that crashed dump" \
	[ -s seeds/workload-unterminated-2 ]
commands=$(ls seeds | sed 's/.*-//' | sort -un | tr '\n' ' ')
check -m "commands seeded: $commands" "fuzz: the seed corpus seeds each of the target's 12 commands" \
	[ "$commands" = "0 1 2 3 4 5 6 7 8 9 10 11 " ]

if [ -n "$seconds" ]; then
	corpus=$top/build/fuzz/corpus
	mkdir -p "$corpus"
	limit=(-max_total_time="$seconds")
else
	corpus=$out/corpus
	mkdir -p "$corpus"
	limit=(-runs="$FUZZ_RUNS" -seed=1)
fi
artifacts=$out/
# close_fd_mask: the commands' stdout and stderr (their reports and error
# lines) go nowhere; libFuzzer and the sanitizers keep a copy of stderr.
ASAN_OPTIONS=detect_leaks=1 "$fuzzer" "${limit[@]}" -close_fd_mask=3 -timeout=20 \
	-artifact_prefix="$artifacts" "$corpus" seeds >fuzz.log 2>&1
rc=$?
runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 inputs in \2 s/p' fuzz.log)
findings=$(ls "$artifacts" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-')
echo "fuzz: $nr_seeds seeds, ${runs:-no Done line}, exit $rc, $findings findings (log: $out/fuzz.log)"
check -m "exit $rc, $findings findings: $(grep -m 1 -E 'ERROR|SUMMARY' fuzz.log)" \
	"fuzz: the reader survives its fuzz run: no crash, leak, timeout or undefined behaviour" \
	[ $rc = 0 -a "$findings" = 0 -a -n "$runs" ]
