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
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "idlescope.h"
#include "aggregate.h"
#include "report.h"
#include "summary.h"
#include "plot.h"
#include "recfile.h"
#include "reportdir.h"
#include "runinfo.h"
#include "models.h"
#include "live.h"
#include "pipeline.h"
#include "compare.h"
#include "dashboard.h"
#include "lateness.h"
#include "mode.h"
#include "idlescope.skel.h"

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
	bool no_select_probes;
	bool shared_ringbuf;
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
"    idlescope report run.rec -o .  # the report again, off-line\n"
"    idlescope compare out/a out/b --fail-above 2  # exit 1 if b is worse by > 2 points\n";

enum {
	OPT_NO_PREDICT = 0x100,
	OPT_BTF,
	OPT_NO_SELECT_PROBES,
	OPT_SHARED_RINGBUF,
};

static const struct argp_option opts[] = {
	{ "duration", 'd', "SECONDS", 0, "Run for SECONDS (default 10)", 0 },
	{ "interval", 'i', "SECONDS", 0, "Refresh every SECONDS (default 1)", 0 },
	{ "workload", 'w', "NAME", 0, "Tag periods with workload NAME until a workload retags", 0 },
	{ "governor", 'g', "NAME", 0, "Switch to governor NAME for the run, from a fresh start (restored after)", 0 },
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
	case OPT_NO_SELECT_PROBES:
		env.no_select_probes = true;
		break;
	case OPT_SHARED_RINGBUF:
		env.shared_ringbuf = true;
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

static void sig_handler(int sig)
{
	exiting = 1;
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
static int read_state_table(struct idlescope_state *states)
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
	struct pipeline pl;		/* aggregate + shadow replay */
	FILE *recf;			/* -r */
	int rec_error;
	int agg_error;			/* first agg_add() error, reported once */
	__u64 received;
	__u64 received_at_last_draw;
};

static FILE *create_record_file(const char *path, const struct run *run, int nr_cpus,
				const struct report_meta *meta)
{
	struct recfile_header hdr;
	FILE *f;

	runinfo_header(&hdr, meta, run->pl.states, run->pl.nr_states, nr_cpus);
	f = recfile_create(path, &hdr);
	if (!f)
		fprintf(stderr, "idlescope: error: creating %s: %s\n", path, strerror(errno));
	return f;
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct idlescope_record rec;
	struct run *run = ctx;
	int err;

	if (size < sizeof(rec))
		return 0;
	run->received++;
	if (run->recf && !run->rec_error && fwrite(data, sizeof(rec), 1, run->recf) != 1) {
		run->rec_error = -EIO;
		fprintf(stderr, "idlescope: error: writing %s: %s\n", env.record_path,
			strerror(errno));
	}
	err = pipeline_add(&run->pl, data);
	if (err && !run->agg_error) {
		run->agg_error = err;
		fprintf(stderr, "idlescope: warning: record not aggregated: %s "
			"(counted in the report)\n", strerror(-err));
	}
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
		total->selects += vals[cpu].selects;
		total->lost_selects += vals[cpu].lost_selects;
	}
}

/*
 * The live view of the current workload (dashboard.c).  On a terminal it
 * redraws in place; into a pipe or file it appends one block per interval.
 */
static void draw_dashboard(struct run *run, const struct live *lv, int nr_cpus,
			   double elapsed, double interval)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS], total;
	struct dashboard_status status = {
		.elapsed_s = elapsed,
		.periods_per_s = (run->received - run->received_at_last_draw) / interval,
		.records = run->received,
	};

	if (live_read_counters(lv, vals))
		memset(vals, 0, sizeof(vals));
	sum_counters(vals, nr_cpus, &total);
	status.dropped = total.dropped;
	run->received_at_last_draw = run->received;
	if (isatty(STDOUT_FILENO))
		printf("\033[H\033[J");
	dashboard_draw(stdout, run->pl.agg, &status);
	fflush(stdout);
}

static void fill_meta_from_agg(struct report_meta *meta, struct run *run);

/* The BPF side's own per-CPU view: entries and exits pair up, drops show. */
static void print_counters(const struct live *lv, int nr_cpus)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {}, total;
	struct idlescope_lateness lat;
	int cpu;

	live_read_counters(lv, vals);
	printf("%-4s %12s %12s %12s %12s\n", "CPU", "ENTRIES", "EXITS", "RECORDS", "DROPPED");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		printf("%-4d %12llu %12llu %12llu %12llu\n", cpu, vals[cpu].entries,
		       vals[cpu].exits, vals[cpu].records, vals[cpu].dropped);
	sum_counters(vals, nr_cpus, &total);
	if (lv->caps & IDLESCOPE_CAP_SELECT_PROBES)
		printf("selects probed: %llu, lost (no idle entry after them): %llu\n",
		       total.selects, total.lost_selects);
	if ((lv->caps & IDLESCOPE_CAP_LATENESS) && !live_read_lateness(lv, &lat) && lat.count)
		printf("timer lateness: %llu sleeps, mean %.1f us, max %.1f us\n", lat.count,
		       lat.sum_ns / 1e3 / lat.count, lat.max_ns / 1e3);
}

static void fill_meta(struct report_meta *meta, struct run *run,
		      const struct live *lv, int nr_cpus, double duration_s)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {};
	int cpu, i;

	meta->duration_s = duration_s;
	meta->nr_cpus = nr_cpus;
	meta->ringbuf_size_bytes = env.ringbuf_bytes;
	live_read_counters(lv, vals);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		meta->records_produced[cpu] = vals[cpu].records;
		meta->dropped_records[cpu] = vals[cpu].dropped;
	}
	for (i = 0; i < lv->nr_skipped; i++)
		report_meta_add_skipped(meta, lv->skipped[i].prog, lv->skipped[i].reason);
	meta->capabilities = lv->caps;
	if (lv->caps & IDLESCOPE_CAP_LATENESS)
		live_read_lateness(lv, &meta->lateness);
	meta->shadow_replay_resets = run->pl.replay->replay_resets;
	fill_meta_from_agg(meta, run);
}

/* What the report header says about workloads, governors and predictions. */
static void fill_meta_from_agg(struct report_meta *meta, struct run *run)
{
	struct agg_key key = { .workload = -1 };
	int w;

	for (w = 0; w < agg_nr_workloads(run->pl.agg); w++)
		report_meta_add_workload(meta, agg_workload_name(run->pl.agg, w));
	while (agg_next(run->pl.agg, &key)) {
		const struct agg_stats *st = agg_get(run->pl.agg, key.workload, key.governor, key.cpu);
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

/* DIR/plots/<workload>.svg for every workload, as summary.md links them. */
static int write_plots(const struct agg *agg, const struct reportdir *rd)
{
	char path[PATH_MAX], name[256];
	int w, n, err;

	err = reportdir_path(rd, PLOT_DIR, path, sizeof(path));
	if (err)
		return err;
	if (mkdir(path, 0755))
		return -errno;
	for (w = 0; w < agg_nr_workloads(agg); w++) {
		err = plot_file_name(agg, w, name, sizeof(name));
		if (!err) {
			n = snprintf(path, sizeof(path), "%s/%s/%s", rd->tmp, PLOT_DIR, name);
			err = n < 0 || n >= (int)sizeof(path) ? -ENAMETOOLONG :
			      plot_write_ratio_svg(agg, w, path);
		}
		if (err)
			return err;
	}
	return 0;
}

/* -o DIR: report.txt, report.json, summary.md and plots/, as one set. */
static int write_report_set(struct run *run, const struct report_meta *meta)
{
	static const char *const names[] = {
		"report.txt", "report.json", "summary.md", PLOT_DIR,
	};
	static const report_doc_fprint_fn writers[] = {
		report_fprint_text, report_fprint_json, report_fprint_summary,
	};
	struct reportdir rd;
	char path[PATH_MAX];
	unsigned int i;
	int err;

	err = reportdir_begin(&rd, env.outdir);
	for (i = 0; i < ARRAY_SIZE(writers) && !err; i++) {
		err = reportdir_path(&rd, names[i], path, sizeof(path));
		if (!err)
			err = report_write_doc(path, writers[i], run->pl.agg, meta);
	}
	if (!err)
		err = write_plots(run->pl.agg, &rd);
	if (!err)
		err = reportdir_commit(&rd, names, ARRAY_SIZE(names));
	else
		reportdir_abort(&rd);
	if (err)
		fprintf(stderr, "idlescope: error: writing the reports into %s: %s\n",
			env.outdir, strerror(-err));
	return err;
}

/* stdout gets the report; -o DIR gets the report set. */
static int write_reports(struct run *run, const struct report_meta *meta)
{
	if (env.json)
		report_fprint_json(stdout, run->pl.agg, meta);
	else
		report_fprint_text(stdout, run->pl.agg, meta);
	return env.outdir ? write_report_set(run, meta) : 0;
}

/*
 * A name from a record file as one CSV field: quoted when it holds a
 * comma or a quote (doubled), control and non-ASCII bytes as \xNN so that
 * nothing reaches a terminal raw.
 */
static void print_csv_field(const char *s, size_t size)
{
	size_t len = strnlen(s, size), i;
	bool quote = strcspn(s, ",\"") < len;

	if (quote)
		putchar('"');
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"')
			fputs("\"\"", stdout);
		else if (c < 0x20 || c >= 0x7f || c == '\\')
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	if (quote)
		putchar('"');
}

static void dump_record(const struct idlescope_record *rec)
{
	printf("%u,%llu,%llu,%llu,%lld,%llu,%lld,%d,%d,%s,%#x,", rec->cpu,
	       rec->enter_ns, rec->residency_ns, rec->kernel_residency_ns,
	       rec->predicted_ns == IDLESCOPE_UNKNOWN_NS ? -1LL : (long long)rec->predicted_ns,
	       rec->next_timer_ns, rec->latency_req_ns, rec->state, rec->chosen_state,
	       agg_governor_name(rec->governor), rec->flags);
	print_csv_field(rec->workload, sizeof(rec->workload));
	printf(",%u,%u,%u,%u,%u\n", rec->typical_interval_us, rec->lost_selects,
	       rec->exit_latency_ns, rec->target_residency_ns, rec->seq);
}

/* `idlescope dump FILE`: the raw records as CSV, one period a line. */
static int dump_command(int argc, char **argv)
{
	struct idlescope_record rec;
	enum recfile_status ret;
	struct recfile rf;

	if (argc != 3) {
		fprintf(stderr, "idlescope: error: usage: idlescope dump FILE\n");
		return 1;
	}
	if (recfile_open(&rf, argv[2])) {
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
		return 1;
	}
	printf("cpu,enter_ns,residency_ns,kernel_residency_ns,predicted_ns,next_timer_ns,"
	       "latency_req_ns,state,chosen_state,governor,flags,workload,"
	       "typical_interval_us,lost_selects,exit_latency_ns,target_residency_ns,seq\n");
	while ((ret = recfile_read(&rf, &rec)) == RECFILE_RECORD)
		dump_record(&rec);
	if (ret == RECFILE_CUT_SHORT)
		fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n", argv[2]);
	else if (ret == RECFILE_BAD)
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
	recfile_close(&rf);
	return ret == RECFILE_BAD;
}

/*
 * Replay one record file into the run and its metadata.  0, or -EINVAL
 * after one error line (a record that contradicts the header).
 */
static int report_add_file(struct run *run, struct report_meta *meta, struct recfile *rf,
			   bool first)
{
	__u64 records_read[IDLESCOPE_MAX_CPUS];
	bool cut_short;
	int err;

	err = pipeline_add_file(&run->pl, rf, first, records_read, &cut_short);
	if (err) {
		fprintf(stderr, "idlescope: error: %s\n", rf->error);
		return err;
	}
	if (cut_short) {
		fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n",
			rf->path);
		meta->records_cut_short++;
	}
	if (!rf->complete)
		fprintf(stderr, "idlescope: warning: %s: the loader did not finish it: "
			"duration and drop counts unknown\n", rf->path);
	runinfo_add_recfile(meta, rf, records_read, first);
	meta->shadow_replay_resets += run->pl.replay->replay_resets;
	return 0;
}

/*
 * Open the next record file of a report and check that it fits the
 * others: not one of them again, the same setup as @first (NULL for the
 * first file), the same state table.
 */
static int report_open_file(struct recfile *rf, const char *path, const struct recfile *first,
			    const struct stat *seen, int nr_seen)
{
	char err_msg[512];
	int i;

	if (recfile_open(rf, path)) {
		fprintf(stderr, "idlescope: error: %s\n", rf->error);
		return -EINVAL;
	}
	for (i = 0; i < nr_seen; i++) {
		if (seen[i].st_dev == rf->dev && seen[i].st_ino == rf->ino) {
			fprintf(stderr, "idlescope: error: %s: given twice: "
				"its periods would count twice\n", path);
			return -EINVAL;
		}
	}
	if (first && runinfo_check_same_setup(first, rf, err_msg, sizeof(err_msg))) {
		fprintf(stderr, "idlescope: error: %s\n", err_msg);
		return -EINVAL;
	}
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
	struct recfile first = {}, rf = {};
	struct report_meta meta;
	struct run run = {};
	struct stat *seen = NULL;
	int opt, i, err = 0;

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
	if (env.outdir && reportdir_check(env.outdir))
		return 1;
	seen = calloc(argc, sizeof(*seen));
	if (!seen)
		return 1;

	report_meta_init(&meta);
	for (i = optind; i < argc && !err; i++) {
		err = report_open_file(&rf, argv[i], i == optind ? NULL : &first,
				       seen, i - optind);
		if (!err)
			err = report_add_file(&run, &meta, &rf, i == optind);
		seen[i - optind].st_dev = rf.dev;
		seen[i - optind].st_ino = rf.ino;
		if (i == optind) {
			first = rf;
			first.f = NULL;		/* closed below: only its header is used */
			first.buf = NULL;
		}
		recfile_close(&rf);
	}
	if (!err) {
		fill_meta_from_agg(&meta, &run);
		err = write_reports(&run, &meta);
	}
	recfile_close(&rf);
	pipeline_free(&run.pl);
	free(seen);
	return err ? 1 : 0;
}

static double elapsed_s(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* `idlescope [OPTIONS]`: the live run. */
static int live_command(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
	};
	struct live lv = {};
	struct live_opts lv_opts = {
		.on_record = handle_record,
	};
	struct run run = {};
	struct report_meta meta;
	struct timespec start;
	__u64 usage_at_start = 0;
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	int nr_states;
	char saved_governor[64] = "", other_governor[64] = "";
	bool pinned = false;
	double next_draw;
	int nr_cpus, err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return err;

	live_set_verbose(env.verbose);
	report_meta_init(&meta);
	runinfo_read_system(&meta);

	if (env.outdir && reportdir_check(env.outdir))
		return 1;
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
	err = pipeline_init(&run.pl, states, nr_states, meta.hz);
	if (err) {
		fprintf(stderr, "idlescope: error: %s\n", strerror(-err));
		goto cleanup;
	}

	lv_opts.btf_path = env.btf_path;
	lv_opts.ringbuf_bytes = env.ringbuf_bytes;
	lv_opts.no_predict = env.no_predict;
	lv_opts.no_select_probes = env.no_select_probes;
	lv_opts.shared_ringbuf = env.shared_ringbuf;
	lv_opts.ctx = &run;
	err = live_load(&lv, &lv_opts);
	if (err)
		goto cleanup;
	err = live_attach(&lv);
	if (err)
		goto cleanup;
	/* The record file's header says what this run could observe. */
	meta.capabilities = lv.caps;
	mode_print(env.json ? stderr : stdout, lv.caps, meta.cpuidle_driver);
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
		err = write_tag(bpf_map__fd(lv.obj->maps.workload), env.workload);
		if (err) {
			fprintf(stderr, "idlescope: error: setting workload tag: %s\n",
				strerror(-err));
			goto cleanup;
		}
	}
	mkdir(IDLESCOPE_PIN_DIR, 0755);
	unlink(IDLESCOPE_TAG_PIN);
	err = bpf_map__pin(lv.obj->maps.workload, IDLESCOPE_TAG_PIN);
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
		err = live_poll(&lv, POLL_TIMEOUT_MS);
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
			draw_dashboard(&run, &lv, nr_cpus, elapsed_s(&start), env.interval_s);
			next_draw += env.interval_s;
		}
	}
	/* Detach first so the drained buffer is the last word. */
	meta.sysfs_usage_delta = sysfs_usage_sum(nr_cpus) - usage_at_start;
	err = live_detach_drain(&lv);
	if (err < 0) {
		fprintf(stderr, "idlescope: error: draining ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}

	fill_meta(&meta, &run, &lv, nr_cpus, elapsed_s(&start));
	if (run.recf && !run.rec_error) {
		struct recfile_trailer trailer;

		runinfo_trailer(&trailer, &meta, lv.nr_ringbufs ? lv.nr_ringbufs : 1);
		run.rec_error = recfile_finish(run.recf, &trailer, run.received);
		run.recf = NULL;
		if (run.rec_error)
			fprintf(stderr, "idlescope: error: closing %s: %s\n", env.record_path,
				strerror(-run.rec_error));
	}
	err = write_reports(&run, &meta);
	if (!env.json)
		print_counters(&lv, nr_cpus);
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
	live_destroy(&lv);
	pipeline_free(&run.pl);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc > 1 && !strcmp(argv[1], "tag"))
		ret = tag_command(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "dump"))
		ret = dump_command(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "report"))
		ret = report_command(argc, argv);
	else if (argc > 1 && !strcmp(argv[1], "compare"))
		ret = compare_command(argc, argv);
	else
		ret = live_command(argc, argv);
	/* A full disk or a closed pipe: the output is not all there. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "idlescope: error: writing to stdout: %s\n",
			errno ? strerror(errno) : "I/O error");
		return 1;
	}
	return ret;
}
