// SPDX-License-Identifier: GPL-2.0
/*
 * progstats - one snapshot of what the loaded BPF programs cost and what
 * idlescope's BPF side counted, for the benchmark's before/after deltas.
 *
 * Per program, the kernel's run_cnt and run_time_ns (they only grow while
 * /proc/sys/kernel/bpf_stats_enabled is 1): the run time per event of the
 * probes.  Per idlescope counters map (found by name and value size, as
 * the loader does not pin it), the per-CPU counters summed: records sent
 * and records dropped because the ring buffer was full, at any moment of a
 * run, not only at the loader's exit.
 *
 * One line per object, "KIND NAME id ID FIELD VALUE ...":
 *	prog cpu_idle id 12 run_cnt 81234 run_time_ns 40617000
 *	map counters id 5 entries 81240 exits 81240 records 81238 dropped 0
 * and, first, the guest time one instruction takes now (live/insnrate.h):
 *	clock ps_per_insn 1250
 * Under shift=auto that drifts within a boot, so a run time in guest ns
 * compares with another only as instructions (ns * 1000 / ps_per_insn).
 */
#include <argp.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "args.h"
#include "idlescope.h"
#include "live/insnrate.h"

#define COUNTERS_MAP_NAME	"counters"

const char *argp_program_version = "progstats 0.1";
static const char argp_doc[] =
"Print run_cnt/run_time_ns of every loaded BPF program and idlescope's\n"
"per-CPU counters, summed.\n"
"\n"
"EXAMPLES:\n"
"    echo 1 > /proc/sys/kernel/bpf_stats_enabled; progstats\n";

static int print_progs(void)
{
	struct bpf_prog_info info;
	__u32 id = 0, len;
	int fd, err;

	while (!(err = bpf_prog_get_next_id(id, &id))) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0) {
			if (fd == -ENOENT)
				continue;	/* unloaded since get_next_id */
			err = fd;
			fprintf(stderr, "progstats: error: opening program %u: %s\n", id,
				strerror(-err));
			return err;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
		close(fd);
		if (err) {
			fprintf(stderr, "progstats: error: program %u info: %s\n", id,
				strerror(-err));
			return err;
		}
		printf("prog %s id %u run_cnt %llu run_time_ns %llu\n", info.name, id,
		       (unsigned long long)info.run_cnt,
		       (unsigned long long)info.run_time_ns);
	}
	if (err == -ENOENT)
		return 0;
	fprintf(stderr, "progstats: error: listing programs: %s\n", strerror(-err));
	return err;
}

/*
 * The counters' first fields, whatever the loader's version: the bench
 * compares loaders of several versions in one boot.
 */
struct counters_head {
	__u64 entries;
	__u64 exits;
	__u64 records;
	__u64 dropped;
};

_Static_assert(offsetof(struct idlescope_counters, dropped) ==
	       offsetof(struct counters_head, dropped), "the counters begin the same");

static int print_counters(int fd, __u32 id, __u32 value_size, int nr_cpus)
{
	__u64 vals[IDLESCOPE_MAX_CPUS * 32];
	struct counters_head total = {};
	__u32 stride = (value_size + 7) / 8, zero = 0;
	const struct counters_head *c;
	int cpu, err;

	if (stride * nr_cpus > sizeof(vals) / sizeof(vals[0])) {
		fprintf(stderr, "progstats: error: map %u: %u-byte values\n", id, value_size);
		return -EINVAL;
	}
	err = bpf_map_lookup_elem(fd, &zero, vals);
	if (err) {
		fprintf(stderr, "progstats: error: reading map %u: %s\n", id, strerror(-err));
		return err;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		c = (const struct counters_head *)&vals[cpu * stride];
		total.entries += c->entries;
		total.exits += c->exits;
		total.records += c->records;
		total.dropped += c->dropped;
	}
	printf("map %s id %u entries %llu exits %llu records %llu dropped %llu\n",
	       COUNTERS_MAP_NAME, id, total.entries, total.exits, total.records,
	       total.dropped);
	return 0;
}

static int print_maps(int nr_cpus)
{
	struct bpf_map_info info;
	__u32 id = 0, len;
	int fd, err;

	while (!(err = bpf_map_get_next_id(id, &id))) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0) {
			if (fd == -ENOENT)
				continue;
			err = fd;
			fprintf(stderr, "progstats: error: opening map %u: %s\n", id,
				strerror(-err));
			return err;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
		if (err) {
			fprintf(stderr, "progstats: error: map %u info: %s\n", id, strerror(-err));
		} else if (info.type == BPF_MAP_TYPE_PERCPU_ARRAY &&
			   info.value_size >= sizeof(struct counters_head) &&
			   !strcmp(info.name, COUNTERS_MAP_NAME)) {
			err = print_counters(fd, id, info.value_size, nr_cpus);
		}
		close(fd);
		if (err)
			return err;
	}
	if (err == -ENOENT)
		return 0;
	fprintf(stderr, "progstats: error: listing maps: %s\n", strerror(-err));
	return err;
}

int main(int argc, char **argv)
{
	static const struct argp argp = { .doc = argp_doc };
	int nr_cpus, err;

	args_parse(&argp, argc, argv);
	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus < 0 || nr_cpus > IDLESCOPE_MAX_CPUS) {
		fprintf(stderr, "progstats: error: %d possible CPUs, at most %d supported\n",
			nr_cpus, IDLESCOPE_MAX_CPUS);
		return 1;
	}
	printf("clock ps_per_insn %u\n", insnrate_measure_ps());
	err = print_progs();
	if (!err)
		err = print_maps(nr_cpus);
	return err ? 1 : 0;
}
