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
