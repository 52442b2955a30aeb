#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The off-line replay's speed work must not change a report: `idlescope
# report` of a fixed genrec file (seed 7, 200k records, 2 CPUs) gives
# byte for byte the report.txt and report.json the loader gave before that
# work (main at d2224e9; sha256 of its output below; report.txt's again
# after the headline's one-line title, which changed only that line;
# report.json's again after its "reconstruction" line, the only change;
# both again after issue 25's intervals, which changed the headline's title
# into two lines, the half-widths (batch length from the measured
# correlation: no share and no count moved), the schema version (2) and
# added report.json's "boots" and the headline's per-boot members; and
# report.json's after its "workload_figures" member, an empty list here.
# Both again after genrec's records gained wake-up sources (branch why):
# report.txt's lines all kept but the capabilities line, which adds "wake-up
# sources", the why rows and sections added; report.json's members all
# kept, "capabilities" one longer, "power_table", "why" and the sysfs
# below/above deltas added.  Both again after the models teo-6.1,
# teo-6.12 and menu-6.12 joined the registry: their columns, method lines
# and shadow keys, and the chosen states' scores of the 2010 models were
# added, every other number the same.  Both again for issue 26: the clock
# line's guest speed and exit cost, the ideal-state rows' new names, the
# logical view (the headline's cells and report.json's
# "headline_logical"), the next-timer wrap line, and a prediction of 0 ns
# scored as one (patch 0004's U64_MAX marks "no prediction"): checked
# member by member against main at 4a0a526, report.json only gained
# "guest_ps_per_instruction", "exit_cost", "headline_logical", the
# headline's "events", "host_timed" and "late_sleeps" and the seed
# method's "next_timer_wrap_samples", and only the shadow cells of the
# menu model (periodic1ms under menu) and of menu2010fix (poisson2ms under
# menu2010fix and menu2010rpd) changed: 1 to 7 more samples per key (their
# predictions of 0 ns), 0.01-0.04 points; genrec's records are the same.
# Both again for issue 36 (every period judged by its wake-up): genrec's
# records have no timed exit, so the wake-up is the residency and no number
# moved (checked against main at e97f120: report.json differs only in
# "schema_version", 3, the added "exit_spent" and "excluded_runs", [] here,
# and the headline cells' "excluded_boots", 0 here); report.txt's
# first screen shows the raw and the logical view of within 2x and ideal
# hit and both views' periods, its second title line and the method's
# definitions say what is judged, and the deeper/shallower tables of both
# views follow the seed method, every number as before.
# Both again when the models menu615 and teo70 of the 6.12 series joined
# the registry: checked line by line and member by member against main at
# e97f120, report.txt only gained their two method lines, their names in
# the shadow models line and their two columns of every shadow table (all
# "-", 0 samples, every period excluded: genrec's records hold none of
# their inputs), report.json only their two entries of "shadow_models" and
# of every "shadow" array, all empty (checked again after both changes were
# merged: only those columns and entries differ from the wake-up change's).
# report.json's again when it gained "runs" (each record file's boot, seed,
# governor, position in its boot and guest speed): that member alone
# differs from main at 690764c.  And when each headline cell gained
# "regimes" ([] in every cell of this one boot): that member alone differs
# from main at d44cec0.

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
plan 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$top" --no-print-directory build/genrec build/idlescope || exit
"$top/build/genrec" -n 200000 -c 2 -s 7 -o "$tmp/200k.rec" ||
	{ echo "FAIL: replay: genrec failed"; exit 1; }
mkdir "$tmp/out"
"$top/build/idlescope" report -o "$tmp/out" "$tmp/200k.rec" >/dev/null ||
	{ echo "FAIL: replay: idlescope report failed"; exit 1; }

same() { # NAME FILE SHA256
	local got
	got=$(sha256sum "$tmp/out/$2" | cut -d' ' -f1)
	check -m "sha256 $got" "$1" [ "$got" = "$3" ]
}
same "replay: report.txt of a genrec file is unchanged" report.txt \
	7ed51cedeb02f6d3852213fdf6342d20a0a548f2769ec0220c4d3f5fef613329
same "replay: report.json of a genrec file is unchanged" report.json \
	3fbcdd23704fb41055401dfd30797b47ad5ca058e00b9429287e07f3c366916d
