#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The proof of docs/howto.md's recipe for a new model: in a copy of the
# loader's sources, follow it to the letter (one file, one registry row),
# build `idlescope` from the copy and report on a genrec file.  The model
# added, "nexttimer", predicts the next timer: the report must score it on
# exactly the periods, and with exactly the within-F counts, that an
# independent count over `idlescope dump` gives.  And the docs' list of
# models it must join by hand (tests/repo/doc_lists.py): right on the tree,
# naming nexttimer in the copy until the recipe's edit is made.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 11
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/idlescope || exit
src=$tmp/src
mkdir -p "$src"
cp -r "$top/loader" "$top/bpf" "$top/README.md" "$src/"

# The recipe, step 1: the model's file.
cat >"$src/loader/models/nexttimer.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* nexttimer.c - predicts the next timer, as if every timer were the wake-up. */
#include "models/models.h"

__u64 nexttimer_step(struct model_state *ms, const struct model_input *in,
		     const struct model_states_table *table)
{
	ms->chosen_state = -1;
	return in->next_timer_ns;
}

void nexttimer_reset(void *data)
{
}
EOF
# Step 2: its row, above the registry's last line.
sed -i '/new models: a row above this line/i\
	X(NEXTTIMER, nexttimer, NONE, "none", IDLESCOPE_F_HAS_NEXT_TIMER,	\\\
	  nexttimer_step, nexttimer_reset)					\\' \
	"$src/loader/models/registry.h"
check -m "$(grep -c nexttimer "$src/loader/models/registry.h") lines" \
	"recipe model: the row is in the registry" grep -q 'X(NEXTTIMER' "$src/loader/models/registry.h"

# Built as the Makefile builds the loader, warnings as errors, with the
# report page's files it names (loader/report/html.c).
chartjs=$(make -s -C "$top" --no-print-directory --eval 'chartjs: ; @echo $(abspath $(CHARTJS))' chartjs)
# shellcheck disable=SC2046
if gcc -O1 -Wall -Wextra -Wno-unused-parameter -Werror -I"$src/bpf" -I"$src/loader" \
	-I"$top/lib" -I"$top/build" -I"$top/kernel/modules/idlescope_states" \
	-DHTML_PAGE_DIR="\"$src/loader/report/page\"" -DHTML_CHARTJS="\"$chartjs\"" \
	$(find "$src/loader" -name '*.c') "$top"/lib/*.c -lbpf -lelf -lz -lm -o "$tmp/idlescope" \
	2>"$tmp/gcc.log"; then
	pass "recipe model: the loader builds with it, no warning"
else
	fail "recipe model: the loader builds with it, no warning" "$(head -c 300 "$tmp/gcc.log")"
	exit 1
fi

"$top/build/genrec" -n 40000 -c 2 -s 9 -o "$tmp/g.rec" >/dev/null ||
	{ fail "recipe model: genrec" "failed"; exit 1; }
mkdir "$tmp/out"
"$tmp/idlescope" report -j "$tmp/g.rec" >"$tmp/report.json" 2>"$tmp/err" &&
"$tmp/idlescope" report -o "$tmp/out" "$tmp/g.rec" >/dev/null 2>>"$tmp/err"
rc=$?
check -m "status $rc: $(head -c 300 "$tmp/err")" "recipe model: idlescope report runs with it" [ $rc = 0 ]
check -m "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["shadow_models"])' \
	"$tmp/report.json" 2>&1)" "recipe model: report.json lists it after the others" \
	python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))["shadow_models"]
sys.exit(m[-1] != "nexttimer" or m[:4] != ["menu2010", "menu2010fix", "menu2010rpd", "menu"])' \
	"$tmp/report.json"
err=$(IDLESCOPE_SRC=$src python3 "$top/tests/check_report_json.py" "$tmp/report.json" 2>&1)
check -m "$(echo "$err" | head -n 3 | tr '\n' ' ')" \
	"recipe model: report.json passes the schema check with five models" [ -z "$err" ]

# The independent count: every genrec period's governor records the next
# timer (the menu family), so the model is scored on each selected period
# with a next timer (neither 0 nor unknown), within F when max <= F * min.
"$top/build/idlescope" dump "$tmp/g.rec" >"$tmp/g.csv"
want=$(python3 -c 'import csv, sys
bad = n = 0
w = [0, 0, 0]
for r in csv.DictReader(open(sys.argv[1])):
    bad += not r["governor"].startswith("menu")
    p, a = int(r["next_timer_ns"]), int(r["residency_ns"])
    if not int(r["flags"], 16) & 1 or p in (0, 2**64 - 1) or a == 0:
        continue
    n += 1
    hi, lo = max(p, a), min(p, a)
    w = [w[0] + (2 * hi <= 3 * lo), w[1] + (hi <= 2 * lo), w[2] + (hi <= 100 * lo)]
print(bad, n, *w)' "$tmp/g.csv")
got=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
i = r["shadow_models"].index("nexttimer")
n = sum(x["all_cpus"]["shadow"][i]["samples"] for x in r["results"])
w = [sum(x["all_cpus"]["shadow"][i]["within_factor"][k]["count"] for x in r["results"])
     for k in (0, 1, 4)]
print(0, n, *w)' "$tmp/report.json")
check -m "report: $got, dump: $want (governors not menu*, periods, within 1.5x, 2x, 100x)" \
	"recipe model: scored on exactly the periods with a next timer, within F as counted from the dump" \
	[ "$got" = "$want" ]
check -m "$(grep -c nexttimer "$tmp/out/report.txt") lines" \
	"recipe model: report.txt's shadow tables have its column" grep -q nexttimer "$tmp/out/report.txt"
check "recipe model: summary.md names it" grep -q nexttimer "$tmp/out/summary.md"

# The docs' list (docs/howto.md's "By hand").
doc_lists=$top/tests/repo/doc_lists.py
check -m "$(python3 "$doc_lists" --models "$top" 2>&1 | head -n 3)" \
	"recipe model: the docs' model list is the registry's" python3 "$doc_lists" --models "$top"
got=$(python3 "$doc_lists" --models "$src" 2>&1)
rc=$?
check -m "status $rc: $got" "recipe model: without the hand edit, the docs' list names nexttimer" \
	eval '[ $rc = 1 ] && printf "%s\n" "$got" | grep -q "^README.md: .* does not name nexttimer\$"'
# The hand edit: README.md's list of every model, last.
sed -i 's|docs/upstream.md) where|docs/upstream.md, and `nexttimer`) where|' "$src/README.md"
got=$(python3 "$doc_lists" --models "$src" 2>&1)
check -m "$got" "recipe model: with the hand edit the recipe lists, the docs' list passes" [ -z "$got" ]
