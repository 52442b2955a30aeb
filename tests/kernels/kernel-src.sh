#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# KERNEL_SRC=PATH on a stand-in for a developer's tree: Debian's
# linux-source tarball unpacked into a git checkout (no patch of ours),
# built out of tree and booted by `make run`, the loader in reduced mode.
# Two runs of the unchanged tree: `idlescope compare` flags no row.  Then a
# one-line change to a governor constant, applied here as a developer's
# uncommitted patch: ladder's PROMOTION_COUNT from 4 to 1000000, so
# ladder never leaves its first state; the tree gets a key of its own, is
# built again (ccache: only what the change touches is compiled), and
# compare flags ladder's numbers, moved by tens of points.  ladder, not
# menu or teo: its change shows in the states entered, which the kernel
# reports itself, so the moved numbers owe nothing to a model of the
# governor, and on 1 ms sleeps the effect is all or nothing.
#
# The stand-in is Debian's linux-source-6.12, as issue 27 asks (kernel
# developers' governors are 6.12's and later); STANDIN=6.1 takes 6.1's,
# whose ladder.c has the same line.  It is kept in build/kernel-src/
# between runs (same path, so ccache finds the objects of the last run;
# not under build/test/, which tests/run.sh empties); each step's wall
# time goes to build/test/kernel-src/timings.txt.
# Not part of `make test`: its first build is a cold kernel build
# (docs/kernels.md); `make test-kernels` or `tests/run.sh` on this file.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
standin=${STANDIN:-6.12}
tarball=/usr/src/linux-source-$standin.tar.xz
share=$top/build/test/kernel-src
tree=$top/build/kernel-src/linux-$standin
# git in the stand-in never looks further up, into this clone.
export GIT_CEILING_DIRECTORIES=$(dirname "$tree")
timings=$share/timings.txt
runs="menu ladder"
plan 11
rm -rf "$share"
mkdir -p "$share" "$(dirname "$tree")"
: >"$timings"

# timed NAME COMMAND...: run COMMAND, its wall time as "NAME SECONDS".
timed() {
	local name=$1 start rc
	shift
	start=$(date +%s)
	"$@"
	rc=$?
	echo "$name $(( $(date +%s) - start ))" >>"$timings"
	return $rc
}

# The stand-in, unpacked once per tarball version; a run starts it clean.
# Debian's tarball ignores its whole top level (.gitignore: /*), hence
# add -f, and --ignored wherever the test looks at what changed.
version=$(dpkg-query -W -f='${Version}' "linux-source-$standin" 2>/dev/null)
unpack() {
	rm -rf "$tree" "$tree.tmp" && mkdir -p "$tree.tmp" &&
	tar -C "$tree.tmp" -xf "$tarball" &&
	mv "$tree.tmp/linux-source-$standin" "$tree" && rmdir "$tree.tmp" &&
	git -C "$tree" init -q && git -C "$tree" add -A -f &&
	git -C "$tree" -c user.name=stand-in -c user.email=stand-in@example.org \
		commit -qm "linux-source-$standin $version" &&
	echo "$version" >"$tree/.git/standin-version"
}
if [ "$(cat "$tree/.git/standin-version" 2>/dev/null)" != "$version" ]; then
	timed unpack unpack >"$share/unpack.log" 2>&1
else
	git -C "$tree" checkout -q -- . && git -C "$tree" clean -qfdx
fi
check -m "log: $share/unpack.log" "kernel-src: the stand-in is a clean git checkout" \
	[ -n "$version" -a -z "$(git -C "$tree" status --porcelain --ignored 2>&1)" ]

# make_run NAME: one `make run` of the tree as it is now, into run-NAME.
make_run() {
	timed "run_$1" make -s -C "$top" --no-print-directory run KERNEL_SRC="$tree" \
		GOVERNORS="$runs" WORKLOAD_SET=periodic1ms SECONDS_PER_WORKLOAD=3 \
		RUN_DIR="$share/run-$1" >"$share/run-$1.log" 2>&1
}

# compare_json A B: idlescope compare -j of two runs.
compare_json() {
	"$top/build/idlescope" compare "$share/run-$1" "$share/run-$2" -j \
		>"$share/compare-$1-$2.json" 2>"$share/compare-$1-$2.err"
}

timed build_unchanged make -s -C "$top" --no-print-directory kernel KERNEL_SRC="$tree" \
	>"$share/build-unchanged.log" 2>&1
rc=$?
check -m "exit $rc; log: $share/build-unchanged.log" "kernel-src: the unchanged stand-in builds" [ $rc = 0 ]
unchanged_key=$(KERNEL_SRC=$tree "$top/kernel/build.sh" --key)

make_run a
rc=$?
# Each boot of the run (seed-N/GOVERNORS/) has its console log.
reduced=$(cat "$share"/run-a/seed-*/*/console.log 2>/dev/null |
	grep -c 'mode: observation fields no, 2010 governors no')
check -m "exit $rc, $reduced mode lines; log: $share/run-a.log" \
	"kernel-src: a run on it reports, without observation fields or 2010 governors" \
	[ $rc = 0 -a -s "$share/run-a/report.txt" -a "${reduced:-0}" -gt 0 ]
make_run b
compare_json a b
rc=$?
check -m "exit $rc: $(head -n 1 "$share/compare-a-b.err")" "kernel-src: compare reads the two runs" [ $rc = 0 ]
flagged=$(python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["differences"]
print(len(rows), sum(r["flagged"] for r in rows))' "$share/compare-a-b.json" 2>&1)
set -- $flagged 0 0
check -m "$2 of $1 rows flagged" "kernel-src: two runs of the unchanged tree: compare flags no row" \
	[ "$1" -gt 0 -a "$2" = 0 ]

# The developer's one-line patch, uncommitted.
sed -i 's/^#define PROMOTION_COUNT 4$/#define PROMOTION_COUNT 1000000/' \
	"$tree/drivers/cpuidle/governors/ladder.c"
check -m "$(git -C "$tree" diff --numstat)" "kernel-src: the change is one line of ladder.c" \
	[ "$(git -C "$tree" diff --numstat)" = "$(printf '1\t1\tdrivers/cpuidle/governors/ladder.c')" ]
changed_key=$(KERNEL_SRC=$tree "$top/kernel/build.sh" --key)
check -m "$unchanged_key -> $changed_key" "kernel-src: the changed tree has a key of its own" \
	[ -n "$changed_key" -a "$changed_key" != "$unchanged_key" ]
timed build_changed make -s -C "$top" --no-print-directory kernel KERNEL_SRC="$tree" \
	>"$share/build-changed.log" 2>&1
rc=$?
check -m "exit $rc; log: $share/build-changed.log" "kernel-src: the changed stand-in builds" [ $rc = 0 ]
check -m "$(git -C "$tree" status --porcelain --ignored | head -n 3)" \
	"kernel-src: the builds wrote nothing into the tree" \
	[ "$(git -C "$tree" status --porcelain --ignored)" = " M drivers/cpuidle/governors/ladder.c" ]

make_run c
check -m "log: $share/run-c.log" "kernel-src: a run on the changed tree reports" \
	[ -s "$share/run-c/report.txt" ]
compare_json a c
moved=$(python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["differences"]
def moved(gov):
    return max([abs(r["diff_pp"]["pct"]) for r in rows
                if r["governor"] == gov and r["model"] == "live" and r["flagged"]] or [0])
print("%d %d" % (moved("ladder"), moved("menu")))' "$share/compare-a-c.json" 2>&1)
set -- $moved x x
ok=no
[ "$1" -ge 50 ] 2>/dev/null && [ "$2" = 0 ] && ok=yes
check -m "ladder moved by $1 points, menu by $2" \
	"kernel-src: compare flags ladder's numbers, moved by >= 50 points, and not menu's" [ $ok = yes ]
