#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages idlescope needs, skipping the install when
# all are present.  Not root: print the exact apt-get line and fail.
#
# usage: scripts/deps.sh [--test]
#   --test  also what make test needs beyond the build: Debian's chromium
#           for the report page's browser test (tests/cli/report_page.sh),
#           and Node.js with npm to install its driver, when the machine
#           has no node of its own.

set -euo pipefail

packages=(
	linux-source-6.1 linux-source-6.12 qemu-system-x86 libbpf-dev bpftool clang llvm
	busybox-static gcc make dwarves bc flex bison libelf-dev libssl-dev
	cpio zlib1g-dev xz-utils patch ccache kmod python3 time parallel
	libjs-chart.js
)
case ${1:-} in
'') ;;
--test)
	packages+=(chromium)
	command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
	;;
*) echo "usage: scripts/deps.sh [--test]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "deps: error: missing packages; as root run: $line" >&2
	exit 1
fi
echo "[deps] installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
$line -qq >/dev/null
