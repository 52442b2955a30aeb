// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope - measure how well cpuidle governors predict idle durations.
 *
 * Loads bpf/idlescope.bpf.c, attaches it to the cpuidle tracepoints and the
 * governors' select functions, and consumes one record per idle period from
 * the ring buffer for -d seconds.
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
#include "idlescope.skel.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

static struct env {
	long duration_s;
	long interval_s;
	long ringbuf_bytes;
	bool verbose;
	bool no_predict;
	const char *workload;
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
"    idlescope -d 2            # count idle periods per CPU for 2 seconds\n"
"    idlescope -w periodic     # tag the periods of this run 'periodic'\n";

enum {
	OPT_NO_PREDICT = 0x100,
};

static const struct argp_option opts[] = {
	{ "duration", 'd', "SECONDS", 0, "Run for SECONDS (default 10)", 0 },
	{ "interval", 'i', "SECONDS", 0, "Refresh every SECONDS (default 1)", 0 },
	{ "workload", 'w', "NAME", 0, "Tag periods with workload NAME until a workload retags", 0 },
	{ "ringbuf", 'b', "BYTES", 0, "Ring buffer size, a power of two >= 4096", 0 },
	{ "no-predict", OPT_NO_PREDICT, NULL, 0, "Do not attach the governor select probes", 0 },
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
	case 'b':
		env.ringbuf_bytes = parse_positive(arg, "ring buffer size", state);
		if (env.ringbuf_bytes < 4096 || (env.ringbuf_bytes & (env.ringbuf_bytes - 1)))
			argp_error(state, "ring buffer size must be a power of two >= 4096, not '%s'",
				   arg);
		break;
	case OPT_NO_PREDICT:
		env.no_predict = true;
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

static int libbpf_print_fn(enum libbpf_print_level level, const char *format, va_list args)
{
	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

static void sig_handler(int sig)
{
	exiting = 1;
}

/*
 * Switch off the programs whose attach point this kernel lacks (no 2010
 * governors on a stock kernel, say), and the select probes on request, so
 * the rest still loads.  Says which and why.
 */
static void disable_missing_targets(struct idlescope_bpf *obj, const struct btf *vmlinux)
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
			if (found && env.no_predict && strstr(target, "select")) {
				printf("idlescope: skipping %s: --no-predict\n",
				       bpf_program__name(prog));
				bpf_program__set_autoload(prog, false);
				continue;
			}
		}
		if (!found) {
			printf("idlescope: skipping %s: %s not in kernel BTF\n",
			       bpf_program__name(prog), target);
			bpf_program__set_autoload(prog, false);
		}
	}
}

static int set_workload_tag(struct idlescope_bpf *obj, const char *name)
{
	struct idlescope_tag tag = {};
	__u32 zero = 0;

	strncpy(tag.name, name, sizeof(tag.name) - 1);
	if (bpf_map_update_elem(bpf_map__fd(obj->maps.workload), &zero, &tag, BPF_ANY))
		return -errno;
	return 0;
}

struct run_stats {
	__u64 records[IDLESCOPE_MAX_CPUS];
};

static int handle_record(void *ctx, void *data, size_t size)
{
	const struct idlescope_record *rec = data;
	struct run_stats *stats = ctx;

	if (size < sizeof(*rec) || rec->cpu >= IDLESCOPE_MAX_CPUS)
		return 0;
	stats->records[rec->cpu]++;
	return 0;
}

static int print_counters(struct idlescope_bpf *obj, const struct run_stats *stats,
			  int nr_cpus)
{
	struct idlescope_counters *vals;
	__u32 zero = 0;
	int err, cpu;

	vals = calloc(nr_cpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = bpf_map_lookup_elem(bpf_map__fd(obj->maps.counters), &zero, vals);
	if (err) {
		err = -errno;
		fprintf(stderr, "idlescope: error: reading counters: %s\n", strerror(-err));
		goto cleanup;
	}
	printf("%-4s %12s %12s %12s %12s %12s\n",
	       "CPU", "ENTRIES", "EXITS", "RECORDS", "RECEIVED", "DROPPED");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		printf("%-4d %12llu %12llu %12llu %12llu %12llu\n", cpu,
		       vals[cpu].entries, vals[cpu].exits, vals[cpu].records,
		       cpu < IDLESCOPE_MAX_CPUS ? stats->records[cpu] : 0ULL,
		       vals[cpu].dropped);
cleanup:
	free(vals);
	return err;
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
	struct idlescope_bpf *obj = NULL;
	struct ring_buffer *rb = NULL;
	struct btf *vmlinux = NULL;
	struct run_stats stats = {};
	struct timespec start;
	int nr_cpus, err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return err;

	libbpf_set_print(libbpf_print_fn);

	if (access(VMLINUX_BTF, R_OK)) {
		fprintf(stderr, "idlescope: error: kernel has no BTF (%s: %s); "
			"build it with CONFIG_DEBUG_INFO_BTF=y\n",
			VMLINUX_BTF, strerror(errno));
		return 1;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "idlescope: error: reading kernel BTF: %s\n", strerror(errno));
		return 1;
	}

	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus < 0 || nr_cpus > IDLESCOPE_MAX_CPUS) {
		fprintf(stderr, "idlescope: error: %d possible CPUs, at most %d supported\n",
			nr_cpus, IDLESCOPE_MAX_CPUS);
		err = -EINVAL;
		goto cleanup;
	}

	obj = idlescope_bpf__open();
	if (!obj) {
		err = -errno;
		fprintf(stderr, "idlescope: error: opening BPF object: %s\n", strerror(-err));
		goto cleanup;
	}
	obj->rodata->observe_predictions = !env.no_predict;
	err = bpf_map__set_max_entries(obj->maps.records, env.ringbuf_bytes);
	if (err) {
		fprintf(stderr, "idlescope: error: sizing the ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}
	disable_missing_targets(obj, vmlinux);

	err = idlescope_bpf__load(obj);
	if (err) {
		fprintf(stderr, "idlescope: error: loading BPF object: %s\n", strerror(-err));
		goto cleanup;
	}
	if (env.workload) {
		err = set_workload_tag(obj, env.workload);
		if (err) {
			fprintf(stderr, "idlescope: error: setting workload tag: %s\n",
				strerror(-err));
			goto cleanup;
		}
	}

	err = idlescope_bpf__attach(obj);
	if (err) {
		fprintf(stderr, "idlescope: error: attaching BPF programs: %s\n", strerror(-err));
		goto cleanup;
	}

	rb = ring_buffer__new(bpf_map__fd(obj->maps.records), handle_record, &stats, NULL);
	if (!rb) {
		err = -errno;
		fprintf(stderr, "idlescope: error: creating ring buffer: %s\n", strerror(-err));
		goto cleanup;
	}

	signal(SIGINT, sig_handler);
	signal(SIGTERM, sig_handler);

	printf("idlescope: watching cpuidle on %d CPUs for %ld s\n", nr_cpus, env.duration_s);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!exiting && elapsed_s(&start) < env.duration_s) {
		err = ring_buffer__poll(rb, 100);
		if (err == -EINTR) {
			err = 0;
			break;
		}
		if (err < 0) {
			fprintf(stderr, "idlescope: error: polling ring buffer: %s\n",
				strerror(-err));
			goto cleanup;
		}
	}
	/* Detach first so the drained buffer is the last word. */
	idlescope_bpf__detach(obj);
	ring_buffer__consume(rb);

	err = print_counters(obj, &stats, nr_cpus);

cleanup:
	ring_buffer__free(rb);
	idlescope_bpf__destroy(obj);
	btf__free(vmlinux);
	return err ? 1 : 0;
}
