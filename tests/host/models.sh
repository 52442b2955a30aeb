#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the shadow-replay models (no BPF, no VM).  The
# constants check needs the 6.1 menu.c: from the unpacked tree if there is
# one, else straight out of the Debian source tarball.

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test
bin=$out/test_models
tarball=/usr/src/linux-source-6.1.tar.xz
menu_c=$top/build/linux/drivers/cpuidle/governors/menu.c
mkdir -p "$out"
gcc -O2 -g -Wall -Wextra -I"$top/bpf" -I"$top/loader" \
	-I"$top/kernel/modules/idlescope_states" "$top/tests/host/test_models.c" \
	"$top/loader/models.c" -o "$bin" ||
	{ echo "FAIL: models: test program does not build"; exit 1; }
if [ ! -f "$menu_c" ] && [ -f "$tarball" ]; then
	menu_c=$out/menu.c
	tar -xJOf "$tarball" linux-source-6.1/drivers/cpuidle/governors/menu.c \
		>"$menu_c" 2>/dev/null || rm -f "$menu_c"
fi
cd "$top" && "$bin" "$top/kernel/patches" "$menu_c" "$top/kernel/config/idlescope.config"
