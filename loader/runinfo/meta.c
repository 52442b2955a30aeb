// SPDX-License-Identifier: GPL-2.0
/* meta.c - a run's metadata lists (see meta.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "runinfo/meta.h"
#include "stats/sat.h"

void run_meta_init(struct run_meta *meta)
{
	struct utsname uts;

	memset(meta, 0, sizeof(*meta));
	if (!uname(&uts))
		snprintf(meta->kernel_release, sizeof(meta->kernel_release),
			 "%s", uts.release);
	meta->start_time = time(NULL);
}

static __u64 sum_cpus(const struct run_meta *meta, const __u64 *per_cpu)
{
	__u64 sum = 0;
	int cpu;

	for (cpu = 0; cpu < meta->nr_cpus && cpu < IDLESCOPE_MAX_CPUS; cpu++)
		sat_inc(&sum, per_cpu[cpu]);
	return sum;
}

__u64 run_meta_produced(const struct run_meta *meta)
{
	return sum_cpus(meta, meta->records_produced);
}

__u64 run_meta_dropped(const struct run_meta *meta)
{
	return sum_cpus(meta, meta->dropped_records);
}

/* Copy src into dst[size]; -ENAMETOOLONG if it had to be cut. */
static int copy_name(char *dst, size_t size, const char *src)
{
	return (size_t)snprintf(dst, size, "%s", src) >= size ?
	       -ENAMETOOLONG : 0;
}

void run_meta_add_run(struct run_meta *meta, const struct run_file *run)
{
	if (meta->nr_runs < RUN_MAX_RUNS)
		meta->runs[meta->nr_runs++] = *run;
}

long run_meta_seed_of_path(const char *path)
{
	const char *p = path, *c;
	long seed = -1, n;
	char *end;

	while ((c = strstr(p, "seed-"))) {
		if (c == path || c[-1] == '/') {
			n = strtol(c + 5, &end, 10);
			if (end != c + 5 && *end == '/' && n >= 0 && n <= INT32_MAX)
				seed = n;
		}
		p = c + 5;
	}
	return seed;
}

int run_meta_add_governor(struct run_meta *meta, const char *name)
{
	if (meta->nr_governors == RUN_MAX_GOVERNORS)
		return -ENOSPC;
	return copy_name(meta->governors[meta->nr_governors++],
			 RUN_NAME_LEN, name);
}

int run_meta_add_workload(struct run_meta *meta, const char *name)
{
	if (meta->nr_workloads == RUN_MAX_WORKLOADS)
		return -ENOSPC;
	return copy_name(meta->workloads[meta->nr_workloads++],
			 RUN_WORKLOAD_NAME_LEN, name);
}

int run_meta_add_skipped(struct run_meta *meta, const char *prog,
			 const char *reason)
{
	struct run_skipped_prog *skipped;
	int err;

	if (meta->nr_skipped == RUN_MAX_SKIPPED)
		return -ENOSPC;
	skipped = &meta->skipped[meta->nr_skipped++];
	err = copy_name(skipped->name, sizeof(skipped->name), prog);
	if (copy_name(skipped->reason, sizeof(skipped->reason), reason))
		err = -ENAMETOOLONG;
	return err;
}

void run_meta_note_insn_ps(struct run_meta *meta, __u32 insn_ps)
{
	if (!insn_ps)
		return;
	if (!meta->insn_ps_lo || insn_ps < meta->insn_ps_lo)
		meta->insn_ps_lo = insn_ps;
	if (insn_ps > meta->insn_ps_hi)
		meta->insn_ps_hi = insn_ps;
}
