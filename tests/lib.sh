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
