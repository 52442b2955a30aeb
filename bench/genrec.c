// SPDX-License-Identifier: GPL-2.0
/*
 * genrec - write a synthetic record file of -n idle periods, for timing
 * `idlescope report` on more records than a TCG guest produces in a run.
 *
 * The file must cost the report what a real one of that size costs, so
 * every path of the aggregation and the shadow replay has to be taken:
 * several CPUs, each with its own consecutive seq (a gap would reset the
 * replay and skip its work), all four menu-family governors in turn (a
 * quarter of the file each, as four loader runs would record them, the
 * first period after a switch marked restarted), predictions scattered
 * around the actual residency as widely as each workload makes real
 * governors scatter them, and workload tags that change every few
 * thousand periods.  The state table and kernel release come from a real
 * record file (-H), so the states chosen here are the guest's states.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "args.h"
#include "rng.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Periods in a row with one tag, per CPU: a workload run of a few seconds. */
#define TAG_RUN_PERIODS		5000
/* CPU time between two idle periods: the workload's own work. */
#define BUSY_MEAN_NS		20000.0

static struct env {
	long records;
	long nr_cpus;
	uint64_t seed;
	const char *template_path;
	const char *output_path;
	long far_off_pct;	/* -p: share of predictions made far off */
} env = {
	.nr_cpus = 4,
	.seed = 1,
};

/*
 * One idle pattern: how long periods last, what the governor is told about
 * the next timer, and how far its predictions stray (log2 of the factor,
 * uniform in [-spread, +spread]).
 */
struct pattern {
	const char *tag;
	double residency_mean_ns;	/* exponential part of the residency */
	double residency_fixed_ns;	/* constant part */
	bool timer_ends_period;		/* next timer == residency (else far away) */
	double prediction_spread_log2;
};

static const struct pattern patterns[] = {
	{ "periodic1ms", 5000, 975000, true, 0.5 },
	{ "pingpong", 150000, 20000, false, 4 },
	{ "poisson2ms", 2000000, 0, true, 3 },
	{ "idle", 50000000, 0, true, 2 },
};

static const enum idlescope_governor governors[] = {
	IDLESCOPE_GOV_MENU, IDLESCOPE_GOV_MENU2010,
	IDLESCOPE_GOV_MENU2010FIX, IDLESCOPE_GOV_MENU2010RPD,
};

/* Where each CPU is in the synthetic timeline. */
struct cpu_timeline {
	__u64 now_ns;
	__u32 seq;
	int governor;			/* last one used, -1 before the first */
};

static const char argp_doc[] =
"Write a synthetic idlescope record file for timing `idlescope report`.\n"
"\n"
"EXAMPLES:\n"
"    genrec -n 1000000 -H run.rec -o 1m.rec   # 1M periods, run.rec's states\n"
"    genrec -n 10000000 -c 8 -H run.rec -o 10m.rec\n"
"    genrec -n 80000 -c 2 -p 5 -H run.rec -o worse.rec  # 5% of predictions 64x off\n";

static const struct arg_value values[] = {
	ARG_NUM('n', "records", "N", "Write N records (required)", "records",
		&env.records, 1, 1L << 32),
	ARG_NUM('c', "cpus", "N", "Spread them over N CPUs (default 4)", "cpus",
		&env.nr_cpus, 1, IDLESCOPE_MAX_CPUS),
	ARG_SEED('s', "seed", "PRNG seed (default 1)", &env.seed),
	ARG_STR('H', "header", "FILE", "Take the state table from record file FILE (required)",
		"template path", &env.template_path, PATH_MAX - 1),
	ARG_STR('o', "output", "FILE", "Write the records to FILE (required)", "output path",
		&env.output_path, PATH_MAX - 1),
	ARG_NUM('p', "far-off", "PCT", "Make PCT % of the predictions 64x too long "
		"(a planted regression for `idlescope compare`; default 0)", "far-off",
		&env.far_off_pct, 0, 100),
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (arg_value_parse(values, key, arg, state))
		return 0;
	if (key == ARGP_KEY_END && (!env.records || !env.template_path || !env.output_path))
		args_error(state, "-n, -H and -o are required");
	return ARGP_ERR_UNKNOWN;
}

/* The deepest enabled state worth entering for predicted_ns, as menu picks. */
static int pick_state(const struct recfile_header *hdr, __u64 predicted_ns)
{
	int state = 0;
	unsigned int i;

	for (i = 1; i < hdr->nr_states; i++) {
		if (hdr->states[i].disabled)
			continue;
		if (hdr->states[i].target_residency_ns > predicted_ns)
			break;
		state = i;
	}
	return state;
}

static void make_record(struct idlescope_record *rec, const struct recfile_header *hdr,
			const struct pattern *p, struct cpu_timeline *tl,
			int governor, struct rng *rng)
{
	double stray_log2 = (2 * rng_unit(rng) - 1) * p->prediction_spread_log2;
	/* Drawn whatever -p says, so -p changes nothing but these predictions. */
	bool far_off = rng_unit(rng) * 100 < env.far_off_pct;
	__u64 residency_ns = p->residency_fixed_ns + rng_exp(rng, p->residency_mean_ns);
	__u64 predicted_ns = residency_ns * exp2(stray_log2) + 1;

	if (far_off)
		predicted_ns = residency_ns * 64;
	int state = pick_state(hdr, predicted_ns);
	unsigned int deeper = state + 1;

	memset(rec, 0, sizeof(*rec));
	rec->enter_ns = tl->now_ns;
	rec->residency_ns = residency_ns;
	rec->kernel_residency_ns = residency_ns;
	rec->predicted_ns = predicted_ns;
	rec->next_timer_ns = p->timer_ends_period ? residency_ns : residency_ns * 8;
	rec->latency_req_ns = IDLESCOPE_LATENCY_REQ_UNKNOWN;
	rec->exit_latency_ns = hdr->states[state].exit_latency_ns;
	rec->target_residency_ns = hdr->states[state].target_residency_ns;
	rec->seq = tl->seq++;
	rec->state = state;
	rec->chosen_state = state;
	rec->governor = governors[governor];
	rec->flags = IDLESCOPE_F_SELECTED | IDLESCOPE_F_PREDICTED | IDLESCOPE_F_REFLECTED;
	if (tl->governor != governor)
		rec->flags |= IDLESCOPE_F_RESTARTED;
	if (state && residency_ns < hdr->states[state].target_residency_ns)
		rec->flags |= IDLESCOPE_F_MISS_ABOVE;
	else if (deeper < hdr->nr_states &&
		 residency_ns >= hdr->states[deeper].target_residency_ns)
		rec->flags |= IDLESCOPE_F_MISS_BELOW;
	strncpy(rec->workload, p->tag, sizeof(rec->workload) - 1);

	tl->governor = governor;
	tl->now_ns += residency_ns + rng_exp(rng, BUSY_MEAN_NS);
}

int main(int argc, char **argv)
{
	struct argp_option opts[ARG_VALUES_MAX + 1];
	struct argp argp = { .options = opts, .parser = parse_arg, .doc = argp_doc };
	struct cpu_timeline timeline[IDLESCOPE_MAX_CPUS] = {};
	struct recfile_header hdr;
	struct recfile_trailer trailer = { .magic = RECFILE_TRAILER_MAGIC };
	struct idlescope_record rec;
	struct recfile template;
	struct rng rng;
	char err_msg[256];
	FILE *out = NULL;
	long i;
	int cpu, err = 0;

	arg_value_options(values, opts);
	args_parse(&argp, argc, argv);

	if (recfile_open(&template, env.template_path, err_msg, sizeof(err_msg))) {
		fprintf(stderr, "genrec: error: %s\n", err_msg);
		return 1;
	}
	hdr = template.hdr;
	if (hdr.nr_states < 2) {
		fprintf(stderr, "genrec: error: %s: %u idle states, at least 2 needed\n",
			env.template_path, hdr.nr_states);
		err = -EINVAL;
		goto cleanup;
	}
	hdr.nr_cpus = env.nr_cpus;
	hdr.nr_records = 0;	/* recfile_finish() sets it */
	out = recfile_create(env.output_path, &hdr);
	if (!out) {
		err = -errno;
		fprintf(stderr, "genrec: error: creating %s: %s\n", env.output_path,
			strerror(-err));
		goto cleanup;
	}

	rng_seed(&rng, env.seed);
	for (cpu = 0; cpu < env.nr_cpus; cpu++)
		timeline[cpu].governor = -1;
	/* CPUs take turns, as the ring buffer interleaves them. */
	for (i = 0; i < env.records; i++) {
		long period = i / env.nr_cpus;
		int governor = i * ARRAY_SIZE(governors) / env.records;

		cpu = i % env.nr_cpus;
		make_record(&rec, &hdr, &patterns[period / TAG_RUN_PERIODS % ARRAY_SIZE(patterns)],
			    &timeline[cpu], governor, &rng);
		rec.cpu = cpu;
		trailer.records_produced[cpu]++;
		if (fwrite(&rec, sizeof(rec), 1, out) != 1) {
			err = -errno;
			fprintf(stderr, "genrec: error: writing %s: %s\n", env.output_path,
				strerror(-err));
			goto cleanup;
		}
	}
	/* A trailer, as a loader that ended cleanly writes it. */
	err = recfile_finish(out, &trailer, env.records);
	out = NULL;
	if (err)
		fprintf(stderr, "genrec: error: closing %s: %s\n", env.output_path,
			strerror(-err));

cleanup:
	if (out)
		fclose(out);
	recfile_close(&template);
	return err ? 1 : 0;
}
