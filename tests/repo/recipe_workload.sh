#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The proof of docs/howto.md's recipe for a new workload: in a copy of the
# tree, add the one file it asks for (every3ms, a timer pattern waking
# every 3 ms) and check that what it says follows by itself does: the
# build makes it a program, `make list-workloads` (and with it the
# initramfs and tests/harness/workloads.sh's bad-flag checks) has it, its
# command line is the shared one; then its suite.txt line, and `make run`
# takes it by name and in its suite.  And the docs' lists it must join
# (tests/repo/doc_lists.py): right on the tree, naming it in the copy
# until the hand edits the recipe lists are made.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
mkdir -p "$src/vm" "$src/docs"
cp -r "$top/Makefile" "$top/README.md" "$top/bpf" "$top/loader" "$top/lib" "$top/workloads" "$src/"
cp -r "$top/vm/guest" "$src/vm/"
cp "$top/docs/devices.md" "$src/docs/"
w=every3ms

# The recipe: the one file.
cat >"$src/workloads/$w.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* every3ms - wake every 3 ms, from the start: the smallest timer pattern. */
#include "workload.h"

static __u64 wakeups;

static const char argp_doc[] =
"Wake every 3 ms from the start.\n"
"\n"
"Default tag: every3ms.\n";

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	wakeups++;
	wl_timer.overruns += wl_next_gap(&deadline_ns, 3000 * NSEC_PER_USEC, now_ns);
	return deadline_ns;
}

static int summary(void)
{
	wl_summary("%llu wakeups", (unsigned long long)wakeups);
	return 0;
}

const struct wl_pattern wl_pattern = {
	.name = "every3ms",
	.doc = argp_doc,
	.next_deadline = next_deadline,
	.summary = summary,
};
EOF

make -C "$src" --no-print-directory "build/workloads/$w" >"$tmp/make.log" 2>&1
rc=$?
check -m "status $rc: $(grep -m 3 -E 'warning|error' "$tmp/make.log" | tr '\n' ' ')" \
	"recipe workload: its one file builds into a program, no warning" \
	eval '[ $rc = 0 ] && ! grep -q "warning:" "$tmp/make.log"'
check -m "$(make -s -C "$src" --no-print-directory list-workloads 2>&1)" \
	"recipe workload: make list-workloads has it (the initramfs, the bad-flag checks)" \
	eval 'make -s -C "$src" --no-print-directory list-workloads | tr " " "\n" | grep -qx "build/workloads/$w"'

bin=$src/build/workloads/$w
check "recipe workload: --help is the shared usage with its doc" \
	eval '"$bin" --help | head -n 1 | grep -qx "Usage: $w \[OPTION...\]" && "$bin" --help | grep -q "Wake every 3 ms"'
error_status=64 check_error "recipe workload: a bad flag is one line, exit 64" \
	"^$w: invalid option -- 'x'\$" "$bin" -x
got=$("$bin" -d 1 -t e3 2>"$tmp/run.err")
check -m "got: $got; stderr: $(head -c 300 "$tmp/run.err")" "recipe workload: a run wakes on its deadlines and prints the summary line" \
	eval 'printf "%s\n" "$got" | grep -qE "^$w: [0-9]+ wakeups, tag e3( \(not set\))?\$" &&
		[ "$(printf "%s\n" "$got" | sed -n "s/^$w: \([0-9]*\) wakeups.*/\1/p")" -gt 100 ]'

# Then its line in suite.txt: in the default suite, so README.md's count
# of it changes too.
printf '%s\tdefault,synthetic\ttimer\ton_both_cpus %s -d $d\n' "$w" "$w" >>"$src/workloads/suite.txt"
known=$(make -s -C "$src" --no-print-directory --eval 'show-governors: ; @echo $(KNOWN_GOVERNORS)' \
	show-governors 2>&1)
set=$(make -s -C "$src" --no-print-directory --eval 'show-set: ; @echo $(WORKLOAD_SET)' show-set 2>&1)
err=$(sh "$src/vm/guest/suite.sh" --check "$src/workloads/suite.txt" "$known" menu "$w" 2>&1)
check -m "default set: $set; $err" "recipe workload: make run takes WORKLOAD_SET=$w, and its suite has it" \
	eval '[ -z "$err" ] && [ "${set##* }" = "$w" ]'

# The docs' lists (docs/howto.md's "By hand").
check -m "$(python3 "$top/tests/repo/doc_lists.py" --workloads "$top" 2>&1 | head -n 3)" \
	"recipe workload: the docs' workload lists are the tree's" \
	python3 "$top/tests/repo/doc_lists.py" --workloads "$top"
got=$(python3 "$top/tests/repo/doc_lists.py" --workloads "$src" 2>&1)
rc=$?
check -m "status $rc: $got" "recipe workload: without the hand edits, the docs' lists name what is missing" \
	eval '[ $rc = 1 ] && printf "%s\n" "$got" | grep -q "^workloads/README.md: .* does not name $w\$" &&
		printf "%s\n" "$got" | grep -q "^README.md: .*'"'"'eleven'"'"'" &&
		printf "%s\n" "$got" | grep -q "^docs/devices.md: the \`timer\` row does not name $w\$"'
# The hand edits: a row in workloads/README.md's table, README.md's count,
# its name in docs/devices.md's row of its events.
sed -i "/^| \`idle\` |/a | \`$w\` | wake every 3 ms | — | \`$w\` |" "$src/workloads/README.md"
sed -i 's/the ten synthetic patterns/the eleven synthetic patterns/' "$src/README.md"
sed -i "/^| \`timer\` |/s/| idle, /| idle, $w, /" "$src/docs/devices.md"
got=$(python3 "$top/tests/repo/doc_lists.py" --workloads "$src" 2>&1)
check -m "$got" "recipe workload: with the hand edits the recipe lists, the docs' lists pass" [ -z "$got" ]
