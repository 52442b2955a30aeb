#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The proof of docs/howto.md's recipe for a new governor: in a copy of the
# sources, add the one line it asks for (haltpoll, a governor 6.1 has but
# our guest does not build) and check that everything said to follow by
# itself does: the BPF object probes its select and knows its struct, the
# loader names it, `make run` accepts it, the report.json checker knows it.
# And the docs' governor lists it must join by hand (tests/repo/doc_lists.py):
# right on the tree, naming haltpoll in the copy until the edits the recipe
# lists are made, passing after them.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/idlescope.bpf.o || exit
src=$tmp/src
mkdir -p "$src/workloads" "$src/vm/guest"
cp -r "$top/bpf" "$top/loader" "$top/lib" "$top/tests" "$top/docs" "$top/Makefile" "$src/"
cp "$top/workloads/workloads.mk" "$top/workloads/suite.txt" "$src/workloads/"
cp -r "$top/vm/guest/." "$src/vm/guest/"

# The governors before it (none first): haltpoll's id is their count.
before=$(awk '/^#define IDLESCOPE_CPUIDLE_GOVERNORS\(X\)/ { t = 1; next }
	t && match($0, /X\([A-Z0-9_]+,[[:space:]]*[a-z0-9_]+/) {
		n = substr($0, RSTART + 2, RLENGTH - 2); sub(/^[A-Z0-9_]+,[[:space:]]*/, "", n)
		printf " %s", n }
	t && !/\\$/ { t = 0 }' "$src/bpf/idlescope.h")
before="none$before"
id=$(echo $before | wc -w)

# The recipe: one line at the end of IDLESCOPE_CPUIDLE_GOVERNORS.
awk '/^#define IDLESCOPE_CPUIDLE_GOVERNORS\(X\)/ { t = 1; print; next }
	t && !/\\$/ { print $0 "\t\\"; print "\tX(HALTPOLL,\thaltpoll,\thaltpoll_select)"; t = 0; next }
	{ print }' "$src/bpf/idlescope.h" >"$tmp/idlescope.h" && mv "$tmp/idlescope.h" "$src/bpf/idlescope.h"
check -m "$(grep -n HALTPOLL "$src/bpf/idlescope.h")" "recipe governor: the line is in the table" \
	grep -q '^	X(HALTPOLL,	haltpoll,	haltpoll_select)$' "$src/bpf/idlescope.h"

clang -O2 -g -Wall -Werror -target bpf -D__TARGET_ARCH_x86 -I"$top/build" -I"$src/bpf" \
	-c "$src/bpf/idlescope.bpf.c" -o "$tmp/idlescope.bpf.o" 2>"$tmp/clang.log"
rc=$?
check -m "$(head -c 300 "$tmp/clang.log")" "recipe governor: the BPF object builds, no warning" [ $rc = 0 ]
sections=$(llvm-objdump -h "$tmp/idlescope.bpf.o" 2>/dev/null)
check -m "$(echo "$sections" | grep -c fexit) fexit sections" \
	"recipe governor: a select probe on haltpoll_select" grep -q 'fexit/haltpoll_select' <<<"$sections"
check "recipe governor: current_governor() knows haltpoll_governor" \
	grep -q "VAR 'haltpoll_governor'" <(bpftool btf dump file "$tmp/idlescope.bpf.o" 2>/dev/null)

cat >"$tmp/names.c" <<'EOF'
#include <stdio.h>
#include "governors.h"

int main(void)
{
	printf("%s %d %d\n", governor_name(IDLESCOPE_GOV_HALTPOLL), governor_id("haltpoll"),
	       IDLESCOPE_NR_GOVERNORS);
	return 0;
}
EOF
gcc -Wall -Werror -I"$src/bpf" -I"$src/loader" "$tmp/names.c" "$src/loader/governors.c" \
	-o "$tmp/names" 2>"$tmp/gcc.log" && got=$("$tmp/names")
check -m "got '$got', want 'haltpoll $id $((id + 1))' $(head -c 200 "$tmp/gcc.log")" \
	"recipe governor: the loader names it, the last id" [ "$got" = "haltpoll $id $((id + 1))" ]

known=$(make -s -C "$src" --no-print-directory --eval 'show-governors: ; @echo $(KNOWN_GOVERNORS)' \
	show-governors 2>&1)
err=$(sh "$src/vm/guest/suite.sh" --check "$src/workloads/suite.txt" "$known" haltpoll idle 2>&1)
check -m "known: $known; $err" "recipe governor: make run takes GOVERNORS=haltpoll" \
	[ -z "$err" -a "${known##* }" = haltpoll ]

got=$(IDLESCOPE_SRC=$src python3 -c 'import runpy, sys
print(" ".join(runpy.run_path(sys.argv[1], run_name="lib")["GOVERNORS"]))' \
	"$src/tests/check_report_json.py" 2>&1)
check -m "$got" "recipe governor: the report.json checker knows it, last" \
	[ "$got" = "$before haltpoll" ]

# The docs' lists (docs/howto.md's "By hand, always").
doc_lists=$top/tests/repo/doc_lists.py
check -m "$(python3 "$doc_lists" --governors "$top" 2>&1 | head -n 3)" \
	"recipe governor: the docs' governor lists are the table's" python3 "$doc_lists" --governors "$top"
got=$(python3 "$doc_lists" --governors "$src" 2>&1)
rc=$?
check -m "status $rc: $got" "recipe governor: without the hand edits, the docs' lists name haltpoll, each" \
	eval '[ $rc = 1 ] && printf "%s\n" "$got" | grep -q "^docs/report-schema.md: .* haltpoll\$" &&
		printf "%s\n" "$got" | grep -q "^docs/kernels.md: .* haltpoll\$"'
# The hand edits: the report schema's values, the 6.1 row of kernels.md.
sed -i 's/\(`[a-z0-9]*`\) (bpf\/idlescope.h.s list)/\1, `haltpoll` (bpf\/idlescope.h'"'"'s list)/' \
	"$src/docs/report-schema.md"
sed -i '/`KERNEL=6.1`/s/menu2010rpd, /menu2010rpd, haltpoll, /' "$src/docs/kernels.md"
got=$(python3 "$doc_lists" --governors "$src" 2>&1)
check -m "$got" "recipe governor: with the hand edits the recipe lists, the docs' lists pass" [ -z "$got" ]
