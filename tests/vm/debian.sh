#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One boot of Debian's own kernel (kernel/debian.sh) with our initramfs:
# the BPF object and loader built for our kernel must load unchanged (CO-RE),
# attach, and record idle periods on every CPU, under stock menu with
# idlescope_states built against Debian's headers, and say what this kernel
# lacks.  Stock menu stores no prediction: the loader rebuilds it from
# menu's data (loader/replay/reconstruct.c), and the menu model must agree.  The
# guest only runs things; the checks read what it left in the share.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kernel_boot.sh"
share=$top/build/test/vm-debian
plan 15
rm -rf "$share"
mkdir -p "$share"

# An unreachable package archive (a proxy nobody listens on): one line, and
# nothing half-fetched left in the cache.
check_error "debian: an unreachable package archive is one line of error" \
	'^debian: error: cannot fetch .* from the package archive: ' \
	env IDLESCOPE_CACHE="$share/nocache" http_proxy=http://127.0.0.1:9 \
	https_proxy=http://127.0.0.1:9 "$top/kernel/debian.sh" --series 6.1
check "debian: a failed fetch leaves nothing in the cache" \
	[ -z "$(ls -A "$share/nocache/debian" 2>/dev/null)" ]

if ! "$top/kernel/debian.sh" --series 6.1 "$top/build/initramfs.cpio.gz" >"$share/debian.log" 2>&1; then
	fail "debian: kernel/debian.sh prepares Debian's kernel" "$(grep -m1 'error:' "$share/debian.log")"
	exit 0
fi
release=$(sed -n 's/^\[debian\] ready: \([^ ]*\) .*/\1/p' "$share/debian.log")

# A 1 ms sleeper on each CPU while the loader watches under menu.
debian=$top/build/debian/6.1
"$top/vm/run.sh" -k "$debian/vmlinuz" -i "$debian/initramfs.cpio.gz" \
	-a "$(cat "$debian/cmdline")" -s "$share" -t 600 -- '. /usr/share/idlescope/lib.sh
cpuidle=/sys/devices/system/cpu/cpuidle
uname -r >/host/release.txt
cat $cpuidle/current_driver >/host/driver-before.txt
insmod /lib/modules/idlescope_states.ko
cat $cpuidle/current_driver >/host/driver.txt
mkdir -p /host/report
idlescope -g menu -d 5 -i 5 -w periodic1ms -o /host/report -r /host/run.rec >/host/loader.txt 2>&1 &
loader=$!
wait_for_loader
periodic -d 3 -p 1000 -c 0 -t periodic1ms >/dev/null &
periodic -d 3 -p 1000 -c 1 -s 2 -t periodic1ms >/dev/null
wait $loader' >"$share/run.log" 2>&1
kernel_boot_basics "$share" $? "${release:-unknown}" \
	"debian: the boot ends with the loader's status 0" "debian: the guest runs Debian's kernel" \
	"debian: idlescope_states holds the cpuidle slot"

# Debian's kernel has neither our observation fields nor the 2010 governors.
mode=$(grep -m1 '^idlescope: mode: ' "$share/loader.txt" 2>/dev/null)
check -m "${mode#idlescope: mode: }" "debian: the loader prints its mode" [ -n "$mode" ]
check "debian: the mode says: no observation fields, no 2010 governors, idlescope_states" \
	[ "$(echo "$mode" | grep -c 'observation fields no, 2010 governors no, .*cpuidle driver idlescope_states$')" = 1 ]

counts=$(loader_counts "$share/loader.txt")
nr_cpus=$(echo "$counts" | grep -c .)
check -m "$nr_cpus rows" "debian: counters for both CPUs" [ "$nr_cpus" = 2 ]
# The sleeper alone makes about 3000 periods per CPU; 1000 leaves room.
while read -r cpu entries exits records dropped; do
	check -m "$records records, $entries entries" "debian: cpu$cpu records idle periods" \
		[ "$records" -ge 1000 ]
	check -m "$dropped dropped" "debian: cpu$cpu drops nothing" [ "$dropped" = 0 ]
done < <(grep . <<<"$counts")

# The prediction rebuilt from menu's data at each idle entry, and the menu
# model replayed on the same periods: they must agree as the model and the
# kernel's stored prediction do on our kernel.
report=$share/report/report.txt
schema=$(python3 "$top/tests/check_report_json.py" "$share/report/report.json" 2>&1)
rc=$?
check -m "$(echo "$schema" | head -n 1)" "debian: report.json matches the schema" [ $rc = 0 ]
menu_rebuilt_checks "$report" "debian: stock menu's predictions are reconstructed" \
	"debian: model menu reproduces the reconstructed prediction on >= 99%"
