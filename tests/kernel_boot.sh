# SPDX-License-Identifier: GPL-2.0
# Sourced by the suites that boot a kernel other than our 6.1 build once
# (tests/vm/debian-6.12.sh, tests/kernels/*.sh) and run
# many checks on what that one boot left: the BPF object and the loader
# built for our 6.1 kernel must load there unchanged (CO-RE), attach, and
# record idle periods on every CPU, with idlescope_states built for that
# kernel holding the cpuidle slot.
#
# One boot per kernel: the guest watches each governor of $boot_governors
# in turn (one loader session each, a 1 ms sleeper per CPU for 3 s) and
# leaves each session's files in SHARE/GOVERNOR/.  The checks are the same
# for every kernel, named "PREFIX: ..." and "PREFIX GOVERNOR: ...", and a
# suite adds its own after them.  Hooks, for checks to come (the teo and
# 6.12 menu models' agreement with the kernel): a governor added to
# $boot_governors gets its session and the generic checks; a function
# checks_GOVERNOR, when the suite defines one, runs after them with the
# session's directory as $1 (its report in $1/report/, its records in
# $1/run.rec, their CSV in $1/run.csv).
#
#   . "$top/tests/kernel_boot.sh"
#   boot_governors="menu"
#   plan $((kernel_boot_nr_checks + ...))
#   kernel_boot PREFIX SHARE RELEASE MODE_PATTERN [vm/run.sh option...]
#
# RELEASE is what uname -r must say; MODE_PATTERN (grep -E) what the
# loader's mode line must match after "idlescope: mode: ".

boot_governors=${boot_governors:-menu}

# Checks kernel_boot runs: 3 for the boot, 9 per governor (2 CPUs).
kernel_boot_nr_checks() {
	echo $((3 + 9 * $(echo $boot_governors | wc -w)))
}

# The guest half: one loader session per governor, then the boot ends.
kernel_boot_guest_cmd() {
	cat <<GUEST
. /usr/share/idlescope/lib.sh
cpuidle=/sys/devices/system/cpu/cpuidle
uname -r >/host/release.txt
cat \$cpuidle/current_driver >/host/driver-before.txt
insmod /lib/modules/idlescope_states.ko
cat \$cpuidle/current_driver >/host/driver.txt
for g in $boot_governors; do
	mkdir -p /host/\$g/report
	idlescope -g \$g -d 5 -i 5 -w periodic1ms -o /host/\$g/report -r /host/\$g/run.rec \
		>/host/\$g/loader.txt 2>&1 &
	loader=\$!
	wait_for_loader
	periodic -d 3 -p 1000 -c 0 -t periodic1ms >/dev/null &
	periodic -d 3 -p 1000 -c 1 -s 2 -t periodic1ms >/dev/null
	wait \$loader
	echo \$? >/host/\$g/status
done
GUEST
}

# loader_counts LOADER_OUTPUT: the loader's last table of counters, one
# line per CPU: CPU ENTRIES EXITS RECORDS DROPPED.
loader_counts() {
	awk '$1 == "CPU" && $2 == "ENTRIES" { n = 0; next }
		$1 ~ /^[0-9]+$/ && NF == 5 { row[n++] = $0 }
		END { for (i = 0; i < n; i++) print row[i] }' "$1" 2>/dev/null
}

# flags_set CSV BIT: per CPU, "CPU RECORDS WITH_BIT" of an idlescope dump.
flags_set() {
	csv_awk -v bit="$2" '
		function hex(s,   i, n, c) {
			n = 0
			s = tolower(s)
			sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++) {
				c = index("0123456789abcdef", substr(s, i, 1)) - 1
				n = n * 16 + c
			}
			return n
		}
		{ n[$col["cpu"]]++; if (int(hex($col["flags"]) / bit) % 2) set[$col["cpu"]]++ }
		END { for (c in n) print c, n[c], set[c] + 0 }' "$1" | sort -n
}

# kernel_boot_governor PREFIX DIR GOVERNOR MODE_PATTERN: the generic checks
# of one loader session.
kernel_boot_governor() {
	local prefix=$1 dir=$2 g=$3 pattern=$4 status mode probes counts nr_cpus
	local cpu entries exits records dropped schema rc
	status=$(cat "$dir/status" 2>/dev/null)
	check -m "got '${status:-none}', log: $dir/loader.txt" \
		"$prefix $g: the loader ends with status 0" [ "$status" = 0 ]
	mode=$(grep -m1 '^idlescope: mode: ' "$dir/loader.txt" 2>/dev/null)
	check -m "${mode:-no mode line}" "$prefix $g: the loader's mode says what this kernel has" \
		grep -qE "^idlescope: mode: $pattern" <<<"$mode"
	probes=$(grep -m1 '^selects probed: ' "$dir/loader.txt" 2>/dev/null)
	check -m "$(grep -m1 -E '^idlescope: (select probes|tracepoints only)' "$dir/loader.txt")" \
		"$prefix $g: the select probes are on and see selects" \
		[ "$(echo "$probes" | sed -n 's/^selects probed: \([0-9]*\),.*/\1/p')" -gt 0 ]

	counts=$(loader_counts "$dir/loader.txt")
	nr_cpus=$(echo "$counts" | grep -c .)
	check -m "$nr_cpus rows" "$prefix $g: counters for both CPUs" [ "$nr_cpus" = 2 ]
	# The sleeper alone makes about 3000 periods per CPU; 1000 leaves room.
	while read -r cpu entries exits records dropped; do
		check -m "$records records, $entries entries, $dropped dropped" \
			"$prefix $g: cpu$cpu records idle periods, drops none" \
			[ "$records" -ge 1000 -a "$dropped" = 0 ]
	done < <(grep . <<<"$counts")

	# Every CPU's periods went through its select probe (the flag).
	"$top/build/idlescope" dump "$dir/run.rec" >"$dir/run.csv" 2>"$dir/dump.err"
	while read -r cpu records probed; do
		check -m "$probed of $records records" \
			"$prefix $g: cpu$cpu's periods carry what the select probe saw" \
			[ "$records" -gt 0 -a $((probed * 100)) -ge $((records * 99)) ]
	done < <(flags_set "$dir/run.csv" 512 | head -n 2)
	schema=$(python3 "$top/tests/check_report_json.py" "$dir/report/report.json" 2>&1)
	rc=$?
	check -m "$(echo "$schema" | head -n 1)" "$prefix $g: report.json matches the schema" [ $rc = 0 ]
}

# kernel_boot_basics SHARE STATUS RELEASE NAME... : three checks of a boot
# with these names: vm/run.sh's STATUS is 0, the guest's uname -r (in
# SHARE/release.txt) is RELEASE, and idlescope_states took the cpuidle
# driver slot (SHARE/driver.txt; SHARE/driver-before.txt what held it).
kernel_boot_basics() {
	local share=$1 rc=$2 release=$3 got
	check -m "got $rc, log: $share/console.log" "$4" [ "$rc" = 0 ]
	got=$(cat "$share/release.txt" 2>/dev/null)
	check -m "$got" "$5" [ "$got" = "$release" ]
	check -m "before it: $(cat "$share/driver-before.txt" 2>/dev/null)" "$6" \
		[ "$(cat "$share/driver.txt" 2>/dev/null)" = idlescope_states ]
}

# menu_rebuilt_checks REPORT NAME_REBUILT NAME_AGREES [MODEL]: two checks,
# with these names, of a report on a kernel that stores no prediction:
# menu's is rebuilt from its data (loader/replay/reconstruct.c) on 1000
# periods or more, and the menu model of that kernel (MODEL, default menu:
# 6.1's), replayed on the same periods, agrees with the rebuilt prediction
# on >= 99%.
menu_rebuilt_checks() {
	local report=$1 name_rebuilt=$2 name_agrees=$3 model=${4:-menu} recon
	recon=$(sed -n "s/.*reconstructed from menu's data on \([0-9]*\) periods (\([0-9]*\) left.*/\1 \2/p" \
		"$report" 2>/dev/null)
	set -- ${recon:-0 0}
	check -m "$1 periods, $2 left unknown" "$name_rebuilt" [ "$1" -ge 1000 ]
	set -- $(agreement "$report" "$model")
	check -m "$1 of $2" "$name_agrees" agrees_99 "$1" "$2"
}

# kernel_boot PREFIX SHARE RELEASE MODE_PATTERN [vm/run.sh option...]
kernel_boot() {
	local prefix=$1 share=$2 release=$3 pattern=$4 g
	shift 4
	"$top/vm/run.sh" "$@" -s "$share" -t 900 -- "$(kernel_boot_guest_cmd)" \
		>"$share/run.log" 2>&1
	kernel_boot_basics "$share" $? "$release" "$prefix: the boot ends with status 0" \
		"$prefix: the guest runs the kernel under test" \
		"$prefix: idlescope_states holds the cpuidle slot"
	for g in $boot_governors; do
		kernel_boot_governor "$prefix" "$share/$g" "$g" "$pattern"
		if declare -F "checks_$g" >/dev/null; then
			"checks_$g" "$share/$g"
		fi
	done
}
