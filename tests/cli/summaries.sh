#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `idlescope dump --summary`: the summaries a light run's BPF side keeps
# (bpf/idlescope_summary.h), added up from a record file.  They count what
# the report counts for the same periods: per workload and governor the
# periods, the kernel's misses, the states entered and the predictions
# within each factor of the actual duration; the counters give each CPU's
# records and their checksum; a file it cannot read is one error line.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/summaries
L=$top/build/idlescope
plan 7
rm -rf "$out"
mkdir -p "$out/report"
cd "$out" || exit 1
"$top/build/genrec" -n 40000 -c 2 -o run.rec || exit 1

"$L" dump --summary run.rec >summaries.txt 2>dump.err
rc=$?
check -m "exit $rc: $(head -n 1 dump.err)" "summaries: dump --summary reads a record file" \
	[ $rc = 0 -a ! -s dump.err ]
"$L" report run.rec -o report >/dev/null 2>&1 || exit 1

# compare FIELD: the summaries' sums per workload against report.json's
# all-CPU results for the same periods (genrec runs one governor per tag).
compare() {
	python3 - "$1" summaries.txt report/report.json <<'EOF'
import json, sys
what, summaries, report = sys.argv[1:]
sums = {}
for line in open(summaries):
    if not line.startswith("summary "):
        continue
    head, _, workload = line.rstrip("\n").partition(" workload=")
    fields = dict(w.split("=") for w in head.split()[1:])
    acc = sums.setdefault(workload, {})
    for k, v in fields.items():
        if k != "cpu":
            acc[k] = acc.get(k, 0) + int(v)
seen = {}
for r in json.load(open(report))["results"]:
    a = r["all_cpus"]
    if what == "periods":
        got, want = sums[r["workload"]]["periods"], a["samples"]
    elif what == "misses":
        got = (sums[r["workload"]]["miss_above"], sums[r["workload"]]["miss_below"])
        want = (a["miss_above_samples"], a["miss_below_samples"])
    elif what == "states":
        got = [sums[r["workload"]][f"state{i}_periods"] for i in range(10)]
        want = a["state_entered_samples"]
    else:
        got = [sums[r["workload"]]["predicted"]] + \
              [sums[r["workload"]]["within_" + f["label"]] for f in a["within_factor"]]
        want = [a["predicted_samples"]] + [f["count"] for f in a["within_factor"]]
    seen[r["workload"]] = seen.get(r["workload"], 0) + 1
    if got != want:
        sys.exit(f"{r['workload']}: summaries {got}, report {want}")
if not seen or set(seen.values()) != {1} or set(seen) != set(sums):
    sys.exit(f"workloads: summaries {sorted(sums)}, report {seen}")
EOF
}
for what in periods misses states within; do
	err=$(compare $what 2>&1)
	case $what in
	within) name="predictions within each factor" ;;
	states) name="states entered" ;;
	misses) name="kernel's misses" ;;
	*) name=$what ;;
	esac
	check -m "$err" "summaries: each workload's $name are the report's" [ -z "$err" ]
done

records=$(awk '$1 == "counters" { sub(/records=/, "", $3); n += $3 } END { print n }' summaries.txt)
check -m "$records records" "summaries: the counters count every record" [ "$records" = 40000 ]

error_status=1
check_error "summaries: a missing file is one error" 'No such file' \
	"$L" dump --summary missing.rec
