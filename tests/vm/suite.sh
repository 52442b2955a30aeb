#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One boot runs every guest suite (tests/guest/*.sh, installed in the
# initramfs).  Each writes its lines to /host/guest/NAME.out and its exit
# status to /host/guest/NAME.status; here each NAME.out becomes NAME.log,
# with its JSON lines (reports to check against the schema, which the guest
# cannot run) turned into PASS/FAIL.  tests/run.sh judges the logs.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
share=$top/build/test/vm-suite
rm -rf "$share"
mkdir -p "$share/guest"
plan 1

# The timeout only catches a hang: the suites take 8 to 16 minutes of the
# host's time; each starts with the guest's uptime on the console.  How
# many host seconds a guest second costs is QEMU's adaptive icount shift,
# which drifts with the run's history: the 200 attach cycles of
# 70-selectprobes (146 s of guest time) took 4 minutes in one boot and 9
# to 12 in others.
#
# The image with Debian's programs (80-programs.sh runs them) and a disk
# for fio to read.  TEST_KERNEL=NAME (tests/run.sh): the guest suites on
# another build of ours, whose image carries that kernel's module.
boot_args=(-i "$top/build/initramfs-programs.cpio.gz")
if [ -n "${TEST_KERNEL:-}" ]; then
	boot_args=(-k "$top/build/linux-$TEST_KERNEL/arch/x86/boot/bzImage"
		-i "$top/build/initramfs-$TEST_KERNEL-programs.cpio.gz")
fi
"$top/vm/run.sh" "${boot_args[@]}" -s "$share" -t 2400 \
	-q -drive -q "file=$top/build/disk.img,if=virtio,format=raw,cache=none,readonly=on" -- \
	'for t in /usr/share/idlescope/tests/*.sh; do n=${t##*/}; n=${n%.sh};' \
	'echo "== $n at $(cut -d. -f1 /proc/uptime) s of guest uptime";' \
	'sh $t >/host/guest/$n.out 2>&1; echo $? >/host/guest/$n.status; done' \
	>"$share/run.log" 2>&1
rc=$?
check -m "status $rc; log: $share/console.log" "vm: the test boot ends with status 0" [ $rc = 0 ]

# schema_checks: stdin with each "JSON: FILE name" line replaced by the
# verdict of check_report_json.py on FILE (a /host path) on the host.
schema_checks() {
	local line file name err
	# read -r keeps backslashes; IFS= keeps leading blanks.
	while IFS= read -r line; do
		case $line in
		"JSON: "*)
			line=${line#JSON: }
			file=${line%% *}
			file=$share/${file#/host/}
			name=${line#* }
			if err=$(python3 "$top/tests/host/check_report_json.py" "$file" 2>&1); then
				pass "$name"
			else
				fail "$name" "$(echo "$err" | head -n 3 | tr '\n' ' ')"
			fi
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}

for out in "$share"/guest/*.out; do
	[ -e "$out" ] || continue
	tr -d '\r' <"$out" | schema_checks >"${out%.out}.log"
done
