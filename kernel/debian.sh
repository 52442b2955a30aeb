#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's own kernel for the guest: the kernel a user already has, to show
# that idlescope runs on it unchanged.  Fetches Debian's linux-image package
# and the headers that build out-of-tree modules against it, unpacks them
# under build/debian/SERIES (never installs anything on the host), builds
# idlescope_states against those headers, and packs what the guest needs on
# top of our initramfs: the modules the boot needs (Debian builds 9p and
# virtio as modules; vm/init loads them) and that idlescope_states.
#
# Two series: 6.1 (bookworm's linux-image-6.1.0-NN-amd64, the default) and
# 6.12 (bookworm-security's linux-image-6.12.N+deb12-amd64-unsigned).  The
# version is the one of the installed linux-source-SERIES, the tree our own
# guest kernel of that series is built from, so both kernels come from the
# same source and differ only by Debian's configuration and our patches;
# DEBIAN_KERNEL_VERSION=... picks another.  Without linux-source-6.1, the
# current version of linux-image-amd64.  The packages are kept in the kernel
# cache (/var/cache/idlescope/debian), so a clone fetches them once per
# machine.
#
# usage: kernel/debian.sh [--series 6.1|6.12] [BASE_INITRAMFS]
#   Leaves build/debian/SERIES/vmlinuz (the kernel image),
#   build/debian/SERIES/cmdline (what its command line needs),
#   build/debian/SERIES/overlay.cpio.gz and, given BASE_INITRAMFS,
#   build/debian/SERIES/initramfs.cpio.gz: the base with the overlay
#   unpacked over it.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${IDLESCOPE_CACHE:-/var/cache/idlescope}/debian
module_src=$top/kernel/modules/idlescope_states
# What the guest must load before it can report: the 9p share of vm/run.sh
# over virtio-pci, and the virtio disk of the iowait workload.
boot_modules=(virtio_pci 9pnet_virtio 9p virtio_blk)

die() { echo "debian: error: $*" >&2; exit 1; }
phase() { echo "[debian] $*"; }

series=6.1
if [ "${1:-}" = --series ]; then
	series=${2:-}
	shift 2 || die "--series wants 6.1 or 6.12"
fi
case $series in
6.1 | 6.12) ;;
*) die "--series wants 6.1 or 6.12, not '$series'" ;;
esac
out=$top/build/debian/$series
root=$out/root

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	die "apt-get and dpkg-deb are needed (a Debian host)"

# The package version to fetch, and its packages: image_pkg (kernel and
# modules), the headers and kbuild, and release, the name the kernel gives
# itself (uname -r).
version=${DEBIAN_KERNEL_VERSION:-$(dpkg-query -W -f='${Version}' "linux-source-$series" 2>/dev/null || true)}
if [ "$series" = 6.1 ]; then
	# 6.1.x-y: the ABI name 6.1.0-NN-amd64 is what linux-image-amd64 of
	# that version depends on.
	if [ -z "$version" ]; then
		version=$(apt-cache policy linux-image-amd64 | sed -n 's/^ *Candidate: //p')
	fi
	[ -n "$version" ] && [ "$version" != "(none)" ] ||
		die "no linux-image-amd64 in the apt lists (run apt-get update)"
	image_pkg=$(apt-cache depends "linux-image-amd64=$version" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9.]*-[0-9]*-amd64\)$/\1/p' | head -n 1)
	[ -n "$image_pkg" ] ||
		die "linux-image-amd64 $version is not in the apt lists (run apt-get update, or set DEBIAN_KERNEL_VERSION)"
	release=${image_pkg#linux-image-}
	abi=${release%-amd64}
	kbuild_pkg=linux-kbuild-6.1
else
	# 6.12.N-R~deb12uU: the ABI name is 6.12.N+deb12, and bookworm has
	# no metapackage for it.
	[ -n "$version" ] ||
		die "no linux-source-6.12 installed to take the version from (scripts/deps.sh, or set DEBIAN_KERNEL_VERSION)"
	abi=$(echo "$version" | sed -n 's/^\(6\.12\.[0-9]*\)-[^~]*~deb\([0-9]*\)u[0-9]*$/\1+deb\2/p')
	[ -n "$abi" ] || die "cannot tell the ABI name of Debian's 6.12 kernel from version '$version'"
	release=$abi-amd64
	image_pkg=linux-image-$release-unsigned
	apt-cache show "$image_pkg=$version" >/dev/null 2>&1 ||
		die "$image_pkg $version is not in the apt lists (run apt-get update, or set DEBIAN_KERNEL_VERSION)"
	kbuild_pkg=linux-kbuild-$abi
fi
packages=("$image_pkg" "linux-headers-$release" "linux-headers-$abi-common" "$kbuild_pkg")

# Fetch into the cache, all or nothing.
debs=$cache/$version
if [ ! -e "$debs/complete" ]; then
	phase "fetch ${packages[*]} ($version)"
	rm -rf "$debs" "$debs.tmp"
	mkdir -p "$debs.tmp"
	if ! msg=$(cd "$debs.tmp" && apt-get download -q -o APT::Sandbox::User=root \
		"${packages[@]/%/=$version}" 2>&1); then
		rm -rf "$debs.tmp"
		reason=$(printf '%s\n' "$msg" | grep -m1 '^E:' | sed 's/^E: Failed to fetch [^ ]*  //')
		die "cannot fetch Debian's kernel packages $version from the package archive: ${reason:-$(printf '%s\n' "$msg" | tail -n 1)}"
	fi
	touch "$debs.tmp/complete"
	mv "$debs.tmp" "$debs"
fi

# Unpack again only for another version.
headers=$root/usr/src/linux-headers-$release
if [ "$(cat "$root/.version" 2>/dev/null)" != "$version" ]; then
	phase "unpack into $root"
	rm -rf "$root"
	mkdir -p "$root"
	for deb in "$debs"/*.deb; do
		dpkg-deb -x "$deb" "$root" || die "unpacking $deb failed"
	done
	# The headers include their common part by its installed path.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$headers/Makefile"
	echo "$version" >"$root/.version"
fi
moddir=$root/lib/modules/$release
kernel=$root/boot/vmlinuz-$release
[ -r "$kernel" ] || die "$kernel missing from $image_pkg"
ln -sfn "root/boot/vmlinuz-$release" "$out/vmlinuz"

# Under the virtual clock the second CPU's delay-loop calibration never
# ends (stuck after "calibrate_delay_direct() failed"; our kernel does not
# get there).  The boot CPU computes its loops per jiffy from the TSC,
# which runs at 1 GHz of virtual time; handing that value to every CPU
# skips the calibration.  Only udelay() uses it.
hz=$(sed -n 's/^CONFIG_HZ=//p' "$root/boot/config-$release")
[ -n "$hz" ] || die "no CONFIG_HZ in config-$release"
echo "lpj=$((1000000000 / hz))" >"$out/cmdline"

# idlescope_states for this kernel, in a copy so the objects stay out of the source tree.
ko=$out/idlescope_states/idlescope_states.ko
if [ ! -e "$ko" ] || [ -n "$(find "$module_src" "$root/.version" -newer "$ko" -print -quit)" ]; then
	phase "build idlescope_states against linux-headers-$release"
	rm -rf "$out/idlescope_states"
	mkdir -p "$out/idlescope_states"
	cp "$module_src"/* "$out/idlescope_states/"
	make -C "$headers" M="$out/idlescope_states" modules >"$out/module.log" 2>&1 ||
		{ cat "$out/module.log" >&2; die "building idlescope_states failed"; }
fi

# The boot modules with their dependencies, each after what it depends on.
# 6.12's are xz-compressed (.ko.xz): unpacked here, for busybox's insmod.
# What the kernel has built in (6.12's virtio_pci) needs no loading.
declare -A path_of=() seen=()
while IFS= read -r f; do
	name=${f##*/}
	name=${name%.xz}
	name=${name%.ko}
	path_of[${name//-/_}]=$f
done < <(cd "$moddir" && find kernel -name '*.ko' -o -name '*.ko.xz')
while IFS= read -r f; do
	name=${f##*/}
	name=${name%.ko}
	seen[${name//-/_}]=builtin
done < <(cat "$moddir/modules.builtin" 2>/dev/null)
order=()
add_module() {
	local name=${1//-/_} dep
	[ -z "${seen[$name]:-}" ] || return 0
	seen[$name]=1
	[ -n "${path_of[$name]:-}" ] || die "module $name not in $image_pkg"
	for dep in $(modinfo -F depends "$moddir/${path_of[$name]}" | tr , ' '); do
		add_module "$dep"
	done
	order+=("$name")
}
for m in "${boot_modules[@]}"; do
	add_module "$m"
done

# vm/init loads /lib/modules/boot/*.ko in name order.
# The loader reads the kernel's HZ where Debian installs its config.
specs=("$ko:/lib/modules/idlescope_states.ko" "$root/boot/config-$release:/boot/config-$release")
rm -rf "$out/modules"
mkdir -p "$out/modules"
for i in "${!order[@]}"; do
	file=$moddir/${path_of[${order[$i]}]}
	if [ "${file%.xz}" != "$file" ]; then
		xz -dc "$file" >"$out/modules/${order[$i]}.ko" || die "unpacking $file failed"
		file=$out/modules/${order[$i]}.ko
	fi
	specs+=("$file:/lib/modules/boot/$(printf '%02d' "$i")-${order[$i]}.ko")
done
"$top/vm/mkinitramfs.sh" "$out/overlay.cpio.gz" "${specs[@]}"
if [ $# -ge 1 ]; then
	[ -r "$1" ] || die "base initramfs $1 missing (make initramfs)"
	cat "$1" "$out/overlay.cpio.gz" >"$out/initramfs.cpio.gz.tmp"
	mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
fi
phase "ready: $release ($version), modules: ${order[*]}"
