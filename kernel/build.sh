#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the idlescope guest kernel: Debian's linux-source tree, the patch
# series in kernel/patches, tinyconfig + kernel/config/idlescope.config.
#
# The built tree lives in a cache outside the clone, keyed by a hash of
# everything that decides its contents (tarball version, base config, patch
# series, fragment), so every clone on this machine reuses an unchanged
# build and any changed input gets a tree of its own.  build/linux links to
# the tree in use; out-of-tree modules build against it with M=.
#
# usage: kernel/build.sh [--key]   (--key: print the cache key and exit)

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${IDLESCOPE_CACHE:-/var/cache/idlescope}
patches=$top/kernel/patches
fragment=$top/kernel/config/idlescope.config
base_config=tinyconfig
jobs=$(nproc)

die() { echo "kernel: error: $*" >&2; exit 1; }
phase() { echo "[kernel] $*"; }

[ -r "$tarball" ] || die "kernel tarball $tarball missing (apt-get install linux-source-6.1)"
[ -r "$fragment" ] || die "config fragment $fragment missing"
[ -r "$patches/series" ] || die "patch series $patches/series missing"

# The patches named by the series, in order; '#' starts a comment.
series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patches/series")
for p in $series; do
	[ -r "$patches/$p" ] || die "patch $p listed in series but missing"
done

# Debian's tarball is identified by its package version, any other by size
# and modification time.
tarball_id() {
	local version
	if [ "$(dpkg-query -S "$tarball" 2>/dev/null)" ]; then
		version=$(dpkg-query -W -f='${Version}' "$(dpkg-query -S "$tarball" | cut -d: -f1)")
	else
		version=$(stat -c '%s %Y' "$tarball")
	fi
	echo "$(basename "$tarball") $version"
}

cache_key() {
	{
		echo "tarball $(tarball_id)"
		echo "base $base_config"
		for p in $series; do
			echo "patch $p"
			cat "$patches/$p"
		done
		echo "fragment"
		cat "$fragment"
	} | sha256sum | cut -c1-16
}

key=$(cache_key)
if [ "${1:-}" = --key ]; then
	echo "$key"
	exit 0
fi

dir=$cache/kernel-$key
tree=$dir/linux
log=$dir/build.log
mkdir -p "$top/build" "$dir"

link_tree() {
	ln -sfn "$tree" "$top/build/linux"
	phase "ready: $tree/arch/x86/boot/bzImage"
}

if [ -e "$dir/complete" ]; then
	phase "cache hit $key"
	touch "$dir/complete"
	link_tree
	exit 0
fi

# One builder per key; a second clone waits and then finds the cache hit.
exec 9>"$dir.lock"
flock 9
if [ -e "$dir/complete" ]; then
	phase "cache hit $key (built meanwhile)"
	link_tree
	exit 0
fi
phase "cache miss $key: building in $dir (log: $log)"
: >"$log"

fail_with_log() {
	echo "kernel: error: $1; last 30 lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit 1
}

if [ ! -e "$dir/patched" ]; then
	rm -rf "$tree" "$dir/unpack"
	mkdir -p "$dir/unpack"
	phase "unpack $(basename "$tarball")"
	tar -C "$dir/unpack" -xf "$tarball" >>"$log" 2>&1 ||
		fail_with_log "unpacking $tarball failed"
	src=$(find "$dir/unpack" -mindepth 1 -maxdepth 1 -type d)
	for p in $series; do
		phase "patch $p"
		if ! patch -d "$src" -p1 --batch --forward <"$patches/$p" >>"$log" 2>&1; then
			rm -rf "$dir/unpack"
			fail_with_log "patch $p does not apply"
		fi
	done
	mv "$src" "$tree"
	rmdir "$dir/unpack"
	touch "$dir/patched"
fi

# ccache shares objects between trees of different keys (same file, same
# flags); the tree path is not part of its hash.
make_cmd=(make -C "$tree" -j"$jobs")
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$tree CCACHE_NOHASHDIR=1
	make_cmd+=(CC="ccache gcc")
fi

phase "config $base_config + $(basename "$fragment")"
{
	"${make_cmd[@]}" $base_config &&
	(cd "$tree" && scripts/kconfig/merge_config.sh -m .config "$fragment") &&
	"${make_cmd[@]}" olddefconfig
} >>"$log" 2>&1 || fail_with_log "configuring the kernel failed"

# Kconfig silently drops options whose dependencies are unmet: refuse that.
dropped=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$tree/.config" || dropped+=("$line")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		! grep -q "^$opt=" "$tree/.config" || dropped+=("$line")
		;;
	esac
done <"$fragment"
if [ ${#dropped[@]} -gt 0 ]; then
	echo "kernel: error: options of $(basename "$fragment") not in the final .config:" >&2
	printf '  %s\n' "${dropped[@]}" >&2
	exit 1
fi

phase "build bzImage, vmlinux with BTF, modules ($jobs jobs)"
start=$(date +%s)
"${make_cmd[@]}" all >>"$log" 2>&1 || fail_with_log "kernel build failed"
build_seconds=$(( $(date +%s) - start ))
phase "built in $build_seconds s"
# `make bench` reports it: a cold build is too long to repeat for a figure.
echo "$build_seconds" >"$dir/build-seconds"

touch "$dir/complete"
link_tree

# Keep the four most recently used trees; each is a few GiB.
ls -1t "$cache"/kernel-*/complete 2>/dev/null | tail -n +5 | while read -r old; do
	old=$(dirname "$old")
	phase "prune $old"
	rm -rf "$old" "$old.lock"
done
