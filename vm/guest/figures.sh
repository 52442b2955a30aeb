#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A workload's own performance figures, from its program's output: what
# the program itself says about the run (requests/s and latency
# percentiles, IOPS and completion latency, hackbench's time, cyclictest's
# latencies, round trips/s), beside which the report puts the idle scores.
#
# usage: figures.sh PARSER FILE
#   PARSER  the program whose output FILE is: cyclictest, hackbench,
#           stress-ng, stress-ng-cyclic, fio, sockperf, hey, pingpong,
#           consume; or delivered, for any workload of ours: how much of
#           its own target it delivered (rate_delivered_pct for a device's
#           train, deadlines_met_pct for a timer pattern; nothing for one
#           without a target)
# Prints one "FIGURE VALUE UNIT" line per figure (FIGURE in snake_case with
# the unit in its name, VALUE a plain decimal number).  An output without
# a line the parser needs, or with a value that is not a number, is one
# line on stderr naming the program and what is missing, and exit status
# 1: a changed output format is an error, never a silent 0.  Exit 2: usage.
# POSIX sh and awk (busybox in the guest, the host's in tests/harness/guest_figures.sh).

[ $# = 2 ] || { echo "usage: figures.sh PARSER FILE" >&2; exit 2; }
parser=$1
file=$2
[ -r "$file" ] || { echo "figures: $parser: cannot read its output $file" >&2; exit 1; }

# run_awk PROGRAM: awk over FILE with the helpers every parser uses:
# fail(what) records the first missing line, isnum(s) checks a number,
# emit(name, value, unit) keeps a figure; END of PROGRAM calls done(),
# which prints them all or the first error.  Carriage returns (a serial
# console's copy) are dropped.
run_awk() {
	awk -v parser="$parser" '
	function fail(what) { if (err == "") err = "no " what " in its output" }
	function isnum(s) { return s ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
	function emit(name, value, unit) {
		if (!isnum(value)) {
			if (err == "") err = name " is not a number: \"" value "\""
			return
		}
		out = out sprintf("%s %s %s\n", name, value, unit)
	}
	{ sub(/\r$/, "") }
	function done() {
		if (err != "") {
			printf "figures: %s: %s\n", parser, err > "/dev/stderr"
			exit 1
		}
		printf "%s", out
	}
	'"$1" "$file"
}

case $parser in
cyclictest)
	# "T: 0 (  337) P: 0 I:1000 C:   2000 Min:     51 Act:   54 Avg:   54 Max:      66"
	# per thread: the average weighted by loops, the largest maximum.
	# A wide value leaves no blank after its label ("Act:467544").
	run_awk '
	function after(label) {
		if (!match($0, label " *[0-9]+")) return ""
		s = substr($0, RSTART + length(label), RLENGTH - length(label))
		sub(/^ */, "", s)
		return s
	}
	/^T: *[0-9]+ / {
		c = after("C:"); a = after("Avg:"); m = after("Max:")
		if (!isnum(c) || !isnum(a) || !isnum(m)) { fail("C:/Avg:/Max: in a thread line"); next }
		threads++; loops += c; sum += a * c; if (m > max) max = m
	}
	END {
		if (!threads || !loops) fail("thread line (T: N ... Avg: ... Max: ...)")
		else { emit("latency_avg_us", sprintf("%.1f", sum / loops), "us"); emit("latency_max_us", max, "us") }
		done()
	}'
	;;
hackbench)
	run_awk '
	/^Time: / { t = $2 }
	END { if (t == "") fail("\"Time: SECONDS\" line"); else emit("time_s", t, "s"); done() }'
	;;
stress-ng | stress-ng-cyclic)
	# "stress-ng: metrc: [65] sleep 5942052 2.97 2.32 2.37 1999613.96 1265962.50"
	# (bogo ops/s in real time is the 9th field); cyclic adds percentiles
	# "stress-ng: info:  [146] cyclic:   50.00%:     133350 ns".
	run_awk '
	$2 == "metrc:" && NF == 10 && $4 != "stressor" { rate = $9 }
	/cyclic: +50\.00%:/ { p50 = $(NF - 1) }
	/cyclic: +99\.00%:/ { p99 = $(NF - 1) }
	END {
		if (rate == "") fail("metrics line (stress-ng: metrc: ... bogo ops/s)")
		else emit("bogo_ops_per_s", rate, "ops/s")
		if (parser == "stress-ng-cyclic") {
			if (p50 == "" || p99 == "") fail("cyclic latency percentiles (50.00%, 99.00%)")
			else { emit("latency_p50_us", sprintf("%.2f", p50 / 1000), "us")
				emit("latency_p99_us", sprintf("%.2f", p99 / 1000), "us") }
		}
		done()
	}'
	;;
fio)
	# --output-format=terse (version 3): ";"-separated, read IOPS in field
	# 8, read completion latency mean in 16 (us), its percentiles in
	# 18..37 as "P%=VALUE".
	run_awk '
	BEGIN { FS = ";" }
	$1 == "3" && NF > 40 {
		iops = $8; clat = $16
		for (i = 18; i <= 37; i++) {
			split($i, kv, "=")
			if (kv[1] == "50.000000%") p50 = kv[2]
			if (kv[1] == "99.000000%") p99 = kv[2]
		}
	}
	END {
		if (iops == "") fail("terse version 3 line (--output-format=terse)")
		else if (p50 == "" || p99 == "") fail("completion latency percentiles 50% and 99% in the terse line")
		else {
			emit("read_iops", iops, "IO/s"); emit("clat_avg_us", clat, "us")
			emit("clat_p50_us", p50, "us"); emit("clat_p99_us", p99, "us")
		}
		done()
	}'
	;;
sockperf)
	# under-load: "sockperf: Summary: Latency is 6373.774 usec",
	# "sockperf: ---> percentile 50.000 =  786.917", and the valid
	# duration's "RunTime=0.564 sec; SentMessages=501; ReceivedMessages=6".
	run_awk '
	/Summary: Latency is/ { avg = $(NF - 1) }
	/---> percentile 50\.000 =/ { p50 = $NF }
	/---> percentile 99\.000 =/ { p99 = $NF }
	/\[Valid Duration\]/ {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^RunTime=/) { sub(/^RunTime=/, "", $i); run = $i }
			if ($i ~ /^ReceivedMessages=/) { sub(/^ReceivedMessages=/, "", $i); recv = $i }
		}
	}
	END {
		if (run == "" || recv == "") fail("\"[Valid Duration] RunTime=... ReceivedMessages=...\" line")
		else if (run <= 0) fail("positive RunTime")
		else emit("replies_per_s", sprintf("%.1f", recv / run), "msg/s")
		if (avg == "") fail("\"Summary: Latency is\" line")
		else emit("latency_avg_us", avg, "us")
		if (p50 == "" || p99 == "") fail("latency percentiles 50.000 and 99.000")
		else { emit("latency_p50_us", p50, "us"); emit("latency_p99_us", p99, "us") }
		done()
	}'
	;;
hey)
	# "  Requests/sec:	89.1162", "  50% in 0.0006 secs"; any entry under
	# "Error distribution:" means requests failed.
	run_awk '
	/^ *Requests\/sec:/ { rps = $2 }
	/^ *50% in / { p50 = $3 }
	/^ *99% in / { p99 = $3 }
	/^Error distribution:/ { in_errors = 1; next }
	in_errors && /^ *\[/ { errors++ }
	END {
		if (errors) fail("errors (its \"Error distribution\" lists " errors ")")
		if (rps == "") fail("\"Requests/sec:\" line")
		else emit("requests_per_s", rps, "req/s")
		if (p50 == "" || p99 == "") fail("latency distribution lines 50% and 99%")
		else { emit("latency_p50_us", sprintf("%.1f", p50 * 1000000), "us")
			emit("latency_p99_us", sprintf("%.1f", p99 * 1000000), "us") }
		done()
	}'
	;;
pingpong)
	# "pingpong: CPUs 0 and 1, ..., 12345 round trips/s, round trip ..."
	run_awk '
	/^pingpong: / { for (i = 2; i < NF; i++) if ($(i + 1) == "round" && $(i + 2) == "trips/s,") rt = $i }
	END { if (rt == "") fail("\"N round trips/s\" summary"); else emit("round_trips_per_s", rt, "1/s"); done() }'
	;;
consume)
	# "consume: ..., busy 500 us, ... lateness mean 5.2 us, median 4.9 us, p99 12.1 us, ..."
	# once per instance (on_both_cpus: one per CPU): the worse CPU's.
	run_awk '
	/^consume: / {
		for (i = 2; i < NF; i++) {
			if ($i == "median" && (med == "" || $(i + 1) + 0 > med + 0)) med = $(i + 1)
			if ($i == "p99" && (p99 == "" || $(i + 1) + 0 > p99 + 0)) p99 = $(i + 1)
		}
	}
	END {
		if (med == "" || p99 == "") fail("consume summary with lateness median and p99")
		else { emit("lateness_median_us", med, "us"); emit("lateness_p99_us", p99, "us") }
		done()
	}'
	;;
delivered)
	# What a workload of ours delivered of its own target, the worse
	# instance's (on_both_cpus: a summary line per CPU).  irqtrain's "R Hz
	# of T Hz" is its device's train, which no governor moves: a rate far
	# short of it is a stalled device or guest (rate_delivered_pct).  A
	# timer pattern's "N wakeups, ..., M overruns" (an overrun is a
	# deadline it had to skip) is the deadlines it met, which a state too
	# deep for its period does move: a figure beside the scores
	# (deadlines_met_pct).  A workload that says neither gives nothing.
	run_awk '
	/^[a-z0-9_-]+: / {
		for (i = 2; i <= NF; i++) {
			if ($i == "wakeups," && isnum($(i - 1))) {
				w = $(i - 1); o = 0
				for (k = i + 1; k <= NF; k++)
					if ($k ~ /^overruns,?$/ && isnum($(k - 1))) o = $(k - 1)
				if (w + o > 0 && (met == "" || 100 * w / (w + o) < met + 0))
					met = 100 * w / (w + o)
			}
			if ($i == "Hz" && $(i + 1) == "of" && isnum($(i - 1)) && isnum($(i + 2)) &&
			    $(i + 2) > 0 && (rate == "" || 100 * $(i - 1) / $(i + 2) < rate + 0))
				rate = 100 * $(i - 1) / $(i + 2)
		}
	}
	END {
		if (rate != "") emit("rate_delivered_pct", sprintf("%.1f", rate), "%")
		if (met != "") emit("deadlines_met_pct", sprintf("%.1f", met), "%")
		done()
	}'
	;;
*)
	echo "figures: unknown parser '$parser' (cyclictest, hackbench, stress-ng, stress-ng-cyclic, fio, sockperf, hey, pingpong, consume, delivered)" >&2
	exit 2
	;;
esac
