#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One boot of Debian's prebuilt 6.12 kernel (kernel/debian.sh --series
# 6.12: linux-image-6.12.N+deb12-amd64-unsigned, fetched once per machine)
# with our initramfs: the BPF object and loader built for our 6.1 kernel
# must load there unchanged (CO-RE), attach their select probes, and record
# idle periods on every CPU under stock menu (tests/kernel_boot.sh).
# Debian's image stands in for our own 6.12 build, which would cost `make
# test` a second cold kernel build (docs/kernels.md); Debian builds menu
# and ladder, not teo.
#
# Self-contained: nothing else depends on it, so `make test` runs it while
# it is in tests/vm/ and not when it is moved out.  Checks of this same
# boot are added as checks_GOVERNOR functions below and, for a governor
# not yet watched, a word in boot_governors (tests/kernel_boot.sh).

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/kernel_boot.sh"
share=$top/build/test/vm-debian-6.12
debian=$top/build/debian/6.12
prefix=debian-6.12
boot_governors="menu"

# menu's data is read on every entry: its prediction is rebuilt from it
# (with 6.12's arithmetic, loader/replay/reconstruct.c), and 6.12's menu
# model, replayed on the same periods, must agree with the rebuilt
# prediction (the check's name says "model menu": the menu of this kernel).
checks_menu() {
	menu_rebuilt_checks "$1/report/report.txt" \
		"$prefix menu: menu's predictions are rebuilt from its data" \
		"$prefix menu: model menu reproduces the rebuilt prediction on >= 99%" menu-6.12
}
nr_menu_checks=2

plan $(($(kernel_boot_nr_checks) + nr_menu_checks))
rm -rf "$share"
mkdir -p "$share"

if ! "$top/kernel/debian.sh" --series 6.12 "$top/build/initramfs.cpio.gz" >"$share/debian.log" 2>&1; then
	fail "$prefix: kernel/debian.sh prepares Debian's kernel" "$(grep -m1 'error:' "$share/debian.log")"
	exit 0
fi
release=$(sed -n 's/^\[debian\] ready: \([^ ]*\) .*/\1/p' "$share/debian.log")

kernel_boot "$prefix" "$share" "$release" \
	'observation fields no, 2010 governors no, select probes yes, cpuidle driver idlescope_states$' \
	-k "$debian/vmlinuz" -i "$debian/initramfs.cpio.gz" -a "$(cat "$debian/cmdline")"
