# SPDX-License-Identifier: GPL-2.0
# Shared by the test scripts (host and guest, POSIX sh): one line per check,
# as tests/run.sh counts them.
#
#   PLAN: N                 the suite runs exactly N checks (first line)
#   PASS: name
#   FAIL: name (detail)     detail: what was measured, why it failed
#   JSON: FILE name         guest only: FILE (a report.json under /host) must
#                           pass tests/check_report_json.py; the host
#                           turns the line into PASS/FAIL after the boot
#
# A check's name is the same in every run: measured values go in the
# detail, never in the name, so two runs' lines can be compared.

# plan N: this suite runs exactly N checks.  tests/run.sh fails a suite that
# ran fewer (it died halfway) or more.
plan() { echo "PLAN: $1"; }

pass() { echo "PASS: $1"; }

# fail NAME DETAIL
fail() { echo "FAIL: $1 ($2)"; }

# check [-m DETAIL] NAME COMMAND...: PASS when COMMAND succeeds; a FAIL
# says DETAIL (the measured values), or the command.
check() {
	local detail=
	if [ "$1" = -m ]; then
		detail=$2
		shift 2
	fi
	local name=$1
	shift
	if "$@"; then
		pass "$name"
	else
		fail "$name" "${detail:-'$*' failed}"
	fi
}

# check_report_json NAME FILE: FILE passes the report.json schema check.
# The guest has no python: the host runs the check after the boot.
check_report_json() {
	echo "JSON: $2 $1"
}

# progress_step [I/N] TEXT: "progress: I/N at S s: TEXT" on the guest's
# console, S its uptime: the step scripts/progress.py shows for a running
# boot (a step counted I of N gives an early ETA).
progress_step() {
	case $1 in
	*/*) set -- "$1 " "$2" ;;
	*) set -- "" "$1" ;;
	esac
	echo "progress: ${1}at $(cut -d. -f1 /proc/uptime) s: $2"
}

# A loader duration (-d) no test run reaches, for the loaders a suite
# stops with SIGINT.  A duration in guest time does not bound a run: while
# the guest waits for the 9p share with no timer near, guest time jumps on
# to the next timer, hours or days at once in the fixed clock (docs/
# clock.md), and a loader started with -d 3600 ended in the middle of its
# suite.
UNTIL_STOPPED_S=100000000

# wait_for_loader [PID]: until a loader started in the background (PID,
# default $!) is ready (it pins its tag map last); fails once it has
# exited without.  Workloads started earlier would find no tag map and
# leave their periods untagged.  No limit in guest time: while the loader
# waits for the 9p share, guest time runs on to the next timer (docs/
# clock.md), so a limit of N polls would be a limit in host time; a
# loader that hangs is the boot's timeout's to catch.
wait_for_loader() {
	wait_pid=${1:-$!}
	while [ ! -e /sys/fs/bpf/idlescope/workload ]; do
		kill -0 "$wait_pid" 2>/dev/null || return 1
		usleep 100000
	done
}

# exit_cost_off, exit_cost_restore: guest only.  Switch idlescope_states'
# exit cost (its exit_delay parameter) off for a measurement that is not
# about it, and back to what it was; without the module both do nothing.
# exit_cost_state prints the parameter as the module has it (Y, N or
# nothing), for a check's detail.
exit_delay_param=/sys/module/idlescope_states/parameters/exit_delay
exit_cost_state() { cat $exit_delay_param 2>/dev/null; }
exit_cost_off() {
	saved_exit_delay=$(exit_cost_state)
	[ -z "$saved_exit_delay" ] || echo N >$exit_delay_param
}
exit_cost_restore() {
	[ -z "$saved_exit_delay" ] || echo "$saved_exit_delay" >$exit_delay_param
}

# asan_suite NAME: host only, in a suite's fresh output directory: build
# the loader with ASan and UBSan (the sanitizer findings exit 99), genrec
# and recfile_cases, and set L to the loader; one FAIL "NAME: test
# programs build" and exit 1 when they do not build (the loader's main()
# needs the BPF skeleton, which needs the kernel: make loader).
asan_suite() {
	if [ ! -f "$top/build/idlescope.skel.h" ]; then
		fail "$1: test programs build" "no build/idlescope.skel.h: run make loader first"
		exit 1
	fi
	make -s -C "$top" --no-print-directory build/asan/idlescope build/genrec \
		build/tests/recfile_cases >build.log 2>&1 ||
		{ fail "$1: test programs build" "$(tail -n 3 build.log | tr '\n' ' ')"; exit 1; }
	export ASAN_OPTIONS=exitcode=99:detect_leaks=0 UBSAN_OPTIONS=exitcode=99:print_stacktrace=1
	L=$top/build/asan/idlescope
}

# check_error NAME PATTERN COMMAND...: COMMAND fails (with exit status
# $error_status, when set) with exactly one line on stderr, and that line
# matches PATTERN (grep -E).
check_error() {
	local name=$1 pattern=$2 err rc lines
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ $rc != 0 ] && [ "$rc" = "${error_status:-$rc}" ] && [ "$lines" = 1 ] &&
		printf '%s\n' "$err" | grep -qE -- "$pattern"; then
		pass "$name"
	else
		fail "$name" "exit $rc, $lines lines: $(printf '%s' "$err" | tr '\n' ' ')"
	fi
}

# agreement REPORT MODEL: "agreed checked" summed over the report.txt lines
# "model MODEL reproduces the kernel's prediction on P% (A of C) of periods".
agreement() {
	awk -v m="$2" '$1 == "model" && $2 == m && /reproduces the kernel.s prediction/ {
			sub(/.*\(/, ""); a += $1; c += $3 }
		END { printf "%d %d", a, c }' "$1"
}

# state_agreement REPORT MODEL: the same over the lines "model MODEL
# reproduces the kernel's chosen state on P% (A of C) of selects".
state_agreement() {
	awk -v m="$2" '$1 == "model" && $2 == m && /reproduces the kernel.s chosen state/ {
			sub(/.*\(/, ""); a += $1; c += $3 }
		END { printf "%d %d", a, c }' "$1"
}

# reconstruction REPORT.txt: "AGREED CHECKED" of its line saying how often
# stock menu's prediction rebuilt from menu's data (loader/replay/reconstruct.c)
# matched the one the kernel stored.
reconstruction() {
	awk '$1 == "reconstruction" && $2 == "matches" {
			sub(/.*\(/, ""); a = $1; c = $3 }
		END { printf "%d %d", a, c }' "$1"
}

# agrees_99 AGREED CHECKED: at least 100 periods checked (a percentage of
# fewer says little), >= 99% agreed.
agrees_99() {
	[ "$2" -ge 100 ] && [ $(($1 * 100)) -ge $(($2 * 99)) ]
}

# agrees_999 AGREED CHECKED: at least 1000 checked, >= 99.9% agreed.
agrees_999() {
	[ "$2" -ge 1000 ] && [ $(($1 * 1000)) -ge $(($2 * 999)) ]
}

# count_flag CSV GOVERNOR BIT [CPU]: "records-of-GOVERNOR records-with-BIT"
# from `idlescope dump` (flags are printed in hex), of CPU's records only
# when given.
count_flag() {
	csv_awk -v g="$2" -v bit="$3" -v cpu="${4:-any}" '
		function hex(s,   i, n, d) {
			n = 0; s = tolower(substr(s, 3))
			for (i = 1; i <= length(s); i++) {
				d = index("0123456789abcdef", substr(s, i, 1)) - 1
				n = n * 16 + d
			}
			return n
		}
		$col["governor"] == g && (cpu == "any" || $col["cpu"] == cpu) {
			n++; if (int(hex($col["flags"]) / bit) % 2) m++
		}
		END { printf "%d %d", n, m }' "$1"
}

# csv_awk [-v VAR=VALUE]... PROGRAM FILE...: awk -F, over `idlescope dump`
# CSV files that selects columns by name: PROGRAM says $col["governor"],
# not $10, so a new or moved record field breaks no check.  Each file's
# header line fills col[name] = index and is not passed to PROGRAM.  A
# name PROGRAM uses (literally, col["name"]) that a file's header lacks is
# one line on stderr and exit status 2: col["typo"] would be 0, and $0
# would silently compare the whole line.  POSIX sh and awk (busybox too).
csv_awk() {
	local n=$# arg prog= want_var= names name header
	while [ $n -gt 0 ]; do
		arg=$1
		shift
		n=$((n - 1))
		if [ -n "$want_var" ]; then
			want_var=
		elif [ -z "$prog" ] && [ "$arg" = -v ]; then
			want_var=1
		elif [ -z "$prog" ]; then
			prog=$arg
			names=$(printf '%s\n' "$prog" | grep -o 'col\["[^"]*"\]' |
				sed 's/^col\["//; s/"\]$//' | sort -u)
			arg="FNR == 1 { for (csv_i = 1; csv_i <= NF; csv_i++) col[\$csv_i] = csv_i; next }
$prog"
		else
			header=$(head -n 1 "$arg") || return 2
			for name in $names; do
				case ",$header," in
				*",$name,"*) ;;
				*)
					echo "csv_awk: $arg: no column \"$name\"" >&2
					return 2
					;;
				esac
			done
		fi
		set -- "$@" "$arg"
	done
	awk -F, "$@"
}
