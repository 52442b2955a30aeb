#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (`make test`): the host suites (tests/unit/*/,
# tests/cli/, tests/hostile/, tests/harness/, tests/repo/: host_suites
# below), the VM suites (tests/vm/*.sh, one of which boots the guest suites
# tests/guest/*.sh), and then the verdict "N passed, N failed".
#
# usage: tests/run.sh [--host | --vm | SUITE...]
#   --host    the host suites only, no boot
#   --vm      the VM and guest suites only (the host suites not run)
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
with_host=1
case ${1:-} in
'') with_vm=1 ;;
--host) with_vm= ;;
--vm) with_vm=1 with_host= ;;
-*) echo "usage: tests/run.sh [--host | --vm | SUITE...]" >&2; exit 2 ;;
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

# The host suites, folder by folder (tests/README.md says what goes where):
# the unit programs' wrappers under the code folder they test, the commands
# run from outside, on hostile input, the scripts around the loader, the
# repository's rules.  No boot, nothing loaded into a kernel.
host_suites() {
	local t
	for t in "$top"/tests/unit/*/*.sh "$top"/tests/{cli,hostile,harness,repo}/*.sh; do
		[ -f "$t" ] && echo "$t"
	done
}

# suite_name PATH: a suite's name in the runner's lines and its log's:
# its path under tests/ without .sh (unit/stats/paired, cli/compare).
suite_name() {
	case $1 in
	"$top"/tests/*) local name=${1#"$top"/tests/}; echo "${name%.sh}" ;;
	*) echo "$(basename "$(dirname "$1")")/$(basename "$1" .sh)" ;;
	esac
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

# The VM suites run side by side, up to TEST_JOBS QEMUs at a time (default:
# the number of CPUs; each QEMU keeps one busy).  A suite boots one QEMU at
# a time unless its header says "# test-qemus: N"; it starts once N are
# free (or alone, when N is more than TEST_JOBS).  The guest suites' boots
# (tests/vm/suite.sh BOOT, one job each) go first, being the longest; a
# suite that does not fit yet lets the next ones that do go before it.
# Each suite's lines are printed when it ends.
vm_jobs() {
	local cap=${TEST_JOBS:-$(nproc)} free i n pid status
	local -a job=() cmd=() qemus=() pending=() pids=()
	[[ $cap =~ ^[1-9][0-9]*$ ]] || { echo "tests/run.sh: TEST_JOBS must be a positive number, not '$cap'" >&2; exit 2; }
	for b in $(bash "$top/tests/vm/suite.sh" --boots); do
		job+=("vm/suite-$b") cmd+=("$top/tests/vm/suite.sh $b") qemus+=(1)
	done
	for t in "$top"/tests/vm/*.sh; do
		[ "$(basename "$t")" = suite.sh ] && continue
		n=$(sed -n 's/^# test-qemus: \([0-9]*\)$/\1/p' "$t")
		job+=("vm/$(basename "$t" .sh)") cmd+=("$t") qemus+=("${n:-1}")
	done
	pending=("${!job[@]}")
	free=$cap
	while [ ${#pending[@]} -gt 0 ] || [ ${#pids[@]} -gt 0 ]; do
		for i in "${!pending[@]}"; do
			n=${pending[$i]}
			[ "${qemus[$n]}" -le $free ] || { [ ${#pids[@]} = 0 ] && [ $free = $cap ]; } || continue
			# shellcheck disable=SC2086 # a script and its argument
			"$top/scripts/progress.py" --title "${job[$n]}" --to 3 --lines \
				-- bash ${cmd[$n]} >"$out/${job[$n]//\//-}.log" 2>&1 &
			pids[$!]=$n
			free=$((free - qemus[n]))
			unset "pending[$i]"
		done
		pending=("${pending[@]}")
		[ ${#pids[@]} -gt 0 ] || continue
		wait -n -p pid "${!pids[@]}"
		status=$?
		n=${pids[$pid]}
		unset "pids[$pid]"
		free=$((free + qemus[n]))
		echo "== ${job[$n]}"
		judge "${job[$n]}" "$out/${job[$n]//\//-}.log" "$status" | tee -a "$results"
	done
}

if [ ${#only[@]} -gt 0 ]; then
	for t in "${only[@]}"; do
		run_suite "$(suite_name "$t")" bash "$t"
	done
elif [ -n "$with_host" ]; then
	mapfile -t suites < <(host_suites)
	for t in "${suites[@]}"; do
		run_suite "$(suite_name "$t")" bash "$t"
	done
fi
if [ -n "$with_vm" ]; then
	vm_jobs
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
