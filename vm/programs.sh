#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's programs for the guest (workloads/programs.txt): fetch each
# package with `apt-get download` into a cache shared by every clone,
# unpack it with `dpkg-deb -x` under the output directory (never installed
# on the host), and gather each listed binary with exactly the files it
# needs to run: the dynamic loader (PT_INTERP) and its shared libraries
# (ELF NEEDED, recursively, searched in the RUNPATH and the loader's
# default directories), every one taken from the unpacked packages.
#
# A file is looked up in the packages unpacked so far; when a package's
# file needs something none of them has, the packages it depends on
# (its Depends and Pre-Depends, the first alternative apt knows) are
# fetched and the lookup starts over.  This follows Debian's own shlibs
# dependencies, so only the packages whose files the guest gets are
# followed.  What is still missing when no new package can be fetched is
# an error, one line naming the binary and what it lacks.
#
# usage: vm/programs.sh [-l LIST] [-o DIR] [-L DEB_DIR]
#   -l LIST     the list (default workloads/programs.txt)
#   -o DIR      output (default build/programs): DIR/pkgs/PACKAGE/ the
#               unpacked packages, DIR/root/ what the guest gets,
#               DIR/manifest its files ("PACKAGE PATH", one a line),
#               DIR/programs.cpio.gz DIR/root as a cpio archive for the
#               initramfs
#   -L DEB_DIR  .deb files to use before the archive's (tests)
# Exit status: 0, 1 (an error, one line on stderr), 2 (usage).

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/workloads/programs.txt
out=$top/build/programs
local_debs=
cache=${IDLESCOPE_CACHE:-/var/cache/idlescope}/debs
# The dynamic loader's default directories (x86-64 Debian), after RUNPATH.
default_lib_dirs="/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /lib /usr/lib"
bin_dirs="/usr/bin /usr/sbin /bin /sbin"

die() { echo "programs: error: $*" >&2; exit 1; }

while getopts l:o:L: opt; do
	case $opt in
	l) list=$OPTARG ;;
	o) out=$OPTARG ;;
	L) local_debs=$OPTARG ;;
	*) echo "usage: vm/programs.sh [-l LIST] [-o DIR] [-L DEB_DIR]" >&2; exit 2 ;;
	esac
done
[ -r "$list" ] || die "cannot read the program list $list"
mkdir -p "$out/pkgs" "$cache"

# --- the list ---------------------------------------------------------------

# listed_packages, program_binaries ("PACKAGE NAME" lines), program_also
# ("PACKAGE ITEM" lines), from the list; a malformed line is an error.
listed_packages=()
program_binaries=()
program_also=()
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	line=${line%%#*}
	read -r pkg binaries also extra <<<"$line" || true
	[ -n "${pkg:-}" ] || continue
	[ -n "${binaries:-}" ] && [ -z "${extra:-}" ] ||
		die "$list:$lineno: expected 'PACKAGE BINARIES [ALSO]', got '$line'"
	[[ $pkg =~ ^[a-z0-9][a-z0-9+.-]+$ ]] || die "$list:$lineno: '$pkg' is not a package name"
	listed_packages+=("$pkg")
	for b in ${binaries//,/ }; do
		[[ $b =~ ^[A-Za-z0-9._+-]+$ ]] || die "$list:$lineno: '$b' is not a program name"
		program_binaries+=("$pkg $b")
	done
	for a in ${also//,/ }; do
		program_also+=("$pkg $a")
	done
done <"$list"
[ ${#listed_packages[@]} -gt 0 ] || die "$list names no package"

# --- fetching and unpacking -------------------------------------------------

# apt-cache takes about a second a call, whatever it is asked: ask once
# for many packages.
apt_updated=
declare -A deb_names	# package -> its .deb's name, "-" when apt knows none
# learn_deb_names PACKAGE...: deb_names[] of each, the name `apt-get
# download` gives its candidate version ("-" for a package apt does not
# know, or a purely virtual one).  As root, an unknown package updates
# apt's lists once, as a fresh machine needs.
learn_deb_names() {
	local unknown=() p v a
	for p; do
		[ -n "${deb_names[$p]:-}" ] || unknown+=("$p")
	done
	[ ${#unknown[@]} -gt 0 ] || return 0
	while read -r p v a; do
		deb_names[$p]=${p}_${v//:/%3a}_${a}.deb
	done < <(apt-cache show --no-all-versions "${unknown[@]}" 2>/dev/null | awk '
		/^Package: / { p = $2 } /^Version: / { v = $2 } /^Architecture: / { a = $2 }
		/^$/ { if (p != "" && (a == "amd64" || a == "all")) print p, v, a; p = "" }
		END { if (p != "" && (a == "amd64" || a == "all")) print p, v, a }')
	for p in "${unknown[@]}"; do
		[ -n "${deb_names[$p]:-}" ] && continue
		if [ -z "$apt_updated" ] && [ "$(id -u)" = 0 ]; then
			apt_updated=1
			apt-get update -qq >/dev/null 2>&1 || true
			learn_deb_names "$p"
		else
			deb_names[$p]=-
		fi
	done
}

declare -A debs		# package -> the .deb unpacked for it
# fetch PACKAGE...: debs[] of each: the test's own (-L), or the archive's
# candidate in the cache, fetched when missing.  Fails (one line) for a
# package apt does not know.
fetch() {
	local pkg f want=() names=()
	local -A asked=()
	for pkg; do
		# Several packages share dependencies (libc6): fetch each once.
		[ -n "${asked[$pkg]:-}" ] && continue
		asked[$pkg]=1
		if [ -n "$local_debs" ]; then
			for f in "$local_debs/${pkg}"_*.deb; do
				[ -e "$f" ] && debs[$pkg]=$f
			done
		fi
		[ -n "${debs[$pkg]:-}" ] || want+=("$pkg")
	done
	[ ${#want[@]} -gt 0 ] || return 0
	learn_deb_names "${want[@]}"
	for pkg in "${want[@]}"; do
		[ "${deb_names[$pkg]}" != - ] || die "apt knows no package '$pkg' (apt-get update?)"
		debs[$pkg]=$cache/${deb_names[$pkg]}
		[ -s "${debs[$pkg]}" ] || names+=("$pkg")
	done
	[ ${#names[@]} -gt 0 ] || return 0
	# One fetcher at a time; the download lands in a temporary directory
	# first, so a half-written file is never in the cache.
	(
		flock 9
		tmp=$(mktemp -d "$cache/fetch.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "${names[@]}" >/dev/null 2>&1) ||
			die "apt-get download ${names[*]} failed"
		for pkg in "${names[@]}"; do
			[ -s "$tmp/${deb_names[$pkg]}" ] ||
				die "apt-get download $pkg gave no ${deb_names[$pkg]}"
			mv "$tmp/${deb_names[$pkg]}" "$cache/"
		done
	) 9>"$cache.lock" || exit 1
	echo "[programs] fetched ${#names[@]} packages: ${names[*]}" >&2
}

# unpack PACKAGE: DIR/pkgs/PACKAGE/ holds the files of debs[PACKAGE]
# (unpacked again only when that changed).
unpack() {
	local pkg=$1 stamp=$out/pkgs/$1.deb unpacked_from=
	[ -r "$stamp" ] && read -r unpacked_from <"$stamp"
	[ -d "$out/pkgs/$pkg" ] && [ "$unpacked_from" = "${debs[$pkg]}" ] && return 0
	rm -rf "$out/pkgs/$pkg" "$stamp"
	dpkg-deb -x "${debs[$pkg]}" "$out/pkgs/$pkg" || die "dpkg-deb -x ${debs[$pkg]} failed"
	echo "${debs[$pkg]}" >"$stamp"
}

declare -A control_depends	# package -> its Pre-Depends and Depends, comma-separated
# depends PACKAGE...: in the array deps, what the packages depend on
# (Depends, Pre-Depends): of each entry, the first alternative apt knows.
depends() {
	local pkg entry a alt entries all=()
	deps=()
	for pkg; do
		[ -n "${control_depends[$pkg]:-}" ] ||
			control_depends[$pkg]=$(dpkg-deb -f "${debs[$pkg]}" Pre-Depends Depends |
				sed 's/^[A-Za-z-]*: //; s/([^)]*)//g; s/:any//g; s/[[:space:]]//g' | tr '\n' ',')
		all+=(${control_depends[$pkg]//[,|]/ })
	done
	learn_deb_names "${all[@]}"
	for pkg; do
		IFS=, read -ra entries <<<"${control_depends[$pkg]}"
		for entry in "${entries[@]}"; do
			IFS='|' read -ra alt <<<"$entry"
			for a in "${alt[@]}"; do
				[ -n "$a" ] && [ "${deb_names[$a]:-}" != - ] && { deps+=("$a"); break; }
			done
		done
	done
}

# --- resolving --------------------------------------------------------------

unpacked=()		# the packages looked in, in the order they came
declare -A in_unpacked
declare -A owners	# guest path of a file or link -> its first package

add_packages() {
	local pkg path
	fetch "$@"
	for pkg in "$@"; do
		[ -n "${in_unpacked[$pkg]:-}" ] && continue
		unpack "$pkg"
		in_unpacked[$pkg]=1
		unpacked+=("$pkg")
		while IFS= read -r path; do
			[ -n "${owners[/$path]:-}" ] || owners[/$path]=$pkg
		done < <(cd "$out/pkgs/$pkg" && find . ! -type d -printf '%P\n')
	done
}

declare -A seen		# guest path -> package
# What no package had yet: "REQUESTER|BINARY|PATH|" for a file,
# "REQUESTER|BINARY|SONAME|RUNPATH" for a library.
missing=()

# find_library SONAME RUNPATH: in REPLY, the guest path of SONAME in the
# RUNPATH directories (colon-separated) or the default ones.
find_library() {
	local dir
	for dir in ${2//:/ } $default_lib_dirs; do
		REPLY=$dir/$1
		[ -n "${owners[$REPLY]:-}" ] && return 0
	done
	return 1
}

# need_library SONAME RUNPATH BINARY REQUESTER
need_library() {
	if find_library "$1" "$2"; then
		need "$REPLY" "$3" "$4"
	else
		missing+=("$4|$3|$1|$2")
	fi
}

# need PATH BINARY REQUESTER: the guest gets PATH (and what it needs),
# for the listed BINARY; REQUESTER is the package whose file asked for it.
need() {
	local path=$1 binary=$2 requester=$3 pkg file target elf interp runpath soname
	[ -n "${seen[$path]:-}" ] && return 0
	pkg=${owners[$path]:-}
	[ -n "$pkg" ] || { missing+=("$requester|$binary|$path|"); return 0; }
	seen[$path]=$pkg
	file=$out/pkgs/$pkg$path
	if [ -L "$file" ]; then
		target=$(readlink "$file")
		[ "${target#/}" != "$target" ] || target=$(dirname "$path")/$target
		need "$(realpath -m -s "$target")" "$binary" "$pkg"
		return 0
	fi
	[ "$(head -c 4 "$file" | od -An -c | tr -d ' ')" = '177ELF' ] || return 0
	elf=$(readelf -ldW "$file")
	interp=$(sed -n 's/.*\[Requesting program interpreter: \(.*\)\]/\1/p' <<<"$elf")
	[ -z "$interp" ] || need "$interp" "$binary" "$pkg"
	runpath=$(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' <<<"$elf" |
		sed "s|\$ORIGIN|$(dirname "$path")|g" | head -n 1)
	for soname in $(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$elf"); do
		need_library "$soname" "$runpath" "$binary" "$pkg"
	done
}

# need_listed: every listed binary and ALSO item, with what each needs.
need_listed() {
	local entry pkg name dir path
	for entry in "${program_binaries[@]}"; do
		read -r pkg name <<<"$entry"
		path=
		for dir in $bin_dirs; do
			[ -n "${owners[$dir/$name]:-}" ] && { path=$dir/$name; break; }
		done
		need "${path:-/usr/bin/$name}" "$name" "$pkg"
	done
	for entry in "${program_also[@]}"; do
		read -r pkg name <<<"$entry"
		if [ "${name#/}" != "$name" ]; then
			need "$name" "$name" "$pkg"
		else
			need_library "$name" "" "$name" "$pkg"
		fi
	done
}

add_packages "${listed_packages[@]}"
need_listed
# While something is missing: fetch what the asking packages depend on and
# look for it again.
while [ ${#missing[@]} -gt 0 ]; do
		before=${#unpacked[@]}
	depends $(printf '%s\n' "${missing[@]}" | cut -d'|' -f1 | sort -u)
	add_packages "${deps[@]}"
	if [ ${#unpacked[@]} = "$before" ]; then
		IFS='|' read -r pkg binary what runpath <<<"${missing[0]}"
		die "$binary needs $what, which no unpacked package has ($pkg and what it depends on)"
	fi
	retry=("${missing[@]}")
	missing=()
	for m in "${retry[@]}"; do
		IFS='|' read -r pkg binary what runpath <<<"$m"
		if [ "${what#/}" != "$what" ]; then
			need "$what" "$binary" "$pkg"
		else
			need_library "$what" "$runpath" "$binary" "$pkg"
		fi
	done
done

# --- the guest's files ------------------------------------------------------

rm -rf "$out/root" "$out/manifest.tmp"
for path in "${!seen[@]}"; do
	echo "${seen[$path]} $path"
done | LC_ALL=C sort -k2 >"$out/manifest.tmp"
while read -r pkg path; do
	mkdir -p "$out/root$(dirname "$path")"
	cp -a "$out/pkgs/$pkg$path" "$out/root$path"
done <"$out/manifest.tmp"
mv "$out/manifest.tmp" "$out/manifest"

tmp=$out/programs.cpio.gz.tmp.$$
(cd "$out/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -6 >"$tmp"
mv "$tmp" "$out/programs.cpio.gz"
echo "[programs] $(wc -l <"$out/manifest") files of ${#unpacked[@]} packages," \
	"$(du -sm "$out/root" | cut -f1) MiB unpacked, $(($(stat -c %s "$out/programs.cpio.gz") / 1048576)) MiB compressed"
