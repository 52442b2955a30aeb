// SPDX-License-Identifier: GPL-2.0
/*
 * live.c - `idlescope [OPTIONS]`, the live run's command line: its
 * options, their checks, then live/run.h's live_command() does the run.
 */
#include <argp.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/types.h>
#include "idlescope.h"
#include "cmd/cli.h"
#include "cmd/live.h"
#include "live/run.h"

static const char argp_doc[] =
"Measure cpuidle governors' idle duration predictions with BPF.\n"
"\n"
"EXAMPLES:\n"
"    idlescope -d 2                 # watch for 2 seconds, print the report\n"
"    idlescope -g menu2010rpd -o .  # run under menu2010rpd, write ./report.*\n"
"    idlescope -w periodic          # tag periods 'periodic' until retagged\n"
"    idlescope tag periodic2ms      # retag the running loader's periods\n"
"    idlescope tag                  # clear the tag\n"
"    idlescope -r run.rec           # also keep every raw record in run.rec\n"
"    idlescope dump run.rec         # the records as CSV\n"
"    idlescope report run.rec -o .  # the report again, off-line\n"
"    idlescope compare out/a out/b --fail-above 2  # exit 1 if b is worse by > 2 points\n"
"    idlescope report run.rec --format linux-pm    # the table for a cover letter\n"
"    idlescope extract run.rec -w pingpong -o t.trace  # worst stretch, for replay -f\n"
"\n"
"Each subcommand has its --help (idlescope report --help).\n"
"\v" CLI_EXIT_DOC;

enum {
	OPT_NO_PREDICT = 0x100,
	OPT_BTF,
	OPT_NO_SELECT_PROBES,
	OPT_SHARED_RINGBUF,
	OPT_EXIT_TIMING,
	OPT_CHECKSUM,
	OPT_POSITION,
};

static const struct argp_option opts[] = {
	{ "duration", 'd', "SECONDS", 0, "Run for SECONDS (default 10)", 0 },
	{ "interval", 'i', "SECONDS", 0, "Refresh every SECONDS (default 1)", 0 },
	{ "workload", 'w', "NAME", 0, "Tag periods with workload NAME until a workload retags", 0 },
	{ "governor", 'g', "NAME", 0, "Switch to governor NAME for the run, from a fresh start "
	  "(restored after)", 0 },
	{ "output", 'o', "DIR", 0, "Write report.txt and report.json into DIR", 0 },
	{ "json", 'j', NULL, 0, "Print the JSON report to stdout instead of the text one", 0 },
	{ "record", 'r', "FILE", 0, "Write every raw record to FILE (see idlescope dump/report)", 0 },
	{ "ringbuf", 'b', "BYTES", 0, "Size of each ring buffer, a power of two >= 4096", 0 },
	{ "no-predict", OPT_NO_PREDICT, NULL, 0, "Do not read the governors' predictions", 0 },
	{ "btf", OPT_BTF, "FILE", 0, "Kernel BTF to use instead of /sys/kernel/btf/vmlinux", 0 },
	{ "no-select-probes", OPT_NO_SELECT_PROBES, NULL, 0,
	  "Tracepoints only: no fexit probes on the governors' select", 0 },
	{ "shared-ringbuf", OPT_SHARED_RINGBUF, NULL, 0,
	  "One ring buffer for all CPUs instead of one per CPU", 0 },
	{ "exit-timing", OPT_EXIT_TIMING, NULL, 0, "Time the idle states' exit (records' "
	  "exit_ns); idlescope_states cannot be unloaded meanwhile", 0 },
	{ "mode", 'm', "MODE", 0, "What the guest does with each idle period: full (the "
	  "default: records aggregated, replayed and reported live), light (records only "
	  "written to -r FILE, for `idlescope report` elsewhere, when sent SIGUSR1, "
	  "when a buffer is half full and at the end; the dashboard from BPF "
	  "summaries), lean (no records: BPF summaries from cpu_idle and cpu_idle_miss "
	  "alone)", 0 },
	{ "checksum", OPT_CHECKSUM, NULL, 0, "Keep a checksum of the records sent, in "
	  "summaries.txt (tests)", 0 },
	{ "position", OPT_POSITION, "N", 0, "Where this governor's run stands among its boot's "
	  "runs, from 1 (kept in the record file: vm/guest/suite.sh turns the order)", 0 },
	{ "verbose", 'v', NULL, 0, "Print libbpf debug messages", 0 },
	{},
};

/*
 * The largest ring buffer: a BPF map's max_entries is 32 bits, and a ring
 * buffer's size a power of two.
 */
#define RINGBUF_MAX_BYTES	(1LL << 31)

static long parse_ringbuf_bytes(const char *arg)
{
	long long bytes = cli_parse_integer(arg, "ring buffer size", 4096, RINGBUF_MAX_BYTES);

	if (bytes & (bytes - 1))
		cli_usage_error("ring buffer size must be a power of two from 4096 to %lld, not '%s'",
				RINGBUF_MAX_BYTES, arg);
	return bytes;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct live_cmd_opts *o = state->input;

	switch (key) {
	case 'd':
		o->duration_s = cli_parse_integer(arg, "duration", 1, LONG_MAX);
		break;
	case 'i':
		o->interval_s = cli_parse_integer(arg, "interval", 1, LONG_MAX);
		break;
	case 'w':
		cli_check_workload_name(arg);
		o->workload = arg;
		break;
	case 'g':
		o->governor = arg;
		break;
	case 'o':
		o->outdir = arg;
		break;
	case 'j':
		o->json = true;
		break;
	case 'r':
		o->record_path = arg;
		break;
	case 'b':
		o->bpf.ringbuf_bytes = parse_ringbuf_bytes(arg);
		break;
	case OPT_NO_PREDICT:
		o->bpf.no_predict = true;
		break;
	case OPT_BTF:
		o->bpf.btf_path = arg;
		break;
	case OPT_NO_SELECT_PROBES:
		o->bpf.no_select_probes = true;
		break;
	case OPT_SHARED_RINGBUF:
		o->bpf.shared_ringbuf = true;
		break;
	case OPT_EXIT_TIMING:
		o->bpf.exit_timing = true;
		break;
	case 'm':
		if (live_mode_of(arg) < 0)
			cli_usage_error("mode must be full, light or lean, not '%s'", arg);
		o->bpf.mode = live_mode_of(arg);
		break;
	case OPT_CHECKSUM:
		o->bpf.sum_records = true;
		break;
	case OPT_POSITION:
		o->run_position = cli_parse_integer(arg, "position", 1, 1000);
		break;
	case 'v':
		o->verbose = true;
		break;
	case ARGP_KEY_ARG:
		cli_usage_error("unexpected argument '%s'", arg);
	case ARGP_KEY_END:
		if (o->bpf.mode == LIVE_LEAN && o->record_path)
			cli_usage_error("-r needs records, which a lean run (-m lean) has none of");
		if (o->bpf.mode != LIVE_FULL && o->json)
			cli_usage_error("-j is the full run's report: not with -m %s",
					live_mode_name(o->bpf.mode));
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int live_run_command(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
	};
	struct live_cmd_opts o = {
		.duration_s = 10,
		.interval_s = 1,
		.bpf.ringbuf_bytes = IDLESCOPE_RINGBUF_DEFAULT,
	};

	cli_parse(&argp, NULL, argc, argv, &o);
	return live_command(&o);
}
