#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The progress of boots (issue 42): scripts/progress.py over three boots
# of vm/run.sh, one after the other, QEMU replaced by a script that prints
# the guest's step lines (tests/lib.sh's progress_step format) and reports
# a status, or none for the third boot; `date` replaced by a clock that
# moves 5 minutes a call, so the times in the lines are known.  Not on a
# terminal, progress.py prints one line per event: a boot started, each
# step with its guest time, a boot done with the ETA from the boots done,
# a failed boot with vm/run.sh's reason and its console log, and the end.
# Then make run's boot jobs name the events file (scripts/run-boots.sh).

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 7

mkdir -p "$tmp/bin"
echo 1000000000 >"$tmp/clock"
cat >"$tmp/bin/date" <<EOF
#!/bin/sh
t=\$(cat "$tmp/clock"); echo \$((t + 300)) >"$tmp/clock"; echo \$t
EOF
# The guest: two steps, then a status unless the share is called "three".
cat >"$tmp/bin/fake-qemu" <<'EOF'
#!/bin/bash
share=$(printf '%s\n' "$@" | sed -n 's/^local,path=\([^,]*\),.*/\1/p')
printf 'Linux version 6.1 (noise)\r\n'
printf 'progress: 1/2 at 7 s: governor menu, workload idle\r\n'
printf 'idlescope: a line of the dashboard\r\n'
printf 'progress: 2/2 at 12 s: governor menu, workload periodic1ms\r\n'
[ "${share##*/}" = three ] || echo 0 >"$share/status"
EOF
chmod +x "$tmp/bin/date" "$tmp/bin/fake-qemu"
touch "$tmp/bzImage" "$tmp/initrd"
cat >"$tmp/driver.sh" <<EOF
#!/bin/bash
for b in one two three; do
	IDLESCOPE_BOOT_NAME=\$b "$top/vm/run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" -s "$tmp/\$b" \
		-- true >/dev/null
done
echo "driver: three boots run"
exit 3
EOF
PATH="$tmp/bin:$PATH" QEMU=fake-qemu "$top/scripts/progress.py" --title sim --total 3 \
	--jobs 1 --events "$tmp/events" -- bash "$tmp/driver.sh" >"$tmp/out" 2>"$tmp/err"
rc=$?

check -m "exit $rc" "progress: exits with the command's status, its stdout relayed" \
	[ $rc = 3 -a "$(grep -c '^driver: three boots run$' "$tmp/out")" = 1 ]
check -m "$(cat "$tmp/err")" "progress: relays the command's stderr (vm/run.sh's error line)" \
	[ "$(cat "$tmp/err")" = "vm: error: the guest ended without reporting a status (log: $tmp/three/console.log)" ]
expected() {
	local b
	for b in one two; do
		echo "sim: $b: started; console: $tmp/$b/console.log"
		echo "sim: $b: 1/2 governor menu, workload idle (guest 7 s)"
		echo "sim: $b: 2/2 governor menu, workload periodic1ms (guest 12 s)"
		[ $b = one ] && echo "sim: one: done in 5m 00s; 1 of 3 boots done, ETA 10m 00s from 1 boot done"
		[ $b = two ] && echo "sim: two: done in 5m 00s; 2 of 3 boots done, ETA 5m 00s from 2 boots done"
	done
	echo "sim: three: started; console: $tmp/three/console.log"
	echo "sim: three: 1/2 governor menu, workload idle (guest 7 s)"
	echo "sim: three: 2/2 governor menu, workload periodic1ms (guest 12 s)"
	echo "sim: three: FAILED after 5m 00s, status 126: the guest ended without reporting a status" \
		"(log: $tmp/three/console.log)"
	echo "sim: 3 boots in 25m 00s, 1 failed"
}
# The command's own lines come when it prints them, between the others.
diff <(expected) <(grep -v '^driver: ' "$tmp/out") >"$tmp/diff"
check -m "$(head -n 4 "$tmp/diff" | tr '\n' ' ')" \
	"progress: a line per start, step, end and failure, with ETA and console log, and a last line" \
	[ ! -s "$tmp/diff" ]
got=$(awk -F'\t' '{ print $1, NF, ($1 == "start" ? $4 : $4 " " ($5 != "")) }' "$tmp/events" |
	tr '\n' ';')
check -m "$got" "progress: vm/run.sh writes a start and an end line per boot, with status and reason" \
	[ "$got" = "start 5 one;end 5 0 0;start 5 two;end 5 0 0;start 5 three;end 5 126 1;" ]

# Without a command: usage, exit 2.
"$top/scripts/progress.py" >/dev/null 2>&1
check "progress: no command is a usage error" [ $? = 2 ]

# make run's jobs: parallel (a stub that prints the job list and its
# command line) gets the events file on each job's command line.
printf '#!/bin/sh\necho "$@" >"%s/parallel.args"\ncat >/dev/null\n' "$tmp" >"$tmp/bin/parallel"
chmod +x "$tmp/bin/parallel"
env -u GOVERNORS_PER_BOOT -u FIRST_SEED -u SSHLOGINFILE PATH="$tmp/bin:$PATH" \
	"$top/scripts/run-boots.sh" "$tmp/run" 2 1 5 "menu teo" idle >"$tmp/run.out" 2>&1
check -m "$(cat "$tmp/parallel.args")" "progress: make run's boot jobs write their events to OUT_DIR/boots.log" \
	grep -q "IDLESCOPE_PROGRESS=$tmp/run/boots.log scripts/boot-job.sh" "$tmp/parallel.args"
check -m "$(cat "$tmp/run.out")" "progress: a run whose boots never started prints nothing more" \
	[ ! -s "$tmp/run.out" ]
