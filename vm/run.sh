#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the idlescope kernel with an initramfs under QEMU, run one command in
# the guest, and exit with that command's exit status (like selftests/bpf
# vmtest.sh).  The guest's /host is a 9p share of the host directory -s; the
# guest writes reports there and its exit status to /host/status.
#
# The status is pre-set to "missing": only a guest that ran the command to its
# end overwrites it.  Distinct statuses say what else happened:
#   124  timeout      the guest did not end within -t seconds, or wrote
#                     nothing to its console or share for IDLESCOPE_STALL_S
#   125  panic        the kernel panicked (the panic line is printed)
#   126  no status    the guest ended without reporting (init failed?)
#   127  qemu         QEMU is missing or failed to start

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kernel=$top/build/linux/arch/x86/boot/bzImage
initrd=$top/build/initramfs.cpio.gz
share=
timeout_s=600
# A running boot prints its dashboard every interval of guest time, or
# writes its output to the share; a guest silent this long, in both, no
# longer advances.
stall_s=${IDLESCOPE_STALL_S:-600}
log=
append_extra=
qemu_extra=()
QEMU=${QEMU:-qemu-system-x86_64}

usage() {
	cat <<USAGE
usage: vm/run.sh [options] -- COMMAND...
  -k FILE    kernel bzImage (default build/linux/arch/x86/boot/bzImage)
  -i FILE    initramfs (default build/initramfs.cpio.gz)
  -s DIR     host directory shared as the guest's /host (default: a new temp dir)
  -t SECS    hard timeout (default $timeout_s)
  IDLESCOPE_STALL_S=SECS (default $stall_s): a boot that writes nothing to
  its console or its share that long is stopped as stalled (status 124)
  -l FILE    console log (default DIR/console.log)
  -a ARGS    extra kernel command line
  -q ARG     extra QEMU argument (repeatable)
  CLOCK=fixed (default), virtual, virtual-sleep or host in the environment:
  the guest's clock.
    fixed: single-threaded TCG with -icount shift=0,sleep=off: every
      instruction is 1 ns of guest time, whatever the host or the run
      before did, and guest time jumps over idle time to the next timer,
      so host load does not leak into idle periods; the second CPU comes
      online after boot (maxcpus=1), which a fixed shift needs.
    virtual: the same with QEMU's adaptive shift (shift=auto): the guest's
      speed follows the host's load, and a loaded host can stall both
      CPUs for up to seconds (docs/clock.md).
    virtual-sleep: virtual with sleep=on: while every vCPU idles, guest
      time follows host time to the next timer instead of jumping there,
      so an event the host times (a disk read, a byte from irqfeed) can
      end an idle period early; for comparison (docs/devices.md).
    host: multi-threaded TCG on the host's clock (for comparison only).
  The mode and its QEMU arguments reach the guest as idlescope.clock= and
  idlescope.clock_args= (base64) on the kernel command line.
  ACCEL=kvm uses KVM instead of TCG (clock: host); QEMU=PATH another
  qemu-system-x86_64.  IDLESCOPE_PROGRESS=FILE[:FILE...]: a line there when
  the boot starts and ends, for scripts/progress.py; IDLESCOPE_BOOT_NAME
  names the boot.
USAGE
	exit 2
}

die() { echo "vm: error: $1" >&2; exit "${2:-1}"; }

while getopts "k:i:s:t:l:a:q:h" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	s) share=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	l) log=$OPTARG ;;
	a) append_extra=$OPTARG ;;
	q) qemu_extra+=("$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || usage
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || die "-t wants a positive number of seconds, not '$timeout_s'" 2
[[ $stall_s =~ ^[1-9][0-9]*$ ]] ||
	die "IDLESCOPE_STALL_S wants a positive number of seconds, not '$stall_s'" 2

# The accelerator and clock arguments, as one list: what the record file
# keeps.  Checked first: a bad CLOCK is an error even without a kernel.
clock=${CLOCK:-fixed}
case ${ACCEL:-tcg}/$clock in
kvm/*) clock=host; clock_args=(-accel kvm -cpu host) ;;
tcg/virtual) clock_args=(-accel tcg,thread=single -icount shift=auto,sleep=off) ;;
tcg/virtual-sleep) clock_args=(-accel tcg,thread=single -icount shift=auto,sleep=on) ;;
tcg/fixed) clock_args=(-accel tcg,thread=single -icount shift=0,sleep=off)
	# QEMU 7.2 stalls the second vCPU's boot under a fixed shift; brought
	# online later by vm/init, it runs (docs/clock.md).
	append_extra="maxcpus=1 $append_extra" ;;
tcg/host) clock_args=(-accel tcg,thread=multi) ;;
tcg/*) die "CLOCK must be virtual, virtual-sleep, fixed or host, not '$clock'" 2 ;;
*) die "ACCEL must be tcg or kvm, not '$ACCEL'" 2 ;;
esac

qemu=$(command -v "$QEMU") || die "$QEMU missing (apt-get install qemu-system-x86)" 127
[ -r "$kernel" ] || die "kernel $kernel missing (make kernel)"
[ -r "$initrd" ] || die "initramfs $initrd missing (make initramfs)"
if [ -z "$share" ]; then
	share=$(mktemp -d /tmp/idlescope-vm.XXXXXX)
fi
mkdir -p "$share" || die "cannot create share $share"
share=$(cd "$share" && pwd)
log=${log:-$share/console.log}
rm -f "$share/status"

# IDLESCOPE_PROGRESS=FILE[:FILE...]: a line in each when the boot starts
# and one when it ends (scripts/progress.py shows them; one watching
# another's command adds its file), tab-separated:
#   start TIME ID NAME CONSOLE_LOG   and   end TIME ID STATUS REASON
# TIME in seconds since the epoch, ID this runner's host:pid, NAME
# IDLESCOPE_BOOT_NAME (default: the share's name).
boot_id=$(hostname):$$
progress() {
	[ -n "${IDLESCOPE_PROGRESS:-}" ] || return 0
	local line f
	line=$(IFS=$'\t'; echo "$*")
	local IFS=:
	for f in $IDLESCOPE_PROGRESS; do
		echo "$line" >>"$f"
	done
}
# finish STATUS [REASON]: the end line, then exit STATUS, with REASON as
# the error line.
finish() {
	progress end "$(date +%s)" "$boot_id" "$1" "${2:-}"
	[ -z "${2:-}" ] || die "$2" "$1"
	exit "$1"
}

cmd_b64=$(printf '%s' "$*" | base64 -w0)
clock_b64=$(printf '%s' "${clock_args[*]}" | base64 -w0)
append="console=ttyS0 panic=-1 oops=panic loglevel=4 $append_extra"
append+=" idlescope.clock=$clock idlescope.clock_args=$clock_b64 idlescope.cmd=$cmd_b64"
[ ${#append} -lt 2000 ] || die "command too long for the kernel command line (${#append} bytes)" 2

# QEMU's HPET, counting the guest's clock, with comparators beyond the
# kernel's two (clock events, RTC emulation) for /dev/hpet: four in all,
# each able to reach IOAPIC pins 16-23 (the pc machine offers only IRQ 2,
# which the hpet driver may not take).  The low byte must stay non-zero, or
# QEMU replaces the mask with its default (docs/devices.md).
hpet_args=(-global hpet.timers=4 -global hpet.hpet-intcap=0xff0004)

# stall_registers FILE: where each vCPU is, from QEMU's monitor (its
# socket in the scratch directory), into FILE: what a stall report needs,
# since the guest can no longer say it (docs/clock.md, "A boot that
# stalls").
stall_registers() {
	python3 - "$scratch/monitor.sock" "$1" <<'EOF' 2>/dev/null
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
s.connect(sys.argv[1])
out = b""
for cmd in (b"info registers -a\n", b"info cpus\n"):
    s.sendall(cmd)
    end = time.time() + 2
    while time.time() < end:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        out += chunk
open(sys.argv[2], "wb").write(out)
EOF
}

# last_write: when the guest last showed it runs, in seconds since the
# epoch: its console log, or a file it wrote in the share (the test boots
# write their suites' output there, not to the console).
last_write() {
	{
		stat -c %Y "$log" 2>/dev/null || echo "$EPOCHSECONDS"
		find "$share" -type f -printf '%T@\n' 2>/dev/null
	} | sort -n | tail -n 1 | cut -d. -f1
}

# watch_console PIDFILE MARK: stop QEMU (its -pidfile) once the console
# log has not grown for stall_s seconds, the silence in MARK.  Host time
# from bash itself, not date(1).
watch_console() {
	local poll_s=$((stall_s < 20 ? 1 : 10)) silent_s pid

	while sleep "$poll_s"; do
		pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] || continue
		kill -0 "$pid" 2>/dev/null || return 0
		silent_s=$((EPOCHSECONDS - $(last_write)))
		if [ "$silent_s" -ge "$stall_s" ]; then
			echo "$silent_s" >"$2"
			stall_registers "$share/stall-registers.txt"
			kill "$pid"
			return 0
		fi
	done
}
scratch=$(mktemp -d /tmp/idlescope-run.XXXXXX) || die "cannot create a scratch directory"
trap 'rm -rf "$scratch"' EXIT
: >"$log"
watch_console "$scratch/qemu.pid" "$scratch/stalled" &
watcher=$!

progress start "$(date +%s)" "$boot_id" "${IDLESCOPE_BOOT_NAME:-$(basename "$share")}" "$log"
timeout --foreground -k 5 "$timeout_s" "$qemu" "${clock_args[@]}" "${hpet_args[@]}" \
	-smp 2 -m 512M -nographic -no-reboot -pidfile "$scratch/qemu.pid" \
	-monitor "unix:$scratch/monitor.sock,server=on,wait=off" \
	-kernel "$kernel" -initrd "$initrd" -append "$append" -net none \
	-virtfs "local,path=$share,mount_tag=host,security_model=none,id=host" \
	"${qemu_extra[@]}" </dev/null 2>&1 | tee "$log"
rcs=("${PIPESTATUS[@]}")
qemu_rc=${rcs[0]}
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null

if [ -r "$share/status" ]; then
	status=$(cat "$share/status")
	[[ $status =~ ^[0-9]+$ ]] || finish 126 "guest wrote a malformed status '$status'"
	finish "$status"
fi
if [ -s "$scratch/stalled" ]; then
	finish 124 "stalled: nothing on the console or in the share for $(cat "$scratch/stalled") s, the guest stopped (log: $log, vCPUs: $share/stall-registers.txt)"
fi
if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	finish 124 "timeout: the guest did not finish within ${timeout_s}s (log: $log)"
fi
panic=$(grep -m1 -a 'Kernel panic' "$log" | tr -d '\r')
[ -z "$panic" ] || finish 125 "kernel panic: ${panic#*Kernel panic - } (log: $log)"
[ "$qemu_rc" = 0 ] || finish 127 "QEMU failed with status $qemu_rc (log: $log)"
finish 126 "the guest ended without reporting a status (log: $log)"
