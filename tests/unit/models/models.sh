#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the shadow-replay models (no BPF, no VM).  The
# constants check needs the governors' sources of 6.1 (menu.c, teo.c: from
# the unpacked tree if there is one) and of 6.12 (menu.c, teo.c, gov.h),
# else straight out of the Debian source tarballs, kept under build/, and
# our series' (menu2010.c of 6.1's, teo70.c of 6.12's).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
governors=drivers/cpuidle/governors
make -s -C "$top" --no-print-directory build/tests/test_models || exit

# governors_of VERSION FILE...: a directory with FILEs of VERSION's
# governors, extracted once (in one pass over the tarball) from
# /usr/src/linux-source-VERSION.tar.xz; a missing one is left out, and the
# check that needs it says so.
governors_of() {
	local version=$1 dir=$top/build/governors-$1 f missing=()
	local tarball=/usr/src/linux-source-$1.tar.xz
	shift
	mkdir -p "$dir"
	for f in "$@"; do
		[ -s "$dir/$f" ] || missing+=("linux-source-$version/$governors/$f")
	done
	[ ${#missing[@]} = 0 ] || [ ! -f "$tarball" ] ||
		tar -xJf "$tarball" -C "$dir" --strip-components=4 "${missing[@]}" 2>/dev/null
	echo "$dir"
}

gov61=$top/build/linux/$governors
[ -f "$gov61/teo.c" ] || gov61=$(governors_of 6.1 menu.c teo.c)
gov612=$(governors_of 6.12 menu.c teo.c gov.h)
cd "$top" && exec build/tests/test_models "$top/kernel/patches/6.1" "$top/kernel/patches/6.12" \
	"$gov61" "$gov612" "$top/kernel/config/idlescope.config"
