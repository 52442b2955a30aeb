#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The off-line replay's cost growth: `idlescope report` of genrec files of
# 1M, 10M and 100M records (or the counts given), wall and CPU time,
# records per CPU second and peak RSS, each size against the smallest (time
# should grow linearly, memory stay flat).  A record is 152 bytes, so 100M
# records are a 15 GB file: written under build/ (BENCH_REPLAY_DIR), one
# at a time, deleted after its run; a size that does not fit on that disk
# with 1 GB to spare is skipped, saying so.  bench/run.sh calls it for
# `make bench`.
#
#   bench/replay.sh [-H TEMPLATE.rec] [-o HOST.txt] [RECORDS...]
#
# -H: genrec's state table from a real recording; -o: also append one
# `report records=N seconds=.. user_s=.. sys_s=.. rss_kb=..` line per size
# (bench/summarize.py's input).

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
template=
host=
die() {
	echo "replay: error: $1" >&2
	exit "${2:-1}"
}
while getopts H:o: opt; do
	case $opt in
	H) template=$OPTARG ;;
	o) host=$OPTARG ;;
	*) die "usage: bench/replay.sh [-H TEMPLATE.rec] [-o HOST.txt] [RECORDS...]" 2 ;;
	esac
done
shift $((OPTIND - 1))
sizes=${*:-"1000000 10000000 100000000"}
for n in $sizes; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "record counts are positive integers, not '$n'" 2
done
for f in idlescope genrec; do
	[ -x "$build/$f" ] || die "$build/$f missing (make loader build/genrec)"
done
[ -x /usr/bin/time ] || die "/usr/bin/time missing (make deps: package time)" 127

dir=${BENCH_REPLAY_DIR:-$build/replay-scratch}
mkdir -p "$dir" || die "cannot create $dir"
trap 'rm -rf "$dir"' EXIT
# Bytes per record on disk, from a small file of genrec's own (header included).
"$build/genrec" -n 10000 -c 2 -o "$dir/size.rec" || die "genrec -n 10000 failed"
record_bytes=$(($(wc -c <"$dir/size.rec") / 10000 + 1))
rm -f "$dir/size.rec"

printf '%-12s %9s %9s %14s %10s %13s %9s\n' records wall_s cpu_s "records/cpu-s" rss_MiB \
	"cpu_s/1M" "rss_x"
base_per_m= base_rss=
for n in $sizes; do
	need_kb=$((n * record_bytes / 1024 + 1024 * 1024))
	free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
	if [ "$free_kb" -lt "$need_kb" ]; then
		echo "replay: skipping $n records: $((need_kb / 1024)) MiB needed, $((free_kb / 1024)) MiB free in $dir"
		continue
	fi
	"$build/genrec" -n "$n" -c 2 ${template:+-H "$template"} -o "$dir/in.rec" ||
		die "genrec -n $n failed"
	rm -rf "$dir/out" && mkdir "$dir/out" || die "cannot create $dir/out"
	line=$(/usr/bin/time -f 'seconds=%e user_s=%U sys_s=%S rss_kb=%M' \
		"$build/idlescope" report -o "$dir/out" "$dir/in.rec" 2>&1 >/dev/null | tail -n 1)
	rm -f "$dir/in.rec"
	[[ $line == seconds=* ]] || die "idlescope report of $n records failed: $line"
	[ -n "$host" ] && echo "report records=$n $line" >>"$host"
	# shellcheck disable=SC2086 # the line is key=value words
	eval "${line// /; }"
	read -r cpu_s rate per_m <<<"$(awk -v u="$user_s" -v s="$sys_s" -v n="$n" \
		'BEGIN { c = u + s; printf "%.2f %.0f %.3f", c, n / c, c / n * 1e6 }')"
	base_per_m=${base_per_m:-$per_m}
	base_rss=${base_rss:-$rss_kb}
	printf '%-12s %9s %9s %14s %10.1f %13s %9.2f\n' "$n" "$seconds" "$cpu_s" "$rate" \
		"$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')" \
		"$per_m ($(awk -v a="$per_m" -v b="$base_per_m" 'BEGIN { printf "%.2fx", a / b }'))" \
		"$(awk -v a="$rss_kb" -v b="$base_rss" 'BEGIN { print a / b }')"
done
echo "replay: cpu_s/1M (x the first size's): flat means linear time; rss_x: peak RSS" \
	"against the first size's, flat means flat memory. Targets (issue 38): >= 10M records/cpu-s," \
	"<= 0.1 s CPU per 1M records."
