#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest suites (tests/guest/*.sh, installed in the initramfs), in the
# boots tests/guest/boots.txt lists, side by side.  Each suite writes its
# lines to /host/guest/NAME.out and its exit status to
# /host/guest/NAME.status; here each NAME.out becomes
# build/test/vm-suite/guest/NAME.log, with its JSON lines (reports to check
# against the schema, which the guest cannot run) turned into PASS/FAIL.
# tests/run.sh judges the logs.
#
# usage: tests/vm/suite.sh [BOOT...]   the boots named (default: all of
#                                      them, side by side)
#        tests/vm/suite.sh --boots     the boots' names, one a line
# tests/run.sh runs each boot as a job of its own beside the other VM
# suites.  While a boot runs, build/test/vm-suite/BOOT/console.log is its
# console: a line "== SUITE at N s of guest uptime" as each suite starts
# (for a progress display).
#
# The clock is vm/run.sh's default, CLOCK=fixed, unless CLOCK says
# otherwise: with a fixed icount shift what the guest measures does not
# depend on the host's load, where the adaptive shift of CLOCK=virtual
# stalled both CPUs for up to seconds in loaded boots (docs/clock.md).

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
list=$top/tests/guest/boots.txt
root=$top/build/test/vm-suite
results=$root/guest

# boot_names: the boots of the list, in its order.
boot_names() {
	awk '$1 !~ /^#/ && NF { print $1 }' "$list"
}

# boot_suites BOOT: its suites, in order, on one line.
boot_suites() {
	awk -v b="$1" '$1 == b { $1 = ""; sub(/^ +/, ""); print }' "$list"
}

if [ "${1:-}" = --boots ]; then
	boot_names
	exit
fi
boots=("$@")
[ ${#boots[@]} -gt 0 ] || mapfile -t boots < <(boot_names)
for b in "${boots[@]}"; do
	[ -n "$(boot_suites "$b")" ] || { echo "suite: no boot '$b' in $list" >&2; exit 2; }
done
plan ${#boots[@]}

# The image with Debian's programs (80-programs.sh runs them) and a disk
# for fio to read.  TEST_KERNEL=NAME (tests/run.sh): the guest suites on
# another build of ours, whose image carries that kernel's module.
boot_args=(-i "$top/build/initramfs-programs.cpio.gz")
if [ -n "${TEST_KERNEL:-}" ]; then
	boot_args=(-k "$top/build/linux-$TEST_KERNEL/arch/x86/boot/bzImage"
		-i "$top/build/initramfs-$TEST_KERNEL-programs.cpio.gz")
fi

# run_boot BOOT: one boot of its suites; its status in BOOT/boot.status.
# The timeout only catches a hang: a boot takes 10 to 20 minutes of the
# host's time on two loaded cores (docs/clock.md).
run_boot() {
	local boot=$1 share=$root/$1 cmd=
	rm -rf "$share"
	mkdir -p "$share/guest"
	case " $(boot_suites "$boot") " in
	*" 20-governors "*) ;;
	*) cmd='insmod /lib/modules/idlescope_states.ko || exit 1; ' ;;
	esac
	cmd+="for n in $(boot_suites "$boot"); do"
	cmd+=' echo "== $n at $(cut -d. -f1 /proc/uptime) s of guest uptime";'
	cmd+=' sh /usr/share/idlescope/tests/$n.sh >/host/guest/$n.out 2>&1;'
	cmd+=' echo $? >/host/guest/$n.status; done'
	# A check writes its lines to the share when it ends; the longest
	# ones run for minutes of a loaded host's time: twice the stall limit.
	IDLESCOPE_STALL_S=${IDLESCOPE_STALL_S:-1200} \
		"$top/vm/run.sh" "${boot_args[@]}" -s "$share" -t 2400 \
		-q -drive -q "file=$top/build/disk.img,if=virtio,format=raw,cache=none,readonly=on" \
		-- "$cmd" >"$share/run.log" 2>&1
	echo $? >"$share/boot.status"
}

# schema_checks SHARE: stdin with each "JSON: FILE name" line replaced by
# the verdict of check_report_json.py on FILE (a /host path, in SHARE on
# the host).
schema_checks() {
	local share=$1 line file name err
	# read -r keeps backslashes; IFS= keeps leading blanks.
	while IFS= read -r line; do
		case $line in
		"JSON: "*)
			line=${line#JSON: }
			file=${line%% *}
			file=$share/${file#/host/}
			name=${line#* }
			if err=$(python3 "$top/tests/check_report_json.py" "$file" 2>&1); then
				pass "$name"
			else
				fail "$name" "$(echo "$err" | head -n 3 | tr '\n' ' ')"
			fi
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}

mkdir -p "$results"
for b in "${boots[@]}"; do
	for n in $(boot_suites "$b"); do
		rm -f "$results/$n.log" "$results/$n.status"
	done
	run_boot "$b" &
done
wait

for b in "${boots[@]}"; do
	share=$root/$b
	rc=$(cat "$share/boot.status" 2>/dev/null)
	check -m "status ${rc:-none}; log: $share/console.log" \
		"vm: the test boot $b ends with status 0" [ "$rc" = 0 ]
	for out in "$share"/guest/*.out; do
		[ -e "$out" ] || continue
		n=$(basename "$out" .out)
		tr -d '\r' <"$out" | schema_checks "$share" >"$results/$n.log"
		[ ! -e "$share/guest/$n.status" ] || cp "$share/guest/$n.status" "$results/"
	done
done
