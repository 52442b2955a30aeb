#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the commands of workloads/suite.txt call, and how a command is
# found: sourced by vm/guest/suite.sh (`make run`) and by the guest tests
# that run the suite's own commands (tests/guest/80-programs.sh).  Uses
# $suite_file (the suite file), and while a workload runs $w (its name),
# $g (the governor), $run_dir (where its output goes) and $figures_file
# (the figures file beside the record file).

# workload_command NAME: the command template of workload NAME (it runs
# for $d seconds), after its NAME, SUITES and EVENTS; fails for an unknown
# name.
workload_command() {
	awk -v name="$1" '$1 !~ /^#/ && $1 == name {
			sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, ""); print; found = 1; exit }
		END { exit !found }' "$suite_file"
}

# turn_order SEED LIST...: LIST turned to start from its (SEED mod N)-th
# word, N its length: over N seeds each word stands in each place once.
turn_order() {
	seed=$1
	shift
	k=$((seed % $#))
	i=0 head= tail=
	for x; do
		if [ $i -lt $k ]; then head="$head $x"; else tail="$tail $x"; fi
		i=$((i + 1))
	done
	echo $tail $head
}

# workload_events NAME: the EVENTS field of workload NAME.
workload_events() {
	awk -v name="$1" '$1 !~ /^#/ && $1 == name { print $3; exit }' "$suite_file"
}

# with_irqfeed COMMAND...: the host's irqfeed (make run starts it with
# -w /host/irqfeed.on) sends bytes to the second serial port only meanwhile.
with_irqfeed() {
	touch /host/irqfeed.on
	"$@"
	rc=$?
	rm -f /host/irqfeed.on
	return $rc
}

# null_blk NAME COMPLETION_NS: prints /dev/NAME, a null_blk device (made
# through configfs the first time) that completes every request from an
# hrtimer COMPLETION_NS after it is issued, on the issuing CPU: I/O whose
# latency the guest's clock times (docs/devices.md).
null_blk() {
	config=/sys/kernel/config/nullb
	[ -d $config ] || mount -t configfs configfs /sys/kernel/config 2>/dev/null
	if [ ! -d $config/$1 ]; then
		mkdir $config/$1 2>/dev/null &&
			echo 64 >$config/$1/size && echo 2 >$config/$1/irqmode &&
			echo $2 >$config/$1/completion_nsec && echo 1 >$config/$1/power ||
			{ echo "suite: cannot make null_blk device $1 (CONFIG_BLK_DEV_NULL_BLK, configfs)" >&2
			  return 1; }
	fi
	echo /dev/$1
}

# on_both_cpus COMMAND...: one instance pinned to each CPU (the second with
# another seed), so each CPU sees its own train of periods.
on_both_cpus() {
	"$@" -c 0 &
	first=$!
	"$@" -c 1 -s 2
	rc=$?
	wait $first || rc=1
	return $rc
}

# program PARSER COMMAND...: COMMAND (a Debian program, or one of ours) is
# workload $w: its idle periods tagged $w by the suite (`idlescope tag`),
# its output kept in $run_dir/$w.out and its own figures, which
# vm/guest/figures.sh PARSER reads from that output, appended to the
# record file's figures file as "GOVERNOR WORKLOAD FIGURE VALUE UNIT".
# Fails when the command fails or its output lacks a figure.
program() {
	parser=$1
	shift
	idlescope tag "$w" || return 1
	"$@" >"$run_dir/$w.out" 2>&1
	rc=$?
	idlescope tag
	cat "$run_dir/$w.out"
	if [ $rc != 0 ]; then
		echo "suite: $w: '$*' exited with status $rc" >&2
		return 1
	fi
	figures=$(sh /usr/share/idlescope/figures.sh "$parser" "$run_dir/$w.out") || return 1
	add_figures "$figures"
}

# add_figures LINES: "FIGURE VALUE UNIT" lines of workload $w under $g,
# into the figures file (its header first); nothing for no lines.
add_figures() {
	[ -n "$1" ] || return 0
	[ -s "$figures_file" ] || echo "# idlescope figures 1" >"$figures_file"
	echo "$1" | awk -v g="$g" -v w="$w" '{ print g, w, $0 }' >>"$figures_file"
}

# wait_for_port PROTO PORT: until a socket listens on PORT (udp: bound;
# tcp: in state LISTEN, 0A), at most 10 s.
wait_for_port() {
	hex=$(printf ':%04X ' "$2")
	[ "$1" = tcp ] && hex="$hex[0-9A-F:]* 0A "
	tries=0
	until grep -q "$hex" /proc/net/$1; do
		tries=$((tries + 1))
		[ $tries -le 100 ] || { echo "suite: $w: nothing listens on $1 port $2" >&2; return 1; }
		usleep 100000
	done
}

# with_server PROTO PORT SERVER... -- COMMAND...: SERVER in the background
# until it listens on PORT, then COMMAND, then SERVER stopped.  The
# server's start and stop stay outside the tagged window of COMMAND.
with_server() {
	proto=$1
	port=$2
	shift 2
	server=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		server="$server '$1'"
		shift
	done
	shift
	eval "$server" >"$run_dir/$w.server.out" 2>&1 &
	server_pid=$!
	wait_for_port "$proto" "$port" || { kill $server_pid; return 1; }
	"$@"
	rc=$?
	kill $server_pid
	wait $server_pid 2>/dev/null
	return $rc
}

