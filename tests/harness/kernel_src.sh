#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/build.sh with KERNEL_SRC=PATH, a developer's own tree, on a fake
# tree whose Makefile only pretends to configure and build (honouring O=),
# in a private cache: the key follows the tree's contents, the build never
# writes into the tree, each way it can fail is one line, and builds of
# one kind are pruned without touching another's.  Seconds, no compiler.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 17
export IDLESCOPE_CACHE=$tmp/cache
# A copy of kernel/: build.sh links its build under the copy's build/.
mkdir -p "$tmp/repo"
cp -r "$top/kernel" "$tmp/repo/"
build=$tmp/repo/kernel/build.sh

# fake_tree DIR VERSION PATCHLEVEL: a tree kernel/build.sh accepts.  Its
# Makefile writes the fragment as the .config, drops from it what Kconfig
# would (the 2010 governors, which the tree does not have; and
# CONFIG_DEBUG_INFO_BTF under FAKE_NO_BTF), and fails the build under
# FAKE_FAIL.
fake_tree() {
	mkdir -p "$1/arch/x86" "$1/scripts/kconfig" "$1/drivers/cpuidle/governors"
	cat >"$1/Makefile" <<MAKEFILE
VERSION = $2
PATCHLEVEL = $3
O ?= .
tinyconfig:
	@: >\$(O)/.config
olddefconfig:
	@sed -i '/MENU2010=/d' \$(O)/.config
	@if [ -n "\$\$FAKE_NO_BTF" ]; then sed -i '/DEBUG_INFO_BTF=/d' \$(O)/.config; fi
all:
	@if [ -n "\$\$FAKE_FAIL" ]; then echo 'menu.c:1: error: planted' >&2; exit 2; fi
	@mkdir -p \$(O)/arch/x86/boot && echo image >\$(O)/arch/x86/boot/bzImage
MAKEFILE
	printf '#!/bin/sh\ncat "$3" >>"$2"\n' >"$1/scripts/kconfig/merge_config.sh"
	chmod +x "$1/scripts/kconfig/merge_config.sh"
	echo 'mainmenu "fake"' >"$1/Kconfig"
	echo '#define MAX_INTERESTING (50000 * NSEC_PER_USEC)' >"$1/drivers/cpuidle/governors/menu.c"
}

fake_tree "$tmp/src" 6 1
git -C "$tmp/src" init -q && git -C "$tmp/src" add -A &&
	git -C "$tmp/src" -c user.name=t -c user.email=t@t commit -qm tree ||
	{ fail "kernel-src: a git tree to test with" "git failed"; exit 1; }
key() { KERNEL_SRC=$1 "$build" --key; }

clean=$(key "$tmp/src")
check "kernel-src: an unchanged tree gives the same key" [ "$clean" = "$(key "$tmp/src")" ]
sed -i 's/50000/5000/' "$tmp/src/drivers/cpuidle/governors/menu.c"
dirty=$(key "$tmp/src")
check "kernel-src: a change not committed changes the key" [ "$dirty" != "$clean" ]
git -C "$tmp/src" checkout -q -- .
check "kernel-src: undoing it gives the first key again" [ "$(key "$tmp/src")" = "$clean" ]
echo 'obj-y += new.o' >"$tmp/src/drivers/cpuidle/governors/Kbuild"
check "kernel-src: a new untracked file changes the key" [ "$(key "$tmp/src")" != "$clean" ]
rm "$tmp/src/drivers/cpuidle/governors/Kbuild"
check "kernel-src: the key differs from our 6.1 build's" \
	[ "$clean" != "$(KERNEL=6.1 "$build" --key)" ]

# Not a git checkout: the contents decide.
fake_tree "$tmp/plain" 6 12
plain=$(key "$tmp/plain")
sed -i 's/50000/5000/' "$tmp/plain/drivers/cpuidle/governors/menu.c"
check "kernel-src: in a plain tree a changed file changes the key" [ "$(key "$tmp/plain")" != "$plain" ]

# One line for each way a tree is refused.
mkdir -p "$tmp/notlinux"
check_error "kernel-src: not a kernel tree is one line" \
	'^kernel: error: KERNEL_SRC=.*/notlinux is not a Linux kernel tree' \
	env KERNEL_SRC="$tmp/notlinux" "$build" --key
fake_tree "$tmp/old" 5 15
check_error "kernel-src: a tree older than 6.1 is one line" \
	'^kernel: error: KERNEL_SRC=.*/old is Linux 5.15; idlescope needs 6.1 or later$' \
	env KERNEL_SRC="$tmp/old" "$build" --key
check_error "kernel-src: no pahole is one line: BTF impossible" \
	'^kernel: error: BTF impossible: /nonexistent/pahole not found' \
	env KERNEL_SRC="$tmp/src" PAHOLE=/nonexistent/pahole "$build"
check_error "kernel-src: a fragment losing CONFIG_DEBUG_INFO_BTF is one line" \
	'^kernel: error: the tree .* cannot build BTF: Kconfig dropped CONFIG_DEBUG_INFO_BTF .*; log: ' \
	env KERNEL_SRC="$tmp/src" FAKE_NO_BTF=1 "$build"
check_error "kernel-src: a failed build is one line with the log" \
	'^kernel: error: building the tree .* failed; log: .*/build.log$' \
	env KERNEL_SRC="$tmp/src" FAKE_FAIL=1 "$build"
cp -a "$tmp/plain" "$tmp/inplace" && touch "$tmp/inplace/.config"
check_error "kernel-src: a tree built in place is one line" \
	'^kernel: error: KERNEL_SRC=.*/inplace was built in place' \
	env KERNEL_SRC="$tmp/inplace" "$build"

# A build: the series' own options are not asked of a tree without it,
# the build is outside the tree, and the tree is left as it was.
out=$(KERNEL_SRC=$tmp/src "$build" --link "$tmp/repo/build/linux-src" 2>&1)
check -m "$(echo "$out" | tail -n 1)" "kernel-src: the tree builds without the series' options" \
	[ -e "$tmp/cache/kernel-$clean/complete" ]
check -m "$(readlink "$tmp/repo/build/linux-src")" "kernel-src: the link points at the build outside the tree" \
	[ "$(readlink "$tmp/repo/build/linux-src")" = "$tmp/cache/kernel-$clean/build" ]
check -m "$(git -C "$tmp/src" status --porcelain --ignored | head -n 3)" \
	"kernel-src: nothing is written into the tree" \
	[ -z "$(git -C "$tmp/src" status --porcelain --ignored)" ]
out=$(KERNEL_SRC=$tmp/src "$build" --link "$tmp/repo/build/linux-src" 2>&1)
check -m "$out" "kernel-src: the same tree again is a cache hit" grep -q "cache hit $clean" <<<"$out"

# Pruning keeps four builds per kind: five older trees and five 6.1
# builds, then this tree's rebuild: the oldest tree goes, no 6.1 build.
rm -rf "$tmp/cache/kernel-$clean"
for i in 1 2 3 4 5; do
	for kind in tree 6.1; do
		mkdir -p "$tmp/cache/kernel-$kind-$i"
		echo "$kind" >"$tmp/cache/kernel-$kind-$i/kind"
		touch -d "-$((10 - i)) hours" "$tmp/cache/kernel-$kind-$i/complete"
	done
done
rm "$tmp/cache/kernel-6.1-1/kind"	# from before kinds: a 6.1 build
KERNEL_SRC=$tmp/src "$build" >/dev/null 2>&1
left=$(cd "$tmp/cache" && ls -d kernel-* | grep -v '\.lock$' | LC_ALL=C sort | tr '\n' ' ')
want=$(printf '%s\n' "kernel-$clean" kernel-6.1-1 kernel-6.1-2 kernel-6.1-3 kernel-6.1-4 \
	kernel-6.1-5 kernel-tree-3 kernel-tree-4 kernel-tree-5 | LC_ALL=C sort | tr '\n' ' ')
check -m "left: $left" "kernel-src: pruning drops the oldest trees and no 6.1 build" [ "$left" = "$want" ]
