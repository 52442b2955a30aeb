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
 * record file (-H), so the states chosen here are the guest's states;
 * without one, from idlescope_states' default table (the host tests'
 * record files).  The trailer's timer lateness is made up too: a few
 * microseconds per wake-up of the timer-driven patterns.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "stats/lateness.h"
#include "idlescope_states_table.h"
#include "args.h"
#include "rng.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Periods in a row with one tag, per CPU: a workload run of a few seconds. */
#define TAG_RUN_PERIODS		5000
/* CPU time between two idle periods: the workload's own work. */
#define BUSY_MEAN_NS		20000.0
/* How late a timer-driven wake-up is: an exponential of this mean. */
#define LATENESS_MEAN_NS	5000.0
/* The trailer's start time, fixed so that reports of a seed are too. */
#define GENREC_START_TIME	1764806400	/* 2025-12-04T00:00:00Z */
/* The hrtimer function of timer wake-ups: a made-up address, left unnamed. */
#define GENREC_TIMER_FN		0xffffffff81094600ULL
/* The made-up run's ring buffer, fixed for the same reason. */
#define GENREC_RINGBUF_BYTES	(4U << 20)

static struct env {
	long records;
	long nr_cpus;
	uint64_t seed;
	const char *template_path;
	const char *output_path;
	long far_off_pct;	/* -p: share of predictions made far off */
	const char *far_off_tag;	/* -w: only in this workload; NULL: all */
	const char *clock_mode;
	long hz;
} env = {
	.records = -1,
	.nr_cpus = 4,
	.seed = 1,
	.clock_mode = "virtual",
	.hz = 1000,
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
"    genrec -n 80000 -c 2 -p 5 -H run.rec -o worse.rec  # 5% of predictions 64x off\n"
"    genrec -n 80000 -c 2 -p 3 -w pingpong -o worse.rec # 3% off, pingpong only\n"
"    genrec -n 1000 -o small.rec              # idlescope_states' default table\n";

static const struct arg_value values[] = {
	ARG_NUM('n', "records", "N", "Write N records (required)", "records",
		&env.records, 0, 1L << 32),
	ARG_NUM('c', "cpus", "N", "Spread them over N CPUs (default 4)", "cpus",
		&env.nr_cpus, 1, IDLESCOPE_MAX_CPUS),
	ARG_SEED('s', "seed", "PRNG seed (default 1)", &env.seed),
	ARG_STR('H', "header", "FILE", "Take the state table and kernel from record file FILE",
		"template path", &env.template_path, PATH_MAX - 1),
	ARG_STR('o', "output", "FILE", "Write the records to FILE (required)", "output path",
		&env.output_path, PATH_MAX - 1),
	ARG_STR('C', "clock", "MODE", "Clock mode without -H (default virtual)", "clock mode",
		&env.clock_mode, RECFILE_CLOCK_MODE_LEN - 1),
	ARG_NUM('z', "hz", "HZ", "Kernel HZ without -H (default 1000)", "HZ", &env.hz, 0, 10000),
	ARG_NUM('p', "far-off", "PCT", "Make PCT % of the predictions 64x too long "
		"(a planted regression for `idlescope compare`; default 0)", "far-off",
		&env.far_off_pct, 0, 100),
	ARG_STR('w', "far-off-workload", "TAG", "Plant -p's regression in workload TAG only "
		"(default: every workload)", "far-off workload", &env.far_off_tag,
		IDLESCOPE_WORKLOAD_LEN - 1),
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (arg_value_parse(values, key, arg, state))
		return 0;
	if (key == ARGP_KEY_END && (env.records < 0 || !env.output_path))
		args_error(state, "-n and -o are required");
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
	bool far_off = rng_unit(rng) * 100 < env.far_off_pct &&
		       (!env.far_off_tag || !strcmp(env.far_off_tag, p->tag));
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
	rec->tick_adjusted_ns = IDLESCOPE_UNKNOWN_NS;	/* not modelled */
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
	/* A timer ends the timer patterns' periods, a task on another CPU the others'. */
	rec->flags |= IDLESCOPE_F_HAS_WAKE | IDLESCOPE_F_WAKE_RESCHED;
	rec->wake_source = p->timer_ends_period ? IDLESCOPE_WAKE_HRTIMER : IDLESCOPE_WAKE_IPI;
	rec->wake_fn = p->timer_ends_period ? GENREC_TIMER_FN : 0;
	rec->wake_irq = p->timer_ends_period ? 0 : IDLESCOPE_IPI_CALL_FUNCTION_SINGLE;

	tl->governor = governor;
	tl->now_ns += residency_ns + rng_exp(rng, BUSY_MEAN_NS);
}

/*
 * Without -H: POLL, then idlescope_states' default states= string
 * (NAME:EXIT_LATENCY_US:TARGET_RESIDENCY_US, comma separated).
 */
static void default_header(struct recfile_header *hdr)
{
	const char *entry = IDLESCOPE_STATES_DEFAULT;
	unsigned int exit_us, target_us;
	int len;

	recfile_header_init(hdr);
	hdr->states[0].polling = 1;
	hdr->nr_states = 1;
	while (hdr->nr_states < IDLESCOPE_MAX_STATES &&
	       sscanf(entry, "%*[^:,]:%u:%u%n", &exit_us, &target_us, &len) == 2) {
		hdr->states[hdr->nr_states].exit_latency_ns = exit_us * 1000ULL;
		hdr->states[hdr->nr_states].target_residency_ns = target_us * 1000ULL;
		hdr->nr_states++;
		entry += len;
		if (*entry++ != ',')
			break;
	}
	hdr->hz = env.hz;
	hdr->capabilities = IDLESCOPE_CAP_OBSERVATION | IDLESCOPE_CAP_GOV2010 |
			    IDLESCOPE_CAP_MISS_TP | IDLESCOPE_CAP_LATENESS | IDLESCOPE_CAP_WAKEUP;
	snprintf(hdr->kernel_release, sizeof(hdr->kernel_release), "genrec");
	snprintf(hdr->cpuidle_driver, sizeof(hdr->cpuidle_driver), "idlescope_states");
	snprintf(hdr->clock_mode, sizeof(hdr->clock_mode), "%s", env.clock_mode);
	snprintf(hdr->clock_args, sizeof(hdr->clock_args), "made up by genrec");
}

/* The output's header: -H's (a clean one: no size, no flag), or the default. */
static int make_header(struct recfile_header *hdr)
{
	struct recfile template;

	if (!env.template_path) {
		default_header(hdr);
	} else {
		if (recfile_open(&template, env.template_path)) {
			fprintf(stderr, "genrec: error: %s\n", template.error);
			return -EINVAL;
		}
		*hdr = template.hdr;
		recfile_close(&template);
		hdr->data_size = 0;
		hdr->flags = 0;
	}
	if (hdr->nr_states < 2) {
		fprintf(stderr, "genrec: error: %u idle states, at least 2 needed\n",
			hdr->nr_states);
		return -EINVAL;
	}
	hdr->nr_cpus = env.nr_cpus;
	return 0;
}

int main(int argc, char **argv)
{
	struct argp_option opts[ARG_VALUES_MAX + 1];
	struct argp argp = { .options = opts, .parser = parse_arg, .doc = argp_doc };
	struct cpu_timeline timeline[IDLESCOPE_MAX_CPUS] = {};
	struct recfile_header hdr;
	struct recfile_trailer trailer = {
		.magic = RECFILE_TRAILER_MAGIC,
		.start_time = GENREC_START_TIME,
		.ringbuf_size_bytes = GENREC_RINGBUF_BYTES,
		.nr_ringbufs = 1,
	};
	struct idlescope_record rec;
	struct rng rng;
	__u64 end_ns = 0;
	FILE *out = NULL;
	long i;
	int cpu, err;

	arg_value_options(values, opts);
	args_parse(&argp, argc, argv);
	err = make_header(&hdr);
	if (err)
		return 1;
	out = recfile_create(env.output_path, &hdr);
	if (!out) {
		fprintf(stderr, "genrec: error: creating %s: %s\n", env.output_path,
			strerror(errno));
		return 1;
	}

	rng_seed(&rng, env.seed);
	for (cpu = 0; cpu < env.nr_cpus; cpu++)
		timeline[cpu].governor = -1;
	/* CPUs take turns, as the ring buffer interleaves them. */
	for (i = 0; i < env.records; i++) {
		long period = i / env.nr_cpus;
		int governor = i * ARRAY_SIZE(governors) / env.records;
		const struct pattern *p = &patterns[period / TAG_RUN_PERIODS % ARRAY_SIZE(patterns)];

		cpu = i % env.nr_cpus;
		make_record(&rec, &hdr, p, &timeline[cpu], governor, &rng);
		rec.cpu = cpu;
		trailer.records_produced[cpu]++;
		if (p->timer_ends_period)
			lateness_add(&trailer.lateness, rng_exp(&rng, LATENESS_MEAN_NS));
		if (timeline[cpu].now_ns > end_ns)
			end_ns = timeline[cpu].now_ns;
		if (fwrite(&rec, sizeof(rec), 1, out) != 1) {
			fprintf(stderr, "genrec: error: writing %s: %s\n", env.output_path,
				strerror(errno));
			fclose(out);
			return 1;
		}
	}
	/* A trailer, as a loader that ended cleanly writes it. */
	trailer.duration_s = end_ns / 1e9;
	err = recfile_finish(out, &trailer, env.records);
	if (err)
		fprintf(stderr, "genrec: error: closing %s: %s\n", env.output_path,
			strerror(-err));
	return err ? 1 : 0;
}
