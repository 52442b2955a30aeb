#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input on the host side: `make run` with unknown names stops before
# building or booting anything, and the VM runner without QEMU is one clear
# line and status 127.  (The loader's own bad input is checked in the guest,
# tests/guest/30-observe.sh and 50-record.sh; the kernel tarball in kernel_cache.sh.)

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan 10

runs_before=$(ls "$top/out" 2>/dev/null | grep -c .)
check_error "make run: an unknown governor is one line" "unknown governor 'nosuch'" \
	make -s -C "$top" --no-print-directory run GOVERNORS='menu nosuch'
check_error "make run: an unknown workload is one line" "unknown workload 'frob'" \
	make -s -C "$top" --no-print-directory run WORKLOAD_SET='idle frob'
check_error "make run: an unknown suite is one line" "unknown suite 'frob' \(known: all default linux-pm real synthetic\)" \
	make -s -C "$top" --no-print-directory run SUITE=frob
check_error "make run: an unknown kernel in KERNELS is one line" "KERNELS: '7.0' is not one of 6.1 " \
	make -s -C "$top" --no-print-directory run KERNELS='6.1 7.0'
check_error "make run: a kernel named twice in KERNELS is one line" "KERNELS='6.1 6.1' names a kernel twice" \
	make -s -C "$top" --no-print-directory run KERNELS='6.1 6.1'
check "make run: bad names created no run directory" \
	[ "$(ls "$top/out" 2>/dev/null | grep -c .)" = "$runs_before" ]

QEMU=/nonexistent/qemu-system-x86_64 "$top/vm/run.sh" -s "$tmp/share" -- true \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check -m "got $rc" "runner: QEMU missing exits 127" [ $rc = 127 ]
check -m "$(tr '\n' ' ' <"$tmp/err")" "runner: QEMU missing is one line" \
	[ "$(grep -c . "$tmp/err")" = 1 -a -n "$(grep 'qemu-system-x86_64 missing' "$tmp/err")" ]

CLOCK=bogus "$top/vm/run.sh" -s "$tmp/share" -- true >"$tmp/out" 2>"$tmp/err"
rc=$?
check -m "got $rc" "runner: an unknown CLOCK exits 2" [ $rc = 2 ]
check -m "$(head -n 1 "$tmp/err")" "runner: an unknown CLOCK is one line" \
	[ "$(grep -c . "$tmp/err")" = 1 -a -n "$(grep "CLOCK must be virtual, virtual-sleep, fixed or host, not 'bogus'" "$tmp/err")" ]
