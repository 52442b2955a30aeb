#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (`make test`): the host suites (tests/host/*.sh), the VM
# suites (tests/vm/*.sh, one of which boots the guest suites
# tests/guest/*.sh), and then the verdict "N passed, N failed".
#
# usage: tests/run.sh [--host | SUITE...]
#   --host    the host suites only, no boot
#   SUITE...  these suite scripts only (e.g. tests/kernels/*.sh, the suites
#             `make test` does not run: each builds or boots another kernel)
#
# TEST_KERNEL=NAME in the environment boots the guest suites on
# build/linux-NAME with build/initramfs-NAME-programs.cpio.gz (`make test
# KERNEL=6.12` sets it).
#
# A suite prints "PLAN: N" and one "PASS: name" or "FAIL: name (detail)"
# line per check (tests/lib.sh).  The count is honest: besides the suites'
# own lines, each of these is one more FAIL line here:
#   - the suite ran more or fewer checks than it planned, or has no plan
#     (it died halfway, or a check ran twice);
#   - it exited with a status other than 0, or 1 after a failed check
#     (the status of a test program whose checks failed): a crash, a
#     signal, an error of the script itself;
#   - a guest suite left no status: the boot ended before it finished.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib.sh"
out=$top/build/test
# Where tests/vm/suite.sh leaves each guest suite's NAME.log and NAME.status.
guest_results=$out/vm-suite/guest

only=()
case ${1:-} in
'') with_vm=1 ;;
--host) with_vm= ;;
-*) echo "usage: tests/run.sh [--host | SUITE...]" >&2; exit 2 ;;
*)
	with_vm=
	for t in "$@"; do
		[ -f "$t" ] || { echo "tests/run.sh: no suite $t" >&2; exit 2; }
		only+=("$(cd "$(dirname "$t")" && pwd)/$(basename "$t")")
	done
	;;
esac

rm -rf "$out"
mkdir -p "$out"
# Where the runner's own lines go, and the progress of the VM suites'
# boots (scripts/progress.py) with them; each suite's output goes to its log.
exec 3>&1
results=$out/results.txt
: >"$results"

# status_detail STATUS: how a process that ended with STATUS ended.
status_detail() {
	if [ "$1" -gt 128 ] && [ "$1" -lt 160 ]; then
		echo "killed by signal $(($1 - 128)) (SIG$(kill -l $(($1 - 128))))"
	else
		echo "exited with status $1"
	fi
}

# judge SUITE LOG STATUS: LOG's check lines, then one FAIL line for each
# way SUITE was not honest (see the top of this file).  STATUS is empty
# when the suite never finished.
judge() {
	local suite=$1 log=$2 status=$3 planned ran failed
	grep -E '^(PASS|FAIL): ' "$log"
	planned=$(sed -n 's/^PLAN: //p' "$log")
	ran=$(grep -cE '^(PASS|FAIL): ' "$log")
	failed=$(grep -c '^FAIL: ' "$log")
	if ! [[ $planned =~ ^[0-9]+$ ]]; then
		fail "$suite: declares one plan" "PLAN lines: '$(echo $planned)'; log: $log"
	elif [ "$ran" != "$planned" ]; then
		fail "$suite: runs its planned checks" "ran $ran of $planned; log: $log"
	fi
	if [ -z "$status" ]; then
		fail "$suite: finishes" "no exit status: the boot ended before it; log: $log"
	elif [ "$status" != 0 ] && ! [ "$status" = 1 -a "$failed" -gt 0 ]; then
		fail "$suite: ends normally" "$(status_detail "$status"); log: $log"
	fi
}

# run_suite SUITE COMMAND...: run one suite, keep its whole output in a log
# and judge it.
run_suite() {
	local suite=$1 log=$out/${1//\//-}.log status
	shift
	echo "== $suite"
	"$@" >"$log" 2>&1
	status=$?
	judge "$suite" "$log" "$status" | tee -a "$results"
}

if [ ${#only[@]} -gt 0 ]; then
	for t in "${only[@]}"; do
		run_suite "$(basename "$(dirname "$t")")/$(basename "$t" .sh)" bash "$t"
	done
else
	for t in "$top"/tests/host/*.sh; do
		run_suite "host/$(basename "$t" .sh)" bash "$t"
	done
fi
if [ -n "$with_vm" ]; then
	for t in "$top"/tests/vm/*.sh; do
		suite=vm/$(basename "$t" .sh)
		run_suite "$suite" "$top/scripts/progress.py" --title "$suite" --to 3 -- bash "$t"
	done
	for t in "$top"/tests/guest/*.sh; do
		name=$(basename "$t" .sh)
		echo "== guest/$name"
		if [ -f "$guest_results/$name.log" ]; then
			judge "guest/$name" "$guest_results/$name.log" \
				"$(cat "$guest_results/$name.status" 2>/dev/null)"
		else
			fail "guest/$name: runs" "no log in $guest_results: the boot ended before it"
		fi | tee -a "$results"
	done
fi

# Two checks of one name could not be told apart between runs.
sed -n 's/^PASS: //p' "$results" | sort | uniq -d | while read -r name; do
	fail "runner: check names are unique" "'$name' passed more than once"
done | tee -a "$results"

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
if [ "$failed" -gt 0 ]; then
	echo "failed checks:"
	grep '^FAIL: ' "$results"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
