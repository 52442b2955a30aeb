// SPDX-License-Identifier: GPL-2.0
/*
 * attachcycles - attach and detach idlescope's select probes (the fexit
 * set) again and again while the tracepoints stay attached, to find out
 * whether trampoline attach/detach on functions that every idle entry
 * runs can stall the machine (bpf/idlescope.bpf.c's head comment has the
 * history and the result).
 *
 * Every attach and every detach rewrites the first instruction of each
 * select function (and of cpuidle_governor_latency_req) while the other
 * CPU may be executing it, and updates ftrace's direct-call hash.  The
 * tool prints one line per 10 cycles with the time each took, so a stall
 * shows as the last line printed and a slow-down as a growing time.
 */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>
#include "args.h"
#include "idlescope.h"
#include "live/probes.h"

static struct env {
	long cycles;
	long hold_ms;
	long every;
	bool wakeup_per_record;
	bool verbose;
} env = {
	.cycles = 200,
	.hold_ms = 10,
	.every = 10,
};

const char *argp_program_version = "attachcycles 0.1";
static const char argp_doc[] =
"Attach and detach idlescope's select probes N times; print the times.\n"
"\n"
"EXAMPLES:\n"
"    attachcycles              # 200 cycles, 10 ms attached and 10 ms detached\n"
"    attachcycles -n 1000 -t 0 # 1000 cycles back to back\n"
"    attachcycles -W           # with a poller wake-up for every record\n";

static const struct arg_value values[] = {
	ARG_NUM('n', "cycles", "N", "Attach/detach cycles (default 200)", "cycles",
		&env.cycles, 1, 1000000),
	ARG_NUM('t', "hold", "MS",
		"Milliseconds attached, then detached, per cycle (default 10)", "hold time",
		&env.hold_ms, 0, 60000),
	ARG_NUM('e', "every", "N", "Print a line every N cycles (default 10)",
		"print interval", &env.every, 1, 1000000),
	ARG_FLAG('W', "wakeup-per-record",
		 "Wake the poller for every record (as idlescope once did)",
		 &env.wakeup_per_record),
	ARG_FLAG('v', "verbose", "Print libbpf debug messages", &env.verbose),
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	return arg_value_parse(values, key, arg, state) ? 0 : ARGP_ERR_UNKNOWN;
}

/* The records only have to leave the buffer; counting them is enough. */
static int count_record(void *ctx, void *data, size_t size)
{
	(*(unsigned long long *)ctx)++;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Keep the select probes attached, then detached, @hold_ms each; drain meanwhile. */
static int hold(struct live *lv)
{
	int err = live_poll(lv, env.hold_ms, NULL);

	return err < 0 ? err : 0;
}

static unsigned long long total_selects(const struct live *lv)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {};
	unsigned long long sum = 0;
	int cpu;

	live_read_counters(lv, vals);
	for (cpu = 0; cpu < IDLESCOPE_MAX_CPUS; cpu++)
		sum += vals[cpu].selects;
	return sum;
}

int main(int argc, char **argv)
{
	struct argp_option opts[ARG_VALUES_MAX + 1];
	const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
	};
	unsigned long long records = 0;
	struct live_opts lv_opts = {
		.ringbuf_bytes = IDLESCOPE_RINGBUF_DEFAULT,
		.on_record = count_record,
		.ctx = &records,
		.select_probes_under_mttcg = true,
	};
	struct live lv = {};
	double start_s, block_s, max_cycle_s = 0, t;
	long cycle;
	int err;

	arg_value_options(values, opts);
	args_parse(&argp, argc, argv);
	live_set_verbose(env.verbose);
	lv_opts.wakeup_per_record = env.wakeup_per_record;
	if (libbpf_num_possible_cpus() > IDLESCOPE_MAX_CPUS) {
		fprintf(stderr, "attachcycles: error: more than %d CPUs\n", IDLESCOPE_MAX_CPUS);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = live_load(&lv, &lv_opts);
	if (err)
		goto cleanup;
	printf("attachcycles: loaded, attaching\n");
	err = live_attach(&lv);
	if (err)
		goto cleanup;
	if (!lv.nr_select_probes) {
		fprintf(stderr, "attachcycles: error: no select probe attached\n");
		err = -ENOENT;
		goto cleanup;
	}
	start_s = block_s = now_s();
	for (cycle = 1; cycle <= env.cycles; cycle++) {
		t = now_s();
		err = hold(&lv);
		if (!err) {
			live_detach_select_probes(&lv);
			err = hold(&lv);
		}
		if (!err)
			err = live_attach_select_probes(&lv);
		if (err) {
			fprintf(stderr, "attachcycles: error: cycle %ld: %s\n", cycle,
				strerror(-err));
			goto cleanup;
		}
		t = now_s() - t;
		if (t > max_cycle_s)
			max_cycle_s = t;
		if (cycle % env.every == 0) {
			printf("attachcycles: cycle %ld: %.3f s for the last %ld\n",
			       cycle, now_s() - block_s, env.every);
			block_s = now_s();
		}
	}
	printf("attachcycles: %ld cycles in %.1f s, longest %.1f ms, %llu selects probed, %llu records\n",
	       env.cycles, now_s() - start_s, max_cycle_s * 1e3, total_selects(&lv), records);

cleanup:
	live_destroy(&lv);
	return err ? 1 : 0;
}
