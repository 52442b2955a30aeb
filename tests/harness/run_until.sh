#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make run PRECISION=` (scripts/run-until.sh) is Stein's two-stage rule:
# a first stage of REPEATS seeds from FIRST_SEED, then, once, the seeds up
# to each workload's N (grouped by N, the seeds following on), and no
# third look; a workload whose N passes MAX_BOOTS is one "run: cap" line
# and gets MAX_BOOTS.  On a copy of the script with a stand-in for
# run-boots.sh that writes a seeded genrec file per seed and notes each
# call; the report, the half-widths and N are the real ones.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/idlescope >/dev/null || exit
mkdir -p "$tmp/scripts"
cp "$top/scripts/run-until.sh" "$tmp/scripts/"
ln -s "$top/build" "$tmp/build"
cat >"$tmp/scripts/run-boots.sh" <<STUB
#!/bin/bash
# OUT REPEATS JOBS SECONDS GOVERNORS WORKLOADS: one genrec file per seed.
echo "\$FIRST_SEED \$2 \$6" >>"$tmp/calls.txt"
for ((s = FIRST_SEED; s < FIRST_SEED + \$2; s++)); do
	mkdir -p "\$1/seed-\$s/g/menu"
	"$top/build/genrec" -n 4000 -c 2 -s \$((s + 1)) -o "\$1/seed-\$s/g/menu/run.rec" || exit
done
STUB
chmod +x "$tmp/scripts/run-boots.sh"

# until PRECISION MAX_BOOTS: the rule on periodic1ms (which genrec's files
# have) and idle (which they have not: no interval), REPEATS 2 from seed
# 10; its calls in calls.txt, its output in out.txt.
until_run() {
	rm -rf "$tmp/out" "$tmp/calls.txt"
	FIRST_SEED=10 bash "$tmp/scripts/run-until.sh" "$tmp/out" 2 1 1 menu \
		"${3:-periodic1ms idle}" "$1" "$2" >"$tmp/out.txt" 2>&1
}
calls() { tr '\n' ';' <"$tmp/calls.txt"; }

until_run 100 16 periodic1ms
check -m "$(calls)" "run-until: intervals already narrow: the first stage alone, from FIRST_SEED" \
	[ "$(calls)" = "10 2 periodic1ms;" ]

until_run 0.0001 6
check -m "$(calls)" \
	"run-until: the second stage boots once, up to MAX_BOOTS, the seeds following on" \
	[ "$(calls)" = "10 2 periodic1ms idle;12 4 periodic1ms idle;" ]
check -m "$(grep '^run: cap' "$tmp/out.txt" | tr '\n' ';')" \
	"run-until: each workload cut short by MAX_BOOTS says so" \
	[ "$(grep -c -e '^run: cap: workload periodic1ms: needs [0-9]* boots (first stage: ±[0-9.]* pp over 2), 6 booted$' \
		-e "^run: cap: workload idle: no interval over the first stage's 2 boots, 6 booted$" \
		"$tmp/out.txt")" = 2 ]

# N from the first stage's own widest half-width h: at PRECISION h / 1.5,
# periodic1ms needs ceil(2 * 1.5^2) = 5 boots, idle the cap.
h=$(python3 - "$tmp/out/stage1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(max((s["hi"] - s["lo"]) / 2 for c in r["headline_logical"] if c["workload"] == "periodic1ms"
          for s in (c["within_2x"], c["ideal_hit"], c["too_deep"], c["too_shallow"])
          if s["pct"] is not None))
PY
)
until_run "$(python3 -c "print($h / 1.5)")" 16
check -m "h $h: $(calls)" "run-until: N = ceil(n0 (h / PRECISION)^2), each workload its own" \
	[ "$(calls)" = "10 2 periodic1ms idle;12 3 periodic1ms idle;15 11 idle;" ]
check -m "$(grep 'boots needed' "$tmp/out.txt" | tr '\n' ';')" \
	"run-until: says how many boots each workload needs" \
	[ "$(grep 'boots needed' "$tmp/out.txt" | tr '\n' ';')" = \
		"run: boots needed: periodic1ms 5;run: boots needed: idle 16;" ]

error_status=2 check_error "run-until: REPEATS of 1 is no first stage: one line, exit 2" \
	"PRECISION needs REPEATS of at least 2" \
	bash "$tmp/scripts/run-until.sh" "$tmp/out" 1 1 1 menu periodic1ms 1 16
