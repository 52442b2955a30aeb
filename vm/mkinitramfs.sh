#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs: busybox-static, vm/init, and the given files.
# usage: vm/mkinitramfs.sh OUTPUT.cpio.gz [SRC:DEST ...]
#   SRC:DEST copies file SRC to DEST inside the guest (e.g. build/idlescope:/usr/bin/idlescope)
# The guest kernel's config goes in as /boot/config-<release> (where the
# loader reads CONFIG_HZ for its models) when KDIR (default build/linux)
# has been built.

set -euo pipefail

die() { echo "mkinitramfs: error: $*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: $0 OUTPUT.cpio.gz [SRC:DEST ...]"
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
busybox=/bin/busybox
[ -x "$busybox" ] || die "$busybox missing (apt-get install busybox-static)"
! readelf -l "$busybox" | grep -q 'program interpreter' ||
	die "$busybox is not static (apt-get install busybox-static)"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,tmp,host,usr/bin,lib/modules}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 0755 "$here/init" "$root/init"
for spec in "$@"; do
	src=${spec%%:*}
	dest=${spec#*:}
	[ -r "$src" ] || die "$src missing"
	mkdir -p "$root/$(dirname "$dest")"
	cp -a "$src" "$root/$dest"
done
kdir=${KDIR:-$here/../build/linux}
if [ -r "$kdir/.config" ] && [ -r "$kdir/include/config/kernel.release" ]; then
	mkdir -p "$root/boot"
	cp "$kdir/.config" "$root/boot/config-$(cat "$kdir/include/config/kernel.release")"
fi

tmp=$out.tmp.$$
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -6 >"$tmp"
mv "$tmp" "$out"
