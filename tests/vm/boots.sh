#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run's boots (scripts/run-boots.sh): the same two boot jobs run side
# by side and one after the other give the same headline within its
# intervals, and GNU parallel's --sshloginfile path runs them on two
# "machines" that are both this one, through a private sshd.
#
# The sshd: /usr/sbin/sshd from Debian's openssh-server, installed here
# when missing (as root; a policy-rc.d that exits 101 keeps the package's
# own service from starting, and is removed if this script made it), run
# as a second daemon on a free port with its own host key and config, and
# a key of its own for root; stopped by its pid at the end.
#
# Two QEMUs at a time (tests/run.sh starts it when two are free):
# test-qemus: 2

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/test/vm-boots
plan 7
rm -rf "$out"
mkdir -p "$out"
sshd_pid=
trap '[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null' EXIT

# Two seeds of menu on two short workloads, 2 s each.
boots() {
	"$top/scripts/run-boots.sh" "$1" 2 "$2" 2 menu "periodic1ms pingpong" >"$1.log" 2>&1 &&
		"$top/build/idlescope" report "$1"/seed-*/*/*/run.rec -o "$1" >/dev/null
}

mkdir -p "$out/side" "$out/serial"
boots "$out/side" 2
rc=$?
check -m "status $rc, log: $out/side.log" "boots: two jobs side by side end well" [ $rc = 0 ]
boots "$out/serial" 1
rc=$?
check -m "status $rc, log: $out/serial.log" "boots: the same two one after the other end well" \
	[ $rc = 0 ]
check -m "$(cut -f3,4 "$out/side/jobs.log" | tr '\n' ' ')" \
	"boots: with JOBS=2 the two jobs overlap in time" python3 -c '
import sys
rows = [l.split("\t") for l in open(sys.argv[1]) if l[0].isdigit()]
(s1, d1), (s2, d2) = [(float(r[2]), float(r[3])) for r in rows]
sys.exit(not (s1 < s2 + d2 and s2 < s1 + d1))' "$out/side/jobs.log"
# Every headline share of one within the combined interval of both.
check -m "see $out/side/report.json, $out/serial/report.json" \
	"boots: side by side and one after the other agree within the intervals" python3 -c '
import json, sys
a, b = (json.load(open(p))["headline"] for p in sys.argv[1:])
cells = lambda h: {(c["workload"], c["governor"], m): c[m] for c in h if c["workload"]
                   for m in ("within_2x", "ideal_hit", "too_deep", "too_shallow")}
a, b = cells(a), cells(b)
common = [k for k in a if k in b and a[k]["lo"] is not None and b[k]["lo"] is not None]
half = lambda s: (s["hi"] - s["lo"]) / 2
inside = sum(abs(a[k]["pct"] - b[k]["pct"]) <= (half(a[k]) ** 2 + half(b[k]) ** 2) ** 0.5
             for k in common)
print(f"{inside} of {len(common)} shares agree")
sys.exit(not (common and inside == len(common)))' "$out/side/report.json" "$out/serial/report.json"

# The sshd and its two logins.
if [ ! -x /usr/sbin/sshd ] && [ "$(id -u)" = 0 ]; then
	made_policy=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d
		made_policy=1
	fi
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends openssh-server; } >"$out/apt.log" 2>&1
	[ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d
fi
ssh_dir=$out/ssh
mkdir -p "$ssh_dir" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key" &&
	ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/client_key" &&
	cp "$ssh_dir/client_key.pub" "$ssh_dir/authorized_keys"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$ssh_dir/sshd_config" <<CONFIG
Port $port
ListenAddress 127.0.0.1
HostKey $ssh_dir/host_key
AuthorizedKeysFile $ssh_dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $ssh_dir/sshd.pid
CONFIG
/usr/sbin/sshd -D -e -f "$ssh_dir/sshd_config" 2>"$ssh_dir/sshd.log" &
sshd_pid=$!
ssh_cmd="ssh -p $port -i $ssh_dir/client_key -o StrictHostKeyChecking=no"
ssh_cmd+=" -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes"
for try in $(seq 50); do
	$ssh_cmd 127.0.0.1 true 2>/dev/null && break
	sleep 0.2
done
check -m "sshd log: $(tail -2 "$ssh_dir/sshd.log" | tr '\n' ' ')" \
	"boots: a private sshd on localhost takes the key" $ssh_cmd 127.0.0.1 true

# Two "hosts", both this machine, one job slot each.
printf '1/%s 127.0.0.1\n1/%s localhost\n' "$ssh_cmd" "$ssh_cmd" >"$out/sshlogins"
mkdir -p "$out/ssh-run"
SSHLOGINFILE=$out/sshlogins boots "$out/ssh-run" 2
rc=$?
check -m "status $rc, log: $out/ssh-run.log" \
	"boots: --sshloginfile runs the jobs on both hosts and the report merges them" \
	sh -c "[ $rc = 0 ] && [ \$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))[\"boots\"]))' '$out/ssh-run/report.json') = 2 ]"
check -m "$(cut -f2 "$out/ssh-run/jobs.log" | tr '\n' ' ')" \
	"boots: parallel names both logins in its job log" python3 -c '
import sys
hosts = {l.split("\t")[1] for l in open(sys.argv[1]) if l[0].isdigit()}
sys.exit(not (len(hosts) == 2 and all(h.endswith(("127.0.0.1", "localhost")) for h in hosts)))' \
	"$out/ssh-run/jobs.log"
