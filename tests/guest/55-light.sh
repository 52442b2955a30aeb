#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest: the light and lean runs (-m light, -m lean; docs/bpf.md).  A light
# run's records reach the host as the BPF side sent them, by count and by
# checksum, with nothing dropped; its BPF-side summaries equal the same
# summaries added up from its records (`idlescope dump --summary`); a lean
# run keeps every completed period in its summaries and sends no record.
# A light run drains when asked (SIGUSR1), not while a workload runs.
# `make run`'s loaders are light (vm/guest/suite.sh).

. /usr/share/idlescope/lib.sh

out=/host/light
rm -rf $out
mkdir -p $out/light $out/lean
plan 14
[ -d /sys/module/idlescope_states ] || insmod /lib/modules/idlescope_states.ko

# As `make run`: the record file in guest memory while the workloads run,
# copied to the host after.
file_size() { wc -c <"$1"; }

# Buffers of 64 MiB: the workloads' records stay far below the half that
# wakes the loader.
idlescope -m light --checksum -g menu -d $UNTIL_STOPPED_S -i 1 -b 67108864 -o $out/light \
	-r /tmp/light.rec >$out/light.txt 2>&1 &
loader=$!
wait_for_loader
size_at_ready=$(file_size /tmp/light.rec)
periodic -d 2 -p 500 -c 1 -t light-periodic >/dev/null 2>&1
pingpong -d 1 -t light-pingpong >/dev/null 2>&1
size_before=$(file_size /tmp/light.rec)
check -m "$size_at_ready bytes when ready, $size_before after the workloads" \
	"light: no record reaches the file while the workloads run" \
	[ "$size_before" = "$size_at_ready" ]
kill -USR1 $loader
# The drain has begun when the file grows, and ended when it stops (the
# periods of this wait stay for a later drain).  A loader that never
# drains is the boot's timeout's to catch.
while [ "$(file_size /tmp/light.rec)" = "$size_before" ]; do
	usleep 100000
done
size_after=0
while [ "$(file_size /tmp/light.rec)" != "$size_after" ]; do
	size_after=$(file_size /tmp/light.rec)
	usleep 200000
done
check -m "$size_before bytes before, $size_after after" \
	"light: SIGUSR1 drains the records into the file" \
	[ $((size_after - size_before)) -gt 100000 ]
kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc: $(tail -n 3 $out/light.txt | tr '\n' ' ')" \
	"light: the loader ends cleanly on SIGINT" [ $rc = 0 ]
dd if=/tmp/light.rec of=$out/run.rec bs=1M 2>/dev/null
rm -f /tmp/light.rec
check "light: the dashboard shows the workload from the BPF summaries" \
	grep -q 'workload light-periodic, governor menu' $out/light.txt
idlescope dump --summary $out/run.rec >$out/from-records.txt 2>$out/dump.err
rc=$?
check -m "exit $rc: $(head -n 1 $out/dump.err)" \
	"light: dump --summary reads the copied record file" [ $rc = 0 -a ! -s $out/dump.err ]
# The loader's last lines: a row per CPU after "CPU ENTRIES EXITS RECORDS DROPPED".
counter_rows() {
	awk '/^CPU +ENTRIES +EXITS/ { t = 1; next } t && $1 ~ /^[0-9]+$/ && NF == 5' "$1"
}
dropped=$(counter_rows $out/light.txt | awk '{ n += $5 } END { print n + 0 }')
check -m "$dropped dropped" "light: nothing dropped" [ "$dropped" = 0 ]
grep '^counters' $out/light/summaries.txt >$out/sent.txt
grep '^counters' $out/from-records.txt >$out/received.txt
records=$(awk '{ sub(/records=/, "", $3); n += $3 } END { print n + 0 }' $out/sent.txt)
check -m "$records records" "light: the BPF side sent records" [ "$records" -gt 1000 ]
check -m "sent $(tr '\n' ' ' <$out/sent.txt) received $(tr '\n' ' ' <$out/received.txt)" \
	"light: the records on the host are those sent, by count and checksum per CPU" \
	cmp -s $out/sent.txt $out/received.txt
check -m "$(diff $out/light/summaries.txt $out/from-records.txt | head -n 4 | cut -c1-200 |
	tr '\n' ' ')" \
	"light: the BPF summaries equal the summaries of the records" \
	cmp -s $out/light/summaries.txt $out/from-records.txt
mkdir -p $out/report
idlescope report $out/run.rec -o $out/report >/dev/null 2>$out/report.err
rc=$?
check -m "exit $rc: $(head -n 1 $out/report.err)" \
	"light: the report of the record file has no warning" [ $rc = 0 -a ! -s $out/report.err ]

idlescope -m lean -g menu -d $UNTIL_STOPPED_S -i 3600 -o $out/lean >$out/lean.txt 2>&1 &
loader=$!
wait_for_loader
periodic -d 2 -p 500 -c 1 -t lean-periodic >/dev/null 2>&1
kill -INT $loader
wait $loader
rc=$?
check -m "exit $rc: $(tail -n 3 $out/lean.txt | tr '\n' ' ')" \
	"lean: the loader ends cleanly on SIGINT" [ $rc = 0 ]
# Per CPU, the periods summed against the exits the BPF side counted: one
# period may still wait for its misses at detach, and the first exit
# after attach may have had no entry.
missing=$(counter_rows $out/lean.txt | awk 'FNR == NR { if ($1 == "summary") {
		split($2, c, "="); split($3, p, "="); n[c[2]] += p[2] }; next }
	{ d = $3 - n[$1]; if (d < 0 || d > 2) bad = bad " cpu" $1 ":" d }
	END { print bad }' $out/lean/summaries.txt -)
check -m "exits less periods:$missing" \
	"lean: every completed idle period is in the summaries" [ -z "$missing" ]
check "lean: the report says what a lean run cannot have" \
	grep -q 'not in a lean run (no records): the models' $out/lean/report.txt
check_error "lean: a record file is refused" 'needs records' \
	idlescope -m lean -d 1 -r $out/lean.rec
