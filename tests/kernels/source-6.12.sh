#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Our 6.12 build (KERNEL=6.12: Debian's linux-source-6.12 with
# kernel/patches/6.12) booted once, with the BPF object and loader built
# for our 6.1 kernel: they load unchanged (CO-RE), the select probes attach
# to every governor's select, every CPU records, the observation fields and
# the 2010 governors are there, and the 2010 models reproduce the 6.12
# kernel's predictions as they do 6.1's (tests/kernel_boot.sh).  Not part
# of `make test`: a cold 6.12 build is a second kernel build
# (docs/kernels.md); `make test-kernels` or `tests/run.sh` on this file.
#
# The teo and 6.12 menu models' agreement with this kernel: checks_teo and
# checks_menu below, on the sessions this boot already runs; and the
# governors of the series' upstream changes (docs/upstream.md), menu615
# and teo70, with their models: checks_menu615 and checks_teo70.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kernel_boot.sh"
share=$top/build/test/kernels-source-6.12
prefix=source-6.12
boot_governors="menu teo menu2010 menu2010fix menu2010rpd menu615 teo70"

# agree_99 SESSION MODEL: the model replayed on the session's periods makes
# the kernel's stored prediction.
agree_99() {
	set -- $(agreement "$1/report/report.txt" "$2") "$2"
	check -m "$1 of $2" "$prefix $3: model $3 reproduces the kernel's prediction on >= 99%" \
		agrees_99 "$1" "$2"
}
checks_menu2010() { agree_99 "$1" menu2010; }
checks_menu2010fix() { agree_99 "$1" menu2010fix; }
checks_menu2010rpd() { agree_99 "$1" menu2010rpd; }

# 6.12's own models, checked by its governors' choices as 6.1's are
# (tests/guest/45-statemodels.sh): teo-6.12's chosen state, menu-6.12's
# prediction and chosen state, each on >= 99.9% of selects.
checks_teo() {
	set -- $(state_agreement "$1/report/report.txt" teo-6.12)
	check -m "$1 of $2" "$prefix teo: model teo-6.12 reproduces teo's chosen state on >= 99.9%" \
		agrees_999 "$1" "$2"
}
checks_menu() {
	local report=$1/report/report.txt

	set -- $(agreement "$report" menu-6.12)
	check -m "$1 of $2" "$prefix menu: model menu-6.12 reproduces menu's prediction on >= 99.9%" \
		agrees_999 "$1" "$2"
	set -- $(state_agreement "$report" menu-6.12)
	check -m "$1 of $2" "$prefix menu: model menu-6.12 reproduces menu's chosen state on >= 99.9%" \
		agrees_999 "$1" "$2"
}
# menu615 (6.15's reading of menu's intervals) and teo70 (7.0's teo), each
# reproduced by its model on >= 99.9% of selects: menu615's prediction
# and chosen state, teo70's chosen state.
checks_menu615() {
	local report=$1/report/report.txt

	set -- $(agreement "$report" menu615)
	check -m "$1 of $2" "$prefix menu615: model menu615 reproduces menu615's prediction on >= 99.9%" \
		agrees_999 "$1" "$2"
	set -- $(state_agreement "$report" menu615)
	check -m "$1 of $2" \
		"$prefix menu615: model menu615 reproduces menu615's chosen state on >= 99.9%" \
		agrees_999 "$1" "$2"
}
checks_teo70() {
	set -- $(state_agreement "$1/report/report.txt" teo70)
	check -m "$1 of $2" "$prefix teo70: model teo70 reproduces teo70's chosen state on >= 99.9%" \
		agrees_999 "$1" "$2"
}
nr_model_checks=9

plan $(($(kernel_boot_nr_checks) + nr_model_checks))
rm -rf "$share"
mkdir -p "$share"

if ! make -s -C "$top" --no-print-directory KERNEL=6.12 kernel build/initramfs-6.12.cpio.gz \
	>"$share/make.log" 2>&1; then
	fail "$prefix: make builds the 6.12 kernel and its initramfs" \
		"$(grep -m1 'error' "$share/make.log"); log: $share/make.log"
	exit 0
fi
release=$(cat "$top/build/linux-6.12/include/config/kernel.release")

kernel_boot "$prefix" "$share" "$release" \
	'observation fields yes, 2010 governors yes, select probes yes, cpuidle driver idlescope_states$' \
	-k "$top/build/linux-6.12/arch/x86/boot/bzImage" -i "$top/build/initramfs-6.12.cpio.gz"
