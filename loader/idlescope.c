// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope - measure how well cpuidle governors predict idle durations.
 *
 * Loads bpf/idlescope.bpf.c, attaches it to the cpuidle tracepoints and the
 * governors' select functions, and consumes one record per idle period from
 * the ring buffer for -d seconds: aggregated live per (workload, governor,
 * CPU), redrawn every -i seconds as a dashboard, and written as report.txt
 * and report.json at the end (also after SIGINT/SIGTERM).
 *
 * Workloads name themselves by writing the tag map the loader pins at
 * IDLESCOPE_TAG_PIN; `idlescope tag NAME` does that from a shell.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "idlescope.h"
#include "aggregate.h"
#include "report.h"
#include "summary.h"
#include "plot.h"
#include "recfile.h"
#include "models.h"
#include "mode.h"
#include "idlescope.skel.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
#define CPUIDLE_SYSFS	"/sys/devices/system/cpu/cpuidle"
#define STATE_SYSFS	"/sys/devices/system/cpu/cpu0/cpuidle"
#define POLL_TIMEOUT_MS	100
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct env {
	long duration_s;
	long interval_s;
	long ringbuf_bytes;
	bool verbose;
	bool no_predict;
	bool json;
	const char *workload;
	const char *governor;
	const char *outdir;
	const char *record_path;
	const char *btf_path;
} env = {
	.duration_s = 10,
	.interval_s = 1,
	.ringbuf_bytes = IDLESCOPE_RINGBUF_DEFAULT,
};

static volatile sig_atomic_t exiting;

const char *argp_program_version = "idlescope 0.1";
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
"    idlescope report run.rec -o .  # the report again, off-line\n";

enum {
	OPT_NO_PREDICT = 0x100,
	OPT_BTF,
};

static const struct argp_option opts[] = {
	{ "duration", 'd', "SECONDS", 0, "Run for SECONDS (default 10)", 0 },
	{ "interval", 'i', "SECONDS", 0, "Refresh every SECONDS (default 1)", 0 },
	{ "workload", 'w', "NAME", 0, "Tag periods with workload NAME until a workload retags", 0 },
	{ "governor", 'g', "NAME", 0, "Switch to governor NAME for the run, from a fresh start (restored after)", 0 },
	{ "output", 'o', "DIR", 0, "Write report.txt and report.json into DIR", 0 },
	{ "json", 'j', NULL, 0, "Print the JSON report to stdout instead of the text one", 0 },
	{ "record", 'r', "FILE", 0, "Write every raw record to FILE (see idlescope dump/report)", 0 },
	{ "ringbuf", 'b', "BYTES", 0, "Ring buffer size, a power of two >= 4096", 0 },
	{ "no-predict", OPT_NO_PREDICT, NULL, 0, "Do not read the governors' predictions", 0 },
	{ "btf", OPT_BTF, "FILE", 0, "Kernel BTF to use instead of " VMLINUX_BTF, 0 },
	{ "verbose", 'v', NULL, 0, "Print libbpf debug messages", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show this help", 0 },
	{},
};

static long parse_positive(const char *arg, const char *what, struct argp_state *state)
{
	char *end;
	long val;

	errno = 0;
	val = strtol(arg, &end, 10);
	if (errno || end == arg || *end || val <= 0)
		argp_error(state, "%s must be a positive integer, not '%s'", what, arg);
	return val;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'd':
		env.duration_s = parse_positive(arg, "duration", state);
		break;
	case 'i':
		env.interval_s = parse_positive(arg, "interval", state);
		break;
	case 'w':
		if (!*arg || strlen(arg) >= IDLESCOPE_WORKLOAD_LEN)
			argp_error(state, "workload name must be 1 to %d characters, not '%s'",
				   IDLESCOPE_WORKLOAD_LEN - 1, arg);
		env.workload = arg;
		break;
	case 'g':
		env.governor = arg;
		break;
	case 'o':
		env.outdir = arg;
		break;
	case 'j':
		env.json = true;
		break;
	case 'r':
		env.record_path = arg;
		break;
	case 'b':
		env.ringbuf_bytes = parse_positive(arg, "ring buffer size", state);
		if (env.ringbuf_bytes < 4096 || (env.ringbuf_bytes & (env.ringbuf_bytes - 1)))
			argp_error(state, "ring buffer size must be a power of two >= 4096, not '%s'",
				   arg);
		break;
	case OPT_NO_PREDICT:
		env.no_predict = true;
		break;
	case OPT_BTF:
		env.btf_path = arg;
		break;
	case 'v':
		env.verbose = true;
		break;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Set while libbpf's own complaint would only repeat the loader's error line. */
static bool libbpf_quiet;

static int libbpf_print_fn(enum libbpf_print_level level, const char *format, va_list args)
{
	if ((level == LIBBPF_DEBUG || libbpf_quiet) && !env.verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static void sig_handler(int sig)
{
	exiting = 1;
}

/*
 * Switch off the programs whose attach point this kernel lacks (no
 * cpu_idle_miss before 6.0, say), so the rest still loads.  Says which
 * and why.  Without cpu_idle there are no idle periods at all: -ENOENT.
 */
static int disable_missing_targets(struct idlescope_bpf *obj, const struct btf *vmlinux)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj->obj) {
		const char *sec = bpf_program__section_name(prog);
		const char *target = strchr(sec, '/');
		char tp_type[128];
		bool found;

		if (!target)
			continue;
		target++;
		if (!strncmp(sec, "tp_btf/", 7)) {
			snprintf(tp_type, sizeof(tp_type), "btf_trace_%s", target);
			found = btf__find_by_name_kind(vmlinux, tp_type, BTF_KIND_TYPEDEF) > 0;
		} else {
			found = btf__find_by_name_kind(vmlinux, target, BTF_KIND_FUNC) > 0;
		}
		if (!found) {
			if (prog == obj->progs.cpu_idle) {
				fprintf(stderr, "idlescope: error: attach target %s not in kernel BTF\n",
					target);
				return -ENOENT;
			}
			printf("idlescope: skipping %s: %s not in kernel BTF\n",
			       bpf_program__name(prog), target);
			bpf_program__set_autoload(prog, false);
		}
	}
	return 0;
}

static int write_tag(int map_fd, const char *name)
{
	struct idlescope_tag tag = {};
	__u32 zero = 0;

	if (name)
		strncpy(tag.name, name, sizeof(tag.name) - 1);
	if (bpf_map_update_elem(map_fd, &zero, &tag, BPF_ANY))
		return -errno;
	return 0;
}

/* `idlescope tag [NAME]`: retag (or, without NAME, untag) a running loader. */
static int tag_command(int argc, char **argv)
{
	const char *name = argc > 2 ? argv[2] : NULL;
	int fd, err;

	if (argc > 3 || (name && (!*name || strlen(name) >= IDLESCOPE_WORKLOAD_LEN))) {
		fprintf(stderr, "idlescope: error: usage: idlescope tag [NAME of 1 to %d characters]\n",
			IDLESCOPE_WORKLOAD_LEN - 1);
		return 1;
	}
	fd = bpf_obj_get(IDLESCOPE_TAG_PIN);
	if (fd < 0) {
		fprintf(stderr, "idlescope: error: no running loader (%s: %s)\n",
			IDLESCOPE_TAG_PIN, strerror(errno));
		return 1;
	}
	err = write_tag(fd, name);
	close(fd);
	if (err) {
		fprintf(stderr, "idlescope: error: writing tag: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		err = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return err;
}

static int write_line(const char *path, const char *line)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%s\n", line) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * Check that env.governor is available and keep the current one in saved[]
 * to switch back at exit, and another available one in other[] (empty if
 * there is none).  Names not in available_governors are refused here,
 * before anything is loaded; the switch itself comes after attach, so the
 * records see the governor start from its ->enable() state, as the
 * replayed models do.
 */
static int check_governor(const char *name, char *saved, size_t size,
			  char *other, size_t other_size)
{
	char avail[256], *tok, *save;
	bool found = false;
	int err;

	err = read_line(CPUIDLE_SYSFS "/available_governors", avail, sizeof(avail));
	if (err) {
		fprintf(stderr, "idlescope: error: no cpuidle governors (%s: %s)\n",
			CPUIDLE_SYSFS "/available_governors", strerror(-err));
		return err;
	}
	other[0] = '\0';
	for (tok = strtok_r(avail, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, name))
			found = true;
		else if (!other[0])
			snprintf(other, other_size, "%s", tok);
	}
	if (!found) {
		read_line(CPUIDLE_SYSFS "/available_governors", avail, sizeof(avail));
		fprintf(stderr, "idlescope: error: governor '%s' not available (available: %s)\n",
			name, avail);
		return -ENOENT;
	}
	err = read_line(CPUIDLE_SYSFS "/current_governor", saved, size);
	if (err)
		fprintf(stderr, "idlescope: error: reading the current governor: %s\n",
			strerror(-err));
	return err;
}

/*
 * Make @name the current governor, starting from its ->enable() state even
 * if it is current already (then by way of @other): otherwise its history
 * would predate the records, and no replay could start in step with it.
 */
static int switch_governor(const char *name, const char *current, const char *other)
{
	int err;

	if (!strcmp(name, current) && other[0]) {
		err = write_line(CPUIDLE_SYSFS "/current_governor", other);
		if (err)
			return err;
	}
	return write_line(CPUIDLE_SYSFS "/current_governor", name);
}

/*
 * The state table of cpu0 (all CPUs share the driver), as the record file
 * keeps it: for the aggregate's cross-check and the models' state choices.
 */
static int read_state_table(struct recfile_state *states)
{
	char path[128], buf[64];
	int nr;

	memset(states, 0, sizeof(*states) * IDLESCOPE_MAX_STATES);
	for (nr = 0; nr < IDLESCOPE_MAX_STATES; nr++) {
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/residency", nr);
		if (read_line(path, buf, sizeof(buf)))
			break;
		states[nr].target_residency_ns = strtoull(buf, NULL, 10) * 1000;
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/latency", nr);
		if (read_line(path, buf, sizeof(buf)))
			break;
		states[nr].exit_latency_ns = strtoull(buf, NULL, 10) * 1000;
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/disable", nr);
		states[nr].disabled = !read_line(path, buf, sizeof(buf)) && buf[0] == '1';
		/* The core's poll state is the only one named POLL. */
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/name", nr);
		states[nr].polling = !read_line(path, buf, sizeof(buf)) && !strcmp(buf, "POLL");
	}
	return nr;
}

/*
 * -o must be a directory we can create files in: find out before the run,
 * not after it, by creating (and removing) a probe file there.
 */
static int check_outdir(const char *dir)
{
	char probe[4096];
	int fd;

	snprintf(probe, sizeof(probe), "%s/.idlescope-probe.XXXXXX", dir);
	fd = mkstemp(probe);
	if (fd < 0) {
		fprintf(stderr, "idlescope: error: cannot write reports into %s: %s\n",
			dir, strerror(errno));
		return -errno;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/* The kernel's own count of idle entries: every stateN/usage of every CPU. */
static __u64 sysfs_usage_sum(int nr_cpus)
{
	char path[128], buf[32];
	__u64 sum = 0;
	int cpu, state;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (state = 0; state < IDLESCOPE_MAX_STATES; state++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage", cpu, state);
			if (read_line(path, buf, sizeof(buf)))
				break;
			sum += strtoull(buf, NULL, 10);
		}
	}
	return sum;
}

struct run {
	struct agg *agg;
	struct replay *replay;		/* shadow replay of every model */
	unsigned int nr_states;
	struct recfile_state states[IDLESCOPE_MAX_STATES];
	FILE *recf;			/* -r */
	int rec_error;
	int agg_error;			/* first agg_add() error, reported once */
	__u64 received;
	__u64 received_at_last_draw;
};

static void model_table_of(const struct recfile_state *states, unsigned int nr_states,
			   struct model_states_table *table)
{
	unsigned int i;

	memset(table, 0, sizeof(*table));
	table->nr_states = nr_states;
	for (i = 0; i < nr_states; i++) {
		table->states[i].target_residency_ns = states[i].target_residency_ns;
		table->states[i].exit_latency_ns = states[i].exit_latency_ns;
		table->states[i].disabled = states[i].disabled;
		table->states[i].polling = states[i].polling;
	}
}

/*
 * What a live run and an off-line report share: the aggregate with its
 * state table, and the shadow replay of every model over the same records.
 */
static int run_init(struct run *run, const struct recfile_state *states, unsigned int nr_states)
{
	struct agg_state_info agg_states[IDLESCOPE_MAX_STATES] = {};
	struct model_states_table table;
	unsigned int i;

	run->nr_states = nr_states;
	memcpy(run->states, states, sizeof(*states) * nr_states);
	for (i = 0; i < nr_states; i++) {
		agg_states[i].target_residency_ns = states[i].target_residency_ns;
		agg_states[i].exit_latency_ns = states[i].exit_latency_ns;
		agg_states[i].disabled = states[i].disabled;
	}
	run->agg = agg_new();
	run->replay = calloc(1, sizeof(*run->replay));
	if (!run->agg || !run->replay)
		return -ENOMEM;
	model_table_of(states, nr_states, &table);
	replay_init(run->replay, &table);
	agg_set_states(run->agg, agg_states, nr_states);
	return agg_set_shadow_names(run->agg, model_names, MODEL_NR);
}

/*
 * The next record file of an off-line report: its records are another run,
 * so the models start again (and count their resets again); the aggregate's
 * state table must still fit.  Returns -EINVAL if the file has another state table.
 */
static int run_restart_replay(struct run *run, const struct recfile_state *states,
			      unsigned int nr_states)
{
	struct model_states_table table;

	if (nr_states != run->nr_states ||
	    memcmp(states, run->states, sizeof(*states) * nr_states))
		return -EINVAL;
	model_table_of(states, nr_states, &table);
	replay_init(run->replay, &table);
	return 0;
}

static void run_free(struct run *run)
{
	agg_free(run->agg);
	free(run->replay);
}

static FILE *create_record_file(const char *path, const struct run *run, int nr_cpus,
				const struct report_meta *meta)
{
	struct recfile_header hdr = {
		.version = RECFILE_VERSION,
		.header_size = sizeof(hdr),
		.record_size = sizeof(struct idlescope_record),
		.trailer_size = sizeof(struct recfile_trailer),
		.nr_cpus = nr_cpus,
		.nr_states = run->nr_states,
	};
	FILE *f;

	memcpy(hdr.magic, RECFILE_MAGIC, sizeof(hdr.magic));
	memcpy(hdr.states, run->states, sizeof(run->states));
	snprintf(hdr.kernel_release, sizeof(hdr.kernel_release), "%s", meta->kernel_release);
	f = recfile_create(path, &hdr);
	if (!f)
		fprintf(stderr, "idlescope: error: creating %s: %s\n", path, strerror(errno));
	return f;
}

/* Score every model's prediction for this period; check the running one's. */
static void replay_shadows(struct run *run, const struct idlescope_record *rec)
{
	__u64 predicted_ns[MODEL_NR];
	int running = model_of_governor(rec->governor);
	int m, agreement;

	if (replay_record(run->replay, rec, predicted_ns))
		return;
	for (m = 0; m < MODEL_NR; m++) {
		agreement = -1;
		if (m == running && (rec->flags & IDLESCOPE_F_PREDICTED) &&
		    rec->predicted_ns != IDLESCOPE_UNKNOWN_NS &&
		    replay_in_step(run->replay, rec->cpu, m))
			agreement = predicted_ns[m] == rec->predicted_ns;
		agg_add_shadow(run->agg, rec, m, predicted_ns[m], agreement);
	}
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct run *run = ctx;
	int err;

	if (size < sizeof(struct idlescope_record))
		return 0;
	run->received++;
	if (run->recf && !run->rec_error &&
	    fwrite(data, sizeof(struct idlescope_record), 1, run->recf) != 1) {
		run->rec_error = -EIO;
		fprintf(stderr, "idlescope: error: writing %s: %s\n", env.record_path,
			strerror(errno));
	}
	err = agg_add(run->agg, data);
	if (!err)
		replay_shadows(run, data);
	if (err && !run->agg_error) {
		run->agg_error = err;
		fprintf(stderr, "idlescope: warning: record not aggregated: %s "
			"(counted in the report)\n", strerror(-err));
	}
	return 0;
}

static int read_counters(struct idlescope_bpf *obj, struct idlescope_counters *vals)
{
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(obj->maps.counters), &zero, vals))
		return -errno;
	return 0;
}

static void sum_counters(const struct idlescope_counters *vals, int nr_cpus,
			 struct idlescope_counters *total)
{
	int cpu;

	memset(total, 0, sizeof(*total));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		total->entries += vals[cpu].entries;
		total->exits += vals[cpu].exits;
		total->records += vals[cpu].records;
		total->dropped += vals[cpu].dropped;
		total->unpaired += vals[cpu].unpaired;
	}
}

/*
 * The live view: per-CPU residency histograms and the running factor table
 * over everything seen so far.  On a terminal it redraws in place; into a
 * pipe or file it appends one block per interval.
 */
static void draw_dashboard(struct run *run, struct idlescope_bpf *obj, int nr_cpus,
			   double elapsed, double interval)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS], total;
	struct agg_stats st;
	int cpu;

	if (read_counters(obj, vals))
		memset(vals, 0, sizeof(vals));
	sum_counters(vals, nr_cpus, &total);

	if (isatty(STDOUT_FILENO))
		printf("\033[H\033[J");
	printf("=== idlescope %.0f s: %.0f idle periods/s, %llu records, %llu dropped ===\n",
	       elapsed, (run->received - run->received_at_last_draw) / interval,
	       run->received, total.dropped);
	run->received_at_last_draw = run->received;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!agg_sum(run->agg, AGG_ANY, AGG_ANY, cpu, &st))
			continue;
		printf("cpu%d: %llu periods, %llu dropped\n", cpu, st.samples, vals[cpu].dropped);
		print_log2_hist(stdout, st.residency_us_hist, AGG_LOG2_SLOTS, "usecs");
	}
	if (agg_sum(run->agg, AGG_ANY, AGG_ANY, AGG_ANY, &st) && st.predicted_samples)
		report_print_factor_table(stdout, &st);
	fflush(stdout);
}

static void fill_meta_from_agg(struct report_meta *meta, struct run *run);

/* The BPF side's own per-CPU view: entries and exits pair up, drops show. */
static void print_counters(struct idlescope_bpf *obj, int nr_cpus)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {};
	int cpu;

	read_counters(obj, vals);
	printf("%-4s %12s %12s %12s %12s\n", "CPU", "ENTRIES", "EXITS", "RECORDS", "DROPPED");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		printf("%-4d %12llu %12llu %12llu %12llu\n", cpu, vals[cpu].entries,
		       vals[cpu].exits, vals[cpu].records, vals[cpu].dropped);
}

static void fill_meta(struct report_meta *meta, struct run *run,
		      struct idlescope_bpf *obj, int nr_cpus, double duration_s)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {};
	struct bpf_program *prog;
	int cpu;

	meta->duration_s = duration_s;
	meta->nr_cpus = nr_cpus;
	meta->ringbuf_size_bytes = env.ringbuf_bytes;
	read_counters(obj, vals);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		meta->records_produced[cpu] = vals[cpu].records;
		meta->dropped_records[cpu] = vals[cpu].dropped;
	}
	bpf_object__for_each_program(prog, obj->obj) {
		if (!bpf_program__autoload(prog))
			report_meta_add_skipped(meta, bpf_program__name(prog),
						"attach target not in kernel BTF");
	}
	meta->shadow_replay_resets = run->replay->replay_resets;
	fill_meta_from_agg(meta, run);
}

/* What the report header says about workloads, governors and predictions. */
static void fill_meta_from_agg(struct report_meta *meta, struct run *run)
{
	struct agg_key key = { .workload = -1 };
	int w;

	for (w = 0; w < agg_nr_workloads(run->agg); w++)
		report_meta_add_workload(meta, agg_workload_name(run->agg, w));
	while (agg_next(run->agg, &key)) {
		const struct agg_stats *st = agg_get(run->agg, key.workload, key.governor, key.cpu);
		bool listed = false;
		int g;

		for (g = 0; g < meta->nr_governors; g++)
			listed |= !strcmp(meta->governors[g], agg_governor_name(key.governor));
		if (!listed)
			report_meta_add_governor(meta, agg_governor_name(key.governor));
		if (st && st->predicted_samples)
			meta->predictions_available = true;
	}
}

/* What the live report knew beyond the records, for the record file's trailer. */
static void trailer_from_meta(struct recfile_trailer *t, const struct report_meta *meta)
{
	int cpu, i;

	memset(t, 0, sizeof(*t));
	memcpy(t->magic, RECFILE_TRAILER_MAGIC, sizeof(t->magic));
	t->start_time = meta->start_time;
	t->duration_s = meta->duration_s;
	t->ringbuf_size_bytes = meta->ringbuf_size_bytes;
	t->sysfs_usage_delta = meta->sysfs_usage_delta;
	for (cpu = 0; cpu < meta->nr_cpus && cpu < IDLESCOPE_MAX_CPUS; cpu++) {
		t->records_produced[cpu] = meta->records_produced[cpu];
		t->dropped_records[cpu] = meta->dropped_records[cpu];
	}
	for (i = 0; i < meta->nr_skipped && i < RECFILE_MAX_SKIPPED; i++) {
		snprintf(t->skipped[i].prog, sizeof(t->skipped[i].prog), "%s",
			 meta->skipped[i].name);
		snprintf(t->skipped[i].reason, sizeof(t->skipped[i].reason), "%s",
			 meta->skipped[i].reason);
	}
	t->nr_skipped = i;
}

/*
 * The report metadata of one record file, added to *meta: from its trailer
 * exactly as the live report had it, or, for a file the loader never
 * closed, what the records themselves say (@records_read per CPU; the
 * drops, the duration and the sysfs count are then unknown and add 0).
 */
static void meta_add_recfile(struct report_meta *meta, const struct recfile *rf,
			     const __u64 *records_read, bool first)
{
	const struct recfile_trailer *t = &rf->trailer;
	unsigned int cpu, i;

	if (first) {
		snprintf(meta->kernel_release, sizeof(meta->kernel_release), "%.*s",
			 (int)sizeof(meta->kernel_release) - 1, rf->hdr.kernel_release);
		meta->start_time = rf->has_trailer ? t->start_time : 0;
		meta->ringbuf_size_bytes = t->ringbuf_size_bytes;
	}
	if ((int)rf->hdr.nr_cpus > meta->nr_cpus)
		meta->nr_cpus = rf->hdr.nr_cpus;
	if (!rf->has_trailer) {
		for (cpu = 0; cpu < rf->hdr.nr_cpus; cpu++)
			meta->records_produced[cpu] += records_read[cpu];
		return;
	}
	if (t->start_time < meta->start_time)
		meta->start_time = t->start_time;
	meta->duration_s += t->duration_s;
	meta->sysfs_usage_delta += t->sysfs_usage_delta;
	for (cpu = 0; cpu < rf->hdr.nr_cpus; cpu++) {
		meta->records_produced[cpu] += t->records_produced[cpu];
		meta->dropped_records[cpu] += t->dropped_records[cpu];
	}
	for (i = 0; i < t->nr_skipped; i++)
		report_meta_add_skipped(meta, t->skipped[i].prog, t->skipped[i].reason);
}

/* DIR/plots/<workload>.svg for every workload, as summary.md links them. */
static int write_plots(const struct agg *agg, const char *dir)
{
	char path[4096], name[256];
	int w, n, err;

	n = snprintf(path, sizeof(path), "%s/%s", dir, PLOT_DIR);
	if (n < 0 || n >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		err = plot_file_name(agg, w, name, sizeof(name));
		if (!err) {
			n = snprintf(path, sizeof(path), "%s/%s/%s", dir, PLOT_DIR, name);
			err = n < 0 || n >= (int)sizeof(path) ? -ENAMETOOLONG :
			      plot_write_ratio_svg(agg, w, path);
		}
		if (err)
			return err;
	}
	return 0;
}

/*
 * stdout gets the report; -o DIR gets report.txt, report.json, summary.md
 * and the plots, each file complete or absent.
 */
static int write_reports(struct run *run, const struct report_meta *meta)
{
	static const char *const docs[] = { "report.txt", "report.json", "summary.md" };
	static const report_doc_fprint_fn writers[] = {
		report_fprint_text, report_fprint_json, report_fprint_summary,
	};
	char path[4096];
	unsigned int i;
	int err = 0;

	if (env.json)
		report_fprint_json(stdout, run->agg, meta);
	else
		report_fprint_text(stdout, run->agg, meta);
	if (!env.outdir)
		return 0;
	for (i = 0; i < ARRAY_SIZE(docs) && !err; i++) {
		snprintf(path, sizeof(path), "%s/%s", env.outdir, docs[i]);
		err = report_write_doc(path, writers[i], run->agg, meta);
	}
	if (!err) {
		snprintf(path, sizeof(path), "%s/%s", env.outdir, PLOT_DIR);
		err = write_plots(run->agg, env.outdir);
	}
	if (err)
		fprintf(stderr, "idlescope: error: writing %s: %s\n", path, strerror(-err));
	return err;
}

/* `idlescope dump FILE`: the raw records as CSV, one period a line. */
static int dump_command(int argc, char **argv)
{
	struct idlescope_record rec;
	struct recfile rf;
	char err[256];
	int ret;

	if (argc != 3) {
		fprintf(stderr, "idlescope: error: usage: idlescope dump FILE\n");
		return 1;
	}
	if (recfile_open(&rf, argv[2], err, sizeof(err))) {
		fprintf(stderr, "idlescope: error: %s\n", err);
		return 1;
	}
	printf("cpu,enter_ns,residency_ns,kernel_residency_ns,predicted_ns,next_timer_ns,"
	       "latency_req_ns,state,chosen_state,governor,flags,workload,"
	       "typical_interval_us,lost_selects\n");
	while ((ret = recfile_read(&rf, &rec)) == 1) {
		printf("%u,%llu,%llu,%llu,%lld,%llu,%lld,%d,%d,%s,%#x,%.*s,%u,%u\n", rec.cpu,
		       rec.enter_ns, rec.residency_ns, rec.kernel_residency_ns,
		       rec.predicted_ns == IDLESCOPE_UNKNOWN_NS ? -1LL : (long long)rec.predicted_ns,
		       rec.next_timer_ns, rec.latency_req_ns, rec.state, rec.chosen_state,
		       agg_governor_name(rec.governor), rec.flags,
		       IDLESCOPE_WORKLOAD_LEN, rec.workload, rec.typical_interval_us,
		       rec.lost_selects);
	}
	if (ret < 0)
		fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n", argv[2]);
	recfile_close(&rf);
	return 0;
}

/*
 * `idlescope report FILE... [-j] [-o DIR]`: recompute the report off-line
 * from record files, through the same aggregation as a live run.  One file
 * gives the live report again; several (say, one per governor) give one
 * report over all of them, each file replayed from a fresh start.
 */
static int report_command(int argc, char **argv)
{
	static const char usage[] = "idlescope: error: usage: idlescope report FILE... [-j] [-o DIR]\n";
	__u64 records_read[IDLESCOPE_MAX_CPUS];
	struct idlescope_record rec;
	struct report_meta meta;
	struct run run = {};
	struct recfile rf = {};
	char err_msg[256];
	int opt, ret, i, err = 0;

	optind = 2;
	while ((opt = getopt(argc, argv, "jo:")) != -1) {
		switch (opt) {
		case 'j':
			env.json = true;
			break;
		case 'o':
			env.outdir = optarg;
			break;
		default:
			fprintf(stderr, usage);
			return 1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, usage);
		return 1;
	}
	if (env.outdir && check_outdir(env.outdir))
		return 1;

	report_meta_init(&meta);
	for (i = optind; i < argc; i++) {
		if (recfile_open(&rf, argv[i], err_msg, sizeof(err_msg))) {
			fprintf(stderr, "idlescope: error: %s\n", err_msg);
			err = -EINVAL;
			goto cleanup;
		}
		if (i == optind)
			err = run_init(&run, rf.hdr.states, rf.hdr.nr_states);
		else
			err = run_restart_replay(&run, rf.hdr.states, rf.hdr.nr_states);
		if (err) {
			fprintf(stderr, "idlescope: error: %s: %s\n", argv[i],
				err == -EINVAL ? "another state table than the first file's" :
				strerror(-err));
			goto cleanup;
		}
		memset(records_read, 0, sizeof(records_read));
		while ((ret = recfile_read(&rf, &rec)) == 1) {
			if (rec.cpu < IDLESCOPE_MAX_CPUS)
				records_read[rec.cpu]++;
			handle_record(&run, &rec, sizeof(rec));
		}
		if (ret < 0)
			fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n",
				argv[i]);
		if (!rf.has_trailer)
			fprintf(stderr, "idlescope: warning: %s: the loader did not finish it: "
				"duration and drop counts unknown\n", argv[i]);
		meta_add_recfile(&meta, &rf, records_read, i == optind);
		meta.shadow_replay_resets += run.replay->replay_resets;
		recfile_close(&rf);
	}
	fill_meta_from_agg(&meta, &run);
	err = write_reports(&run, &meta);
cleanup:
	recfile_close(&rf);
	run_free(&run);
	return err ? 1 : 0;
}

static double elapsed_s(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
	};
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	struct idlescope_bpf *obj = NULL;
	struct ring_buffer *rb = NULL;
	struct btf *vmlinux = NULL;
	struct run run = {};
	struct report_meta meta;
	struct timespec start;
	__u64 usage_at_start = 0;
	struct recfile_state states[IDLESCOPE_MAX_STATES];
	int nr_states;
	char saved_governor[64] = "", other_governor[64] = "";
	bool pinned = false;
	double next_draw;
	int nr_cpus, err;

	if (argc > 1 && !strcmp(argv[1], "tag"))
		return tag_command(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "dump"))
		return dump_command(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_command(argc, argv);

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return err;

	libbpf_set_print(libbpf_print_fn);
	report_meta_init(&meta);

	if (env.outdir && check_outdir(env.outdir))
		return 1;
	if (!env.btf_path && access(VMLINUX_BTF, R_OK)) {
		fprintf(stderr, "idlescope: error: kernel has no BTF (%s: %s); "
			"build it with CONFIG_DEBUG_INFO_BTF=y\n",
			VMLINUX_BTF, strerror(errno));
		return 1;
	}
	libbpf_quiet = true;
	vmlinux = env.btf_path ? btf__parse(env.btf_path, NULL) : btf__load_vmlinux_btf();
	libbpf_quiet = false;
	if (!vmlinux) {
		fprintf(stderr, "idlescope: error: no kernel BTF in %s: %s\n",
			env.btf_path ? env.btf_path : VMLINUX_BTF, strerror(errno));
		return 1;
	}

	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus < 0 || nr_cpus > IDLESCOPE_MAX_CPUS) {
		fprintf(stderr, "idlescope: error: %d possible CPUs, at most %d supported\n",
			nr_cpus, IDLESCOPE_MAX_CPUS);
		err = -EINVAL;
		goto cleanup;
	}

	if (env.governor) {
		err = check_governor(env.governor, saved_governor, sizeof(saved_governor),
				     other_governor, sizeof(other_governor));
		if (err)
			goto cleanup;
	}
	nr_states = read_state_table(states);
	err = run_init(&run, states, nr_states);
	if (err) {
		fprintf(stderr, "idlescope: error: %s\n", strerror(-err));
		goto cleanup;
	}

	open_opts.btf_custom_path = env.btf_path;
	obj = idlescope_bpf__open_opts(&open_opts);
	if (!obj) {
		err = -errno;
		fprintf(stderr, "idlescope: error: opening BPF object: %s\n", strerror(-err));
		goto cleanup;
	}
	obj->rodata->observe_predictions = !env.no_predict;
	obj->rodata->wakeup_bytes = env.ringbuf_bytes / 4;
	err = bpf_map__set_max_entries(obj->maps.records, env.ringbuf_bytes);
	if (err) {
		fprintf(stderr, "idlescope: error: sizing the ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}
	err = disable_missing_targets(obj, vmlinux);
	if (err)
		goto cleanup;
	mode_print(env.json ? stderr : stdout, vmlinux, obj->obj);

	err = idlescope_bpf__load(obj);
	if (err) {
		fprintf(stderr, "idlescope: error: loading BPF object: %s\n", strerror(-err));
		goto cleanup;
	}

	rb = ring_buffer__new(bpf_map__fd(obj->maps.records), handle_record, &run, NULL);
	if (!rb) {
		err = -errno;
		fprintf(stderr, "idlescope: error: creating ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}

	err = idlescope_bpf__attach(obj);
	if (err) {
		fprintf(stderr, "idlescope: error: attaching BPF programs: %s\n", strerror(-err));
		goto cleanup;
	}
	if (env.governor) {
		err = switch_governor(env.governor, saved_governor, other_governor);
		if (err) {
			fprintf(stderr, "idlescope: error: switching to governor %s: %s\n",
				env.governor, strerror(-err));
			goto cleanup;
		}
	}
	/*
	 * The kernel's count from here to detach: the window of the records
	 * of the governor the run is for (those before the switch are the
	 * old governor's, and a switch can take long under emulation).
	 */
	usage_at_start = sysfs_usage_sum(nr_cpus);

	/*
	 * Pinned last, so the pin's existence says the loader is ready:
	 * attached, governor switched, tag set.  A pin left by a killed loader
	 * would point at a dead map.
	 */
	if (env.workload) {
		err = write_tag(bpf_map__fd(obj->maps.workload), env.workload);
		if (err) {
			fprintf(stderr, "idlescope: error: setting workload tag: %s\n",
				strerror(-err));
			goto cleanup;
		}
	}
	mkdir(IDLESCOPE_PIN_DIR, 0755);
	unlink(IDLESCOPE_TAG_PIN);
	err = bpf_map__pin(obj->maps.workload, IDLESCOPE_TAG_PIN);
	if (err) {
		fprintf(stderr, "idlescope: error: pinning %s: %s\n", IDLESCOPE_TAG_PIN,
			strerror(-err));
		goto cleanup;
	}
	pinned = true;

	if (env.record_path) {
		run.recf = create_record_file(env.record_path, &run, nr_cpus, &meta);
		if (!run.recf) {
			err = -errno;
			goto cleanup;
		}
	}

	signal(SIGINT, sig_handler);
	signal(SIGTERM, sig_handler);

	printf("idlescope: watching cpuidle on %d CPUs for %ld s (governor %s)\n",
	       nr_cpus, env.duration_s, env.governor ? env.governor : "unchanged");
	clock_gettime(CLOCK_MONOTONIC, &start);
	next_draw = env.interval_s;
	while (!exiting && elapsed_s(&start) < env.duration_s) {
		/* Records below the wake-up threshold arrive without a wake-up. */
		err = ring_buffer__poll(rb, POLL_TIMEOUT_MS);
		if (err >= 0)
			err = ring_buffer__consume(rb);
		if (err == -EINTR) {
			err = 0;
			break;
		}
		if (err < 0) {
			fprintf(stderr, "idlescope: error: polling ring buffer: %s\n",
				strerror(-err));
			goto cleanup;
		}
		if (elapsed_s(&start) >= next_draw) {
			draw_dashboard(&run, obj, nr_cpus, elapsed_s(&start), env.interval_s);
			next_draw += env.interval_s;
		}
	}
	/* Detach first so the drained buffer is the last word. */
	meta.sysfs_usage_delta = sysfs_usage_sum(nr_cpus) - usage_at_start;
	idlescope_bpf__detach(obj);
	err = ring_buffer__consume(rb);
	if (err < 0) {
		fprintf(stderr, "idlescope: error: draining ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}

	fill_meta(&meta, &run, obj, nr_cpus, elapsed_s(&start));
	if (run.recf && !run.rec_error) {
		struct recfile_trailer trailer;

		trailer_from_meta(&trailer, &meta);
		run.rec_error = recfile_finish(run.recf, &trailer, run.received);
		run.recf = NULL;
		if (run.rec_error)
			fprintf(stderr, "idlescope: error: closing %s: %s\n", env.record_path,
				strerror(-run.rec_error));
	}
	err = write_reports(&run, &meta);
	if (!env.json)
		print_counters(obj, nr_cpus);
	if (!err)
		err = run.rec_error;

cleanup:
	/* Without its trailer: readers take it as cut short, which it is. */
	if (run.recf && fclose(run.recf) && !err) {
		err = -errno;
		fprintf(stderr, "idlescope: error: closing %s: %s\n", env.record_path,
			strerror(-err));
	}
	if (pinned)
		unlink(IDLESCOPE_TAG_PIN);
	if (saved_governor[0] && write_line(CPUIDLE_SYSFS "/current_governor", saved_governor))
		fprintf(stderr, "idlescope: error: restoring governor %s\n", saved_governor);
	ring_buffer__free(rb);
	idlescope_bpf__destroy(obj);
	run_free(&run);
	btf__free(vmlinux);
	return err ? 1 : 0;
}
