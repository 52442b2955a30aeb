# SPDX-License-Identifier: GPL-2.0
# Shared by the test scripts: one line per check, as tests/run.sh counts them.

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# check NAME COMMAND...: PASS when COMMAND succeeds.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "'$*' failed"; fi
}

# wait_for_loader: until a loader started in the background is ready (it
# pins its tag map last), at most 20 s.  Workloads started earlier would
# find no tag map and leave their periods untagged.
wait_for_loader() {
	tries=0
	while [ ! -e /sys/fs/bpf/idlescope/workload ]; do
		tries=$((tries + 1))
		[ $tries -le 200 ] || return 1
		usleep 100000
	done
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
	awk -v m="$2" '$1 == "model" && $2 == m && /reproduces/ {
			sub(/.*\(/, ""); a += $1; c += $3 }
		END { printf "%d %d", a, c }' "$1"
}

# agrees_99 AGREED CHECKED: at least 100 periods checked, >= 99% agreed.
agrees_99() {
	[ "$2" -ge 100 ] && [ $(($1 * 100)) -ge $(($2 * 99)) ]
}
