# SPDX-License-Identifier: GPL-2.0
#
# Where kernel/build.sh's kernel comes from, sourced by it: Debian's
# linux-source tarball with our patch series, or a developer's own tree.
# Each of tarball_source and tree_source checks its source (one line of
# error, through build.sh's die), and defines what build.sh needs:
#
#   source_name     what is built, for messages
#   source_kind     6.1, 6.12 or tree: builds of one kind are pruned together
#   source_id       a function printing what identifies the source's contents
#   objtree_name    the build's directory under the cache entry
#   prepare_source  a function that makes $srctree ready to configure in
#                   $objtree, and sets make_args and ccache_basedir
#   series_options  the Kconfig options our patch series adds (without
#                   CONFIG_), which a tree without the series cannot set

# tarball_source VERSION: Debian's linux-source-VERSION, patched by
# kernel/patches/VERSION/series, built in place.
tarball_source() {
	local version=$1 p
	local known
	known=$(cd "$top/kernel/patches" && ls -d */ 2>/dev/null | tr -d / | tr '\n' ' ')
	[ -r "$top/kernel/patches/$version/series" ] ||
		die "KERNEL=$version: no patch series kernel/patches/$version/series (known: ${known% })"
	patches=$top/kernel/patches/$version
	tarball=${KERNEL_TARBALL:-/usr/src/linux-source-$version.tar.xz}
	[ -r "$tarball" ] || die "kernel tarball $tarball missing (apt-get install linux-source-$version)"

	# The patches named by the series, in order; '#' starts a comment.
	series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patches/series")
	for p in $series; do
		[ -r "$patches/$p" ] || die "patch $p listed in kernel/patches/$version/series but missing"
	done

	kernel_version=$version
	source_name="Linux $version ($(basename "$tarball") + kernel/patches/$version)"
	source_kind=$version
	objtree_name=linux
	series_options=
	source_id() {
		local p
		echo "kernel $kernel_version"
		echo "tarball $(tarball_id)"
		for p in $series; do
			echo "patch $p"
			cat "$patches/$p"
		done
	}
	prepare_source() { unpack_and_patch; }
}

# Debian's tarball is identified by its package version, any other by size
# and modification time.
tarball_id() {
	local version pkg
	pkg=$(dpkg-query -S "$tarball" 2>/dev/null | cut -d: -f1 || true)
	if [ -n "$pkg" ]; then
		version=$(dpkg-query -W -f='${Version}' "$pkg")
	else
		version=$(stat -c '%s %Y' "$tarball")
	fi
	echo "$(basename "$tarball") $version"
}

unpack_and_patch() {
	local src p
	srctree=$dir/linux
	make_args=()
	ccache_basedir=$srctree
	[ -e "$dir/patched" ] && return 0
	rm -rf "$srctree" "$dir/unpack"
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
	mv "$src" "$srctree"
	rmdir "$dir/unpack"
	touch "$dir/patched"
}

# tree_source PATH: a developer's tree, built with O= outside it.
tree_source() {
	local version
	[ -d "$1" ] || die "KERNEL_SRC=$1: no such directory"
	srctree=$(cd "$1" && pwd -P)
	if ! grep -qE '^VERSION = [0-9]+$' "$srctree/Makefile" 2>/dev/null ||
	   ! grep -qE '^PATCHLEVEL = [0-9]+$' "$srctree/Makefile" ||
	   [ ! -r "$srctree/Kconfig" ] || [ ! -d "$srctree/arch/x86" ]; then
		die "KERNEL_SRC=$1 is not a Linux kernel tree (no top Makefile with VERSION and PATCHLEVEL, Kconfig and arch/x86)"
	fi
	version=$(sed -n 's/^VERSION = //p' "$srctree/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$srctree/Makefile")
	[ "$(printf '%s\n' "$min_version" "$version" | sort -V | head -n 1)" = "$min_version" ] ||
		die "KERNEL_SRC=$1 is Linux $version; idlescope needs $min_version or later"

	source_name="the tree $srctree (Linux $version)"
	source_kind=tree
	objtree_name=build
	series_options=$(sed -n 's/^+config \([A-Z0-9_]*\)$/\1/p' "$top"/kernel/patches/*/*.patch | sort -u)
	source_id() { tree_id; }
	# An in-place build leaves these; kbuild then refuses O=.
	[ ! -e "$srctree/.config" ] && [ ! -d "$srctree/include/config" ] ||
		die "KERNEL_SRC=$1 was built in place (it has a .config); an out-of-tree build needs a clean tree: make -C $srctree mrproper, or another checkout"
	prepare_source() {
		mkdir -p "$objtree"
		make_args=(O="$objtree")
		# kbuild names the sources by absolute path under O=: relative
		# to the build directory, they are the same for every key.
		ccache_basedir=/
	}
}

# What a tree holds: git HEAD, the changes to it and the untracked files in
# a git checkout; the contents of every file otherwise.
tree_id() {
	echo "tree"
	if [ "$(git -C "$srctree" rev-parse --show-toplevel 2>/dev/null)" = "$srctree" ]; then
		echo "git HEAD $(git -C "$srctree" rev-parse HEAD)"
		git -C "$srctree" diff HEAD --binary --no-ext-diff --no-color
		echo "untracked"
		git -C "$srctree" ls-files -z --others --exclude-standard |
			LC_ALL=C sort -z | (cd "$srctree" && xargs -0 -r sha256sum --)
	else
		echo "files"
		(cd "$srctree" && find . -path ./.git -prune -o -type f -print0 |
			LC_ALL=C sort -z | xargs -0 -r sha256sum --)
		(cd "$srctree" && find . -path ./.git -prune -o -type l -printf '%p -> %l\n' |
			LC_ALL=C sort)
	fi
}
