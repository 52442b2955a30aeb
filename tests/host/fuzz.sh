#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The record file reader's libFuzzer target (tests/host/fuzz_reader.c:
# report, report -j, dump and compare in process, under ASan and UBSan)
# from a seed corpus of genrec's file and every crafted case of
# tests/host/recfile_cases.c (the dump crash of issue 24 among them),
# each seed once per command.
#
#   tests/host/fuzz.sh                 make test: FUZZ_RUNS inputs, seed 1
#   tests/host/fuzz.sh --seconds N     make fuzz: N seconds, growing the corpus
#                                      build/fuzz/corpus
#
# A finding (crash, sanitizer report, leak, timeout) fails the check and
# leaves the input that caused it beside the log; rerun it with
# `build/fuzz/fuzz_reader FILE`.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
FUZZ_RUNS=10000
seconds=
case ${1:-} in
--seconds) seconds=$2 ;;
'') ;;
*) echo "usage: tests/host/fuzz.sh [--seconds N]" >&2; exit 2 ;;
esac

plan 3
out=$top/build/test/fuzz
fuzzer=$top/build/fuzz/fuzz_reader
rm -rf "$out"
mkdir -p "$out/seeds" "$out/cases"
make -s -C "$top" --no-print-directory build/fuzz/fuzz_reader build/genrec \
	build/tests/recfile_cases >"$out/build.log" 2>&1
check -m "$(tail -n 3 "$out/build.log" | tr '\n' ' ')" "fuzz: the target builds with clang's libFuzzer" \
	test -x "$fuzzer"
[ -x "$fuzzer" ] || exit 1

# Seeds: control byte (tests/host/fuzz_reader.c: bit 0 repairs the header,
# bits 1.. pick the command, 5 of them), then the file.
cd "$out" || exit 1
"$top/build/genrec" -n 40 -c 2 -o base.rec &&
	"$top/build/tests/recfile_cases" cases base.rec cases || exit 1
for f in base.rec cases/*.rec; do
	for cmd in 0 1 2 3 4; do
		printf "\\$(printf %03o $((cmd * 2)))" >"seeds/$(basename "$f" .rec)-$cmd"
		cat "$f" >>"seeds/$(basename "$f" .rec)-$cmd"
	done
done
nr_seeds=$(ls seeds | wc -l)
check "fuzz: the seed corpus has the unterminated tag that crashed dump" \
	[ -s seeds/workload-unterminated-2 ]

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
