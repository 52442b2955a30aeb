#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of Debian's programs for the guest (vm/programs.sh,
# workloads/programs.txt): the list resolves to files that exist after
# unpacking, every ELF file the guest gets finds its loader and each
# library it needs among them, nothing comes from the host's own /lib,
# and a binary whose library no package has is an error at image build
# time, one line naming both.  The first run fetches the packages (Debian's
# archive); later ones use the cache in /var/cache/idlescope/debs.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 10

out=$top/build/programs
make -s -C "$top" --no-print-directory build/programs/programs.cpio.gz >"$tmp/make.log" 2>&1
rc=$?
check -m "exit $rc: $(tail -n 1 "$tmp/make.log")" "programs: the image builds from workloads/programs.txt" \
	[ $rc = 0 ]

# Every listed binary is in the guest's tree, at a path on the guest's PATH.
missing=
while read -r pkg binaries also; do
	for b in ${binaries//,/ }; do
		found=
		for d in /usr/bin /usr/sbin /bin /sbin; do
			[ -e "$out/root$d/$b" ] && found=1
		done
		[ -n "$found" ] || missing="$missing $b"
	done
done < <(sed 's/#.*//; /^[[:space:]]*$/d' "$top/workloads/programs.txt")
check -m "missing:$missing" "programs: every listed binary is in the guest's tree" [ -z "$missing" ]

# Every manifest line names a file (or link) of its package that the tree has.
bad=$(while read -r pkg path; do
	{ [ -e "$out/pkgs/$pkg$path" ] || [ -L "$out/pkgs/$pkg$path" ]; } &&
		{ [ -e "$out/root$path" ] || [ -L "$out/root$path" ]; } || echo "$pkg:$path"
done <"$out/manifest" | head -n 3)
check -m "$bad" "programs: every manifest file exists unpacked and in the tree" \
	[ -z "$bad" -a -s "$out/manifest" ]

# Each ELF file's interpreter and NEEDED libraries resolve inside the tree
# (in its RUNPATH, then the loader's default directories).
unresolved=
while read -r pkg path; do
	f=$out/root$path
	[ -L "$f" ] && continue
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
	interp=$(readelf -lW "$f" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
	[ -z "$interp" ] || [ -e "$out/root$interp" ] || unresolved="$unresolved $path:$interp"
	runpath=$(readelf -dW "$f" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' |
		sed "s|\$ORIGIN|$(dirname "$path")|g; s/:/ /g")
	for so in $(readelf -dW "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		ok=
		for d in $runpath /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /lib /usr/lib; do
			[ -e "$out/root$d/$so" ] && ok=1
		done
		[ -n "$ok" ] || unresolved="$unresolved $path:$so"
	done
done <"$out/manifest"
check -m "$unresolved" "programs: every ELF file's loader and libraries are in the tree" \
	[ -z "$unresolved" ]
check "programs: the loader is the unpacked libc6's" \
	[ "$(grep ' /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2$' "$out/manifest" | cut -d' ' -f1)" = libc6 ]
# Only unpacked packages' files: no manifest line names the host itself.
check "programs: no file comes from outside the unpacked packages" \
	[ -z "$(awk '!($1 ~ /^[a-z0-9][a-z0-9+.-]+$/) || $1 == "host"' "$out/manifest")" ]

# A package whose binary needs a library that no package has: built here,
# depending on libc6 only, so the script looks there and gives up.
mkdir -p "$tmp/lib" "$tmp/pkg/DEBIAN" "$tmp/pkg/usr/bin" "$tmp/debs"
echo 'int idlescope_missing(void) { return 0; }' >"$tmp/lib/missing.c"
echo 'int idlescope_missing(void); int main(void) { return idlescope_missing(); }' >"$tmp/main.c"
gcc -shared -fPIC -Wl,-soname,libidlescope-missing.so.1 "$tmp/lib/missing.c" \
	-o "$tmp/lib/libidlescope-missing.so.1" &&
	ln -s libidlescope-missing.so.1 "$tmp/lib/libidlescope-missing.so" &&
	gcc "$tmp/main.c" -L"$tmp/lib" -lidlescope-missing -o "$tmp/pkg/usr/bin/needsmissing"
cat >"$tmp/pkg/DEBIAN/control" <<EOF
Package: idlescope-needsmissing
Version: 1.0
Architecture: amd64
Maintainer: idlescope tests <tests@invalid>
Depends: libc6
Description: a binary whose library no package has
EOF
dpkg-deb -b --root-owner-group "$tmp/pkg" "$tmp/debs/idlescope-needsmissing_1.0_amd64.deb" >/dev/null
printf 'idlescope-needsmissing\tneedsmissing\n' >"$tmp/list.txt"
check_error "programs: a binary whose library no package has is one line naming both" \
	'needsmissing needs libidlescope-missing\.so\.1' \
	"$top/vm/programs.sh" -l "$tmp/list.txt" -o "$tmp/out" -L "$tmp/debs"
check "programs: ... and no image is made" [ ! -e "$tmp/out/programs.cpio.gz" ]

# From an empty cache, two packages that share a dependency (libc6):
# the shared one is fetched once, not asked for (and moved) twice.
printf 'hey hey\nsockperf sockperf\n' >"$tmp/shared.txt"
IDLESCOPE_CACHE=$tmp/cache "$top/vm/programs.sh" -l "$tmp/shared.txt" -o "$tmp/shared" \
	>"$tmp/shared.log" 2>&1
rc=$?
check -m "exit $rc: $(tail -n 1 "$tmp/shared.log")" \
	"programs: packages sharing a dependency build from an empty cache" \
	[ $rc = 0 -a -s "$tmp/shared/programs.cpio.gz" ]

printf 'rt-tests\n' >"$tmp/bad.txt"
check_error "programs: a list line without binaries is one line" \
	"bad.txt:1: expected 'PACKAGE BINARIES \[ALSO\]'" \
	"$top/vm/programs.sh" -l "$tmp/bad.txt" -o "$tmp/out2"
