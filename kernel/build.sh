#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a guest kernel: tinyconfig + kernel/config/idlescope.config, BTF on,
# from one of two sources:
#
#   KERNEL=6.1 (the default) or KERNEL=6.12: Debian's linux-source-VERSION
#     tarball, unpacked, patched by kernel/patches/VERSION/series (the 2010
#     governors, the observation fields) and built in place;
#   KERNEL_SRC=PATH: a developer's own tree (>= 6.1: a git checkout with
#     their patch applied, or a plain tree), built out of tree (make O=...)
#     without our patches; nothing is ever written into PATH.
#
# The build lives in a cache outside the clone, keyed by a hash of
# everything that decides its contents: for a tarball its package version,
# the kernel version and the patch series; for a tree its git HEAD, `git
# diff HEAD` and untracked files, or a hash of its contents when it is not
# a git checkout; for both the base config and the fragment.  Every clone
# on this machine reuses an unchanged build and any changed input gets a
# build of its own; ccache shares the objects that did not change.  One
# builder per key (flock); the four most recently used builds of each
# source (6.1, 6.12, a tree) are kept, so building one never evicts the
# builds of another that clones are using.
#
# usage: kernel/build.sh [--key] [--link PATH] [--stamp FILE]
#   --key         print the cache key and exit
#   --link PATH   the symlink to the build (default build/linux); out-of-tree
#                 modules build against it with M=
#   --stamp FILE  write the key to FILE when FILE does not hold it yet
#
# Errors are one line on stderr, "kernel: error: ...", exit status 1.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${IDLESCOPE_CACHE:-/var/cache/idlescope}
fragment=$top/kernel/config/idlescope.config
base_config=tinyconfig
jobs=$(nproc)
# Trees older than this lack what the BPF object needs (cpu_idle_miss, ...).
min_version=6.1

die() { echo "kernel: error: $*" >&2; exit 1; }
phase() { echo "[kernel] $*"; }

want_key= link=$top/build/linux stamp=
while [ $# -gt 0 ]; do
	case $1 in
	--key) want_key=1 ;;
	--link) link=${2:?--link wants a path}; shift ;;
	--stamp) stamp=${2:?--stamp wants a file}; shift ;;
	*) die "unknown argument '$1' (usage: kernel/build.sh [--key] [--link PATH] [--stamp FILE])" ;;
	esac
	shift
done

[ -r "$fragment" ] || die "config fragment $fragment missing"

. "$top/kernel/source.sh"
if [ -n "${KERNEL_SRC:-}" ]; then
	tree_source "$KERNEL_SRC"
else
	tarball_source "${KERNEL:-6.1}"
fi

cache_key() {
	{
		source_id
		echo "base $base_config"
		echo "fragment"
		cat "$fragment"
	} | sha256sum | cut -c1-16
}

key=$(cache_key)
if [ -n "$want_key" ]; then
	echo "$key"
	exit 0
fi

# BTF comes from pahole (kbuild's PAHOLE, pahole by default).
pahole=${PAHOLE:-pahole}
command -v "$pahole" >/dev/null ||
	die "BTF impossible: $pahole not found (Debian package dwarves)"

dir=$cache/kernel-$key
log=$dir/build.log
mkdir -p "$(dirname "$link")" "$dir"

# The stamp changes only with the key: what is built from the kernel
# depends on it, not on the files of the build.
finish() {
	ln -sfn "$objtree" "$link"
	if [ -n "$stamp" ] && [ "$(cat "$stamp" 2>/dev/null)" != "$key" ]; then
		echo "$key" >"$stamp"
	fi
	phase "ready: $objtree/arch/x86/boot/bzImage"
}

objtree=$dir/$objtree_name
if [ -e "$dir/complete" ]; then
	phase "cache hit $key ($source_name)"
	touch "$dir/complete"
	finish
	exit 0
fi

# One builder per key; a second clone waits and then finds the cache hit.
exec 9>"$dir.lock"
flock 9
if [ -e "$dir/complete" ]; then
	phase "cache hit $key ($source_name, built meanwhile)"
	finish
	exit 0
fi
phase "cache miss $key: building $source_name in $dir (log: $log)"
: >"$log"
echo "$source_kind" >"$dir/kind"

# One line on stderr; the end of the log on stdout for whoever reads it.
fail_with_log() {
	echo "[kernel] last 30 lines of $log:"
	tail -n 30 "$log"
	die "$1; log: $log"
}

prepare_source

# ccache shares objects between builds of different keys (same file, same
# flags); the build's own path is not part of its hash.
make_cmd=(make -C "$srctree" -j"$jobs" "${make_args[@]}")
if command -v ccache >/dev/null; then
	export CCACHE_DIR=$cache/ccache CCACHE_BASEDIR=$ccache_basedir CCACHE_NOHASHDIR=1
	make_cmd+=(CC="ccache gcc")
fi

phase "config $base_config + $(basename "$fragment")"
{
	"${make_cmd[@]}" $base_config &&
	(cd "$objtree" && "$srctree/scripts/kconfig/merge_config.sh" -m .config "$fragment") &&
	"${make_cmd[@]}" olddefconfig
} >>"$log" 2>&1 || fail_with_log "configuring $source_name failed"

# Kconfig silently drops options whose dependencies are unmet: refuse that,
# except for the options our patch series adds, which a tree without the
# series cannot have.
dropped=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		opt=${line%%=*}
		grep -qxF "$line" "$objtree/.config" || dropped+=("$opt")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		! grep -q "^$opt=" "$objtree/.config" || dropped+=("$opt")
		;;
	*) continue ;;
	esac
done <"$fragment"
if [ ${#dropped[@]} -gt 0 ]; then
	kept=()
	for opt in "${dropped[@]}"; do
		grep -qxF "${opt#CONFIG_}" <<<"$series_options" || kept+=("$opt")
	done
	dropped=(${kept[@]+"${kept[@]}"})
fi
if printf '%s\n' ${dropped[@]+"${dropped[@]}"} | grep -qx 'CONFIG_DEBUG_INFO_BTF'; then
	die "$source_name cannot build BTF: Kconfig dropped CONFIG_DEBUG_INFO_BTF (pahole $("$pahole" --version) too old for this tree?); log: $log"
fi
[ ${#dropped[@]} -eq 0 ] ||
	die "options of $(basename "$fragment") not in $source_name's final .config: ${dropped[*]}; log: $log"

phase "build bzImage, vmlinux with BTF, modules ($jobs jobs)"
start=$(date +%s)
"${make_cmd[@]}" all >>"$log" 2>&1 || fail_with_log "building $source_name failed"
build_seconds=$(( $(date +%s) - start ))
phase "built in $build_seconds s"
# `make bench` reports it: a cold build is too long to repeat for a figure.
echo "$build_seconds" >"$dir/build-seconds"

touch "$dir/complete"
finish

# Keep the four most recently used builds of each kind; each is a few GiB.
# Builds from before kinds were noted are all 6.1 builds.
for complete in $(ls -1t "$cache"/kernel-*/complete 2>/dev/null); do
	old=$(dirname "$complete")
	if [ "$(cat "$old/kind" 2>/dev/null || echo 6.1)" = "$source_kind" ]; then
		echo "$old"
	fi
done | tail -n +5 | while read -r old; do
	phase "prune $old"
	rm -rf "$old" "$old.lock"
done
