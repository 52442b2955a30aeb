#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The workloads' command line, on the host (the programs are the guest's
# static binaries; nothing here needs a loader): every program's --help and
# -h, bad flags and values as exactly one line on stderr and exit status 64,
# and a grid pattern's phase as a function of the seed alone.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

programs=$(make -s -C "$top" --no-print-directory list-workloads) &&
	make -s -C "$top" --no-print-directory workloads >/dev/null ||
	{ echo "FAIL: workloads: the programs do not build"; exit 1; }
# Seven checks per program, then 10 of values, 4 of phases and the suite's.
plan $((7 * $(echo $programs | wc -w) + 15))

# A bad flag or value exits 64 (argp's status), after one line.
error_status=64

for bin in $programs; do
	bin=$top/$bin
	w=$(basename "$bin")
	help=$("$bin" --help 2>&1)
	rc=$?
	check "$w: --help exits 0 with its usage" \
		[ $rc = 0 -a "$(printf '%s\n' "$help" | head -n 1)" = "Usage: $w [OPTION...]" ]
	check "$w: -h prints the same help on stderr" \
		[ "$("$bin" -h 2>&1 >/dev/null)" = "$help" ]
	check_error "$w: an unknown long flag is one line" "^$w: unrecognized option '--frobnicate'\$" \
		"$bin" --frobnicate
	check_error "$w: an unknown short flag is one line" "^$w: invalid option -- 'x'\$" "$bin" -x
	check_error "$w: a flag without its value is one line" \
		"^$w: option requires an argument -- 'd'\$" "$bin" -d
	check_error "$w: -d 0 is one line" "^$w: duration must be an integer from 1 to 86400, not '0'\$" \
		"$bin" -d 0
	check_error "$w: a stray argument is one line" "^$w: unexpected argument 'extra'\$" "$bin" extra
done

w=$top/build/workloads
check_error "periodic: -p 0 is one line" "period must be an integer from 1 to" "$w/periodic" -p 0
check_error "periodic: -s -1 is one line" "seed must be an unsigned integer, not '-1'" "$w/periodic" -s -1
check_error "periodic: -t with a space is one line" "tag must be 1 to 15 printable" "$w/periodic" -t 'a b'
check_error "periodic: a phase of a whole period is one line" \
	"phase \(1000 us\) must be below the period \(1000 us\)" "$w/periodic" -P 1000
check_error "jitter: -j above period/2 is one line" "jitter \(600 us\) must be at most period/2" \
	"$w/jitter" -j 600
check_error "bimodal: -S not below -L is one line" "short sleep \(5000 us\) must be below long sleep" \
	"$w/bimodal" -S 5000
check_error "pingpong: -g -5 is one line" "gap must be an integer from 0 to" "$w/pingpong" -g -5
check_error "iowait: an empty -f is one line" "device path must be 1 to [0-9]+ characters" \
	"$w/iowait" -f ''
check_error "irqfeed: neither -f nor -u is one line" "give exactly one of -f PATH and -u SOCKET" \
	"$top/build/irqfeed"
check_error "irqfeed: a socket path longer than sun_path is one line" "socket path must be 1 to 107" \
	"$top/build/irqfeed" -u "$(printf 'a%.0s' $(seq 108))"

# phase PROGRAM ARGS...: the "phase N us" of a 1 s run's summary line.
phase() {
	"$@" -d 1 2>/dev/null | sed -n 's/.*, phase \([0-9]*\) us, .*/\1/p'
}
# The seed's first draw, rng_range(0, 999) with splitmix64: seed 1 gives
# 566, seed 2 591 (pinned, as tests/unit/lib/test_rng_stats.c pins the PRNG).
check "periodic: seed 1 puts the grid 566 us after whole periods" \
	[ "$(phase "$w/periodic" -s 1)" = 566 ]
check "periodic: seed 2 puts the grid 591 us after whole periods" \
	[ "$(phase "$w/periodic" -s 2)" = 591 ]
check "jitter: the same seed and period give periodic's phase" \
	[ "$(phase "$w/jitter" -s 2)" = 591 ]
check "periodic: -P sets the phase" [ "$(phase "$w/periodic" -s 2 -P 250)" = 250 ]

# The suite's commands (workloads/suite.txt, what `make run` runs) run
# programs that exist: ours, or Debian's of workloads/programs.txt; the
# program is the word after the NAME, SUITES and EVENTS fields and
# vm/guest/suite.sh's helpers (with_server's server and the taskset before
# a command skipped).
names=" $(for bin in $programs; do basename "$bin"; done | tr '\n' ' ')"
names="$names$(sed 's/#.*//' "$top/workloads/programs.txt" | awk 'NF { print $2 }' | tr ',\n' '  ')"
unknown=$(awk '$1 !~ /^#/ && NF {
		i = 4
		if ($i == "with_server") { while ($i != "--") i++; i++ }
		while ($i == "on_both_cpus" || $i == "with_irqfeed" || $i == "program") {
			if ($i == "program") i++
			i++
		}
		if ($i == "taskset") i += 3
		if ($i == "on_both_cpus") i++
		print $1 ":" $i }' "$top/workloads/suite.txt" |
	while IFS=: read -r entry program; do
		case "$names " in *" $program "*) ;; *) echo "$entry runs '$program'" ;; esac
	done)
check "suite.txt: every entry runs a workload program" [ -z "$unknown" ]
