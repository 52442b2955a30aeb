#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the shadow-replay models (no BPF, no VM).  The
# constants check needs the 6.1 menu.c: from the unpacked tree if there is
# one, else straight out of the Debian source tarball.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test
tarball=/usr/src/linux-source-6.1.tar.xz
menu_c=$top/build/linux/drivers/cpuidle/governors/menu.c
plan 116
make -s -C "$top" --no-print-directory build/tests/test_models || exit
if [ ! -f "$menu_c" ] && [ -f "$tarball" ]; then
	mkdir -p "$out"
	menu_c=$out/menu.c
	tar -xJOf "$tarball" linux-source-6.1/drivers/cpuidle/governors/menu.c \
		>"$menu_c" 2>/dev/null || rm -f "$menu_c"
fi
cd "$top" && exec build/tests/test_models "$top/kernel/patches/6.1" "$menu_c" \
	"$top/kernel/config/idlescope.config"
