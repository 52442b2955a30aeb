#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run's list of boot jobs (scripts/run-boots.sh): seeds x governor
# sets, GOVERNORS_PER_BOOT governors to a boot (all of them by default).
# GNU parallel is replaced by a stub that runs nothing, so the list the
# script hands it (OUT_DIR/jobs.txt) is checked without booting.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 5

mkdir -p "$tmp/bin"
printf '#!/bin/sh\ncat >/dev/null\n' >"$tmp/bin/parallel"
chmod +x "$tmp/bin/parallel"

# jobs DIR [VAR=VALUE...]: the job list of 2 seeds of menu, teo and ladder.
jobs() {
	local dir=$tmp/$1
	shift
	env -u GOVERNORS_PER_BOOT -u FIRST_SEED -u SSHLOGINFILE PATH="$tmp/bin:$PATH" "$@" \
		"$top/scripts/run-boots.sh" "$dir" 2 1 5 \
		"menu teo ladder" idle >/dev/null 2>&1 && cat "$dir/jobs.txt"
}

got=$(jobs all | tr '\n' ';')
check -m "$got" "boot jobs: by default one boot per seed runs every governor" \
	[ "$got" = "0 menu+teo+ladder;1 menu+teo+ladder;" ]
got=$(jobs two GOVERNORS_PER_BOOT=2 | tr '\n' ';')
check -m "$got" "boot jobs: GOVERNORS_PER_BOOT=2 splits three governors into two boots per seed" \
	[ "$got" = "0 menu+teo;0 ladder;1 menu+teo;1 ladder;" ]
got=$(jobs one GOVERNORS_PER_BOOT=1 FIRST_SEED=4 | tr '\n' ';')
check -m "$got" "boot jobs: GOVERNORS_PER_BOOT=1 is a boot per seed and governor, from FIRST_SEED" \
	[ "$got" = "4 menu;4 teo;4 ladder;5 menu;5 teo;5 ladder;" ]
error_status=2 check_error "boot jobs: GOVERNORS_PER_BOOT=0 is one line" \
	"GOVERNORS_PER_BOOT wants a positive number, not '0'" \
	env PATH="$tmp/bin:$PATH" GOVERNORS_PER_BOOT=0 "$top/scripts/run-boots.sh" "$tmp/zero" 1 1 5 menu idle
check "boot jobs: a refused GOVERNORS_PER_BOOT leaves no job list" [ ! -e "$tmp/zero/jobs.txt" ]
