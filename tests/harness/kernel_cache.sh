#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel/build.sh's patch and cache logic, on a fake tarball and a private
# cache so it runs in seconds and never touches the real build.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 8

# A copy of the repository's kernel/ directory to play with.
mkdir -p "$tmp/repo"
cp -r "$top/kernel" "$tmp/repo/"
build="$tmp/repo/kernel/build.sh"
mkdir -p "$tmp/src/linux-fake"
echo "original" >"$tmp/src/linux-fake/file.c"
tar -C "$tmp/src" -cJf "$tmp/linux-fake.tar.xz" linux-fake
export KERNEL_TARBALL=$tmp/linux-fake.tar.xz IDLESCOPE_CACHE=$tmp/cache

key1=$("$build" --key)
key2=$("$build" --key)
check "kernel-cache: unchanged inputs give the same key" [ "$key1" = "$key2" ]

# A key whose tree is marked complete is a cache hit: nothing is rebuilt.
mkdir -p "$tmp/cache/kernel-$key1/linux"
touch "$tmp/cache/kernel-$key1/complete"
msg=$("$build" 2>&1)
if [ $? = 0 ] && echo "$msg" | grep -q "cache hit $key1" &&
   [ "$(readlink "$tmp/repo/build/linux")" = "$tmp/cache/kernel-$key1/linux" ]; then
	pass "kernel-cache: unchanged inputs reuse the cached tree"
else
	fail "kernel-cache: unchanged inputs reuse the cached tree" "$msg"
fi

echo "CONFIG_IDLESCOPE_TEST=y" >>"$tmp/repo/kernel/config/idlescope.config"
key3=$("$build" --key)
check "kernel-cache: a changed fragment changes the key" [ "$key3" != "$key1" ]

# A patch that does not apply stops the build and is named.
cat >"$tmp/repo/kernel/patches/6.1/9999-broken.patch" <<'PATCH'
--- a/file.c
+++ b/file.c
@@ -1 +1 @@
-not what the file says
+changed
PATCH
# The fake tree is not Linux: only the broken patch is in its series.
echo "9999-broken.patch" >"$tmp/repo/kernel/patches/6.1/series"
key4=$("$build" --key)
check "kernel-cache: a changed series changes the key" [ "$key4" != "$key3" ]
msg=$("$build" 2>&1)
rc=$?
if [ $rc != 0 ] && echo "$msg" | grep -q "error: patch 9999-broken.patch does not apply"; then
	pass "kernel-cache: a broken patch fails the build naming it"
else
	fail "kernel-cache: a broken patch fails the build naming it" "rc=$rc: $msg"
fi
check "kernel-cache: a failed patch leaves no tree marked complete" \
	[ ! -e "$tmp/cache/kernel-$key4/complete" ]

echo "9998-missing.patch" >>"$tmp/repo/kernel/patches/6.1/series"
msg=$("$build" --key 2>&1)
if [ $? != 0 ] && echo "$msg" | grep -q "patch 9998-missing.patch listed in kernel/patches/6.1/series but missing"; then
	pass "kernel-cache: a missing patch is named"
else
	fail "kernel-cache: a missing patch is named" "$msg"
fi

KERNEL_TARBALL=$tmp/nonexistent.tar.xz "$build" --key >/dev/null 2>"$tmp/err"
if [ $? != 0 ] && grep -q "kernel tarball .*nonexistent.tar.xz missing" "$tmp/err"; then
	pass "kernel-cache: a missing tarball is one clear error"
else
	fail "kernel-cache: a missing tarball is one clear error" "$(cat "$tmp/err")"
fi
