#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A boot whose guest stops advancing (vm/run.sh): QEMU replaced by a script
# that writes its -pidfile, prints two console lines and then nothing while
# it keeps running, as a stalled guest does.  With IDLESCOPE_STALL_S=2 the
# runner stops it within seconds, not at the hard timeout (-t 600), and
# says why with status 124; the same script ending after its lines (no
# status file, its exit 0) is not called stalled, nor is one that stays
# silent on the console for 6 s but writes to its share every second, as
# the test boots' suites do (their output goes to the share).

. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan 5

cat >"$tmp/fake-qemu" <<'FAKE'
#!/bin/bash
pidfile=$(printf '%s\n' "$@" | grep -A1 -x -- -pidfile | tail -n 1)
echo $$ >"$pidfile"
printf 'Linux version 6.1 (noise)\r\nprogress: 1/2 at 7 s: governor menu, workload idle\r\n'
[ -n "${FAKE_QEMU_ENDS:-}" ] && exit 0
if [ -n "${FAKE_QEMU_WRITES:-}" ]; then
	share=$(printf '%s\n' "$@" | sed -n 's/^local,path=\([^,]*\),.*/\1/p')
	for i in 1 2 3 4 5 6; do sleep 1; echo "$i" >>"$share/out"; done
	echo 0 >"$share/status"
	exit 0
fi
exec sleep 120
FAKE
chmod +x "$tmp/fake-qemu"
touch "$tmp/bzImage" "$tmp/initrd"

start=$EPOCHSECONDS
QEMU=$tmp/fake-qemu IDLESCOPE_STALL_S=2 "$top/vm/run.sh" -k "$tmp/bzImage" -i "$tmp/initrd" \
	-s "$tmp/share" -t 600 -- true >"$tmp/out" 2>"$tmp/err"
rc=$?
check "stall: a silent boot ends with status 124" test "$rc" = 124
check "stall: it is stopped after its silence, not at -t" test $((EPOCHSECONDS - start)) -lt 60
check "stall: the error line names the silence and the console log" \
	grep -q "^vm: error: stalled: nothing on the console or in the share for [0-9]* s, the guest stopped (log: $tmp/share/console.log, vCPUs: $tmp/share/stall-registers.txt)$" "$tmp/err"
QEMU=$tmp/fake-qemu FAKE_QEMU_ENDS=1 IDLESCOPE_STALL_S=2 "$top/vm/run.sh" -k "$tmp/bzImage" \
	-i "$tmp/initrd" -s "$tmp/share2" -t 600 -- true >/dev/null 2>"$tmp/err2"
check "stall: a boot that ends is not called stalled" \
	grep -q "the guest ended without reporting a status" "$tmp/err2"
QEMU=$tmp/fake-qemu FAKE_QEMU_WRITES=1 IDLESCOPE_STALL_S=3 "$top/vm/run.sh" -k "$tmp/bzImage" \
	-i "$tmp/initrd" -s "$tmp/share3" -t 600 -- true >/dev/null 2>"$tmp/err3"
rc=$?
check -m "status $rc: $(cat "$tmp/err3")" \
	"stall: a guest silent on the console but writing to its share runs to its end" \
	[ "$rc" = 0 ]
