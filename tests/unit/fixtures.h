/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixtures.h - what the host tests of the loader's reports share: records
 * made by hand, a state table, reading back what a report wrote, and the
 * JSON checker's path.  Included once by each test program, after check.h.
 */
#ifndef __IDLESCOPE_TEST_FIXTURES_H
#define __IDLESCOPE_TEST_FIXTURES_H

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "idlescope.h"
#include "stats/aggregate.h"

#define US	1000ULL		/* ns per us */

/*
 * Hand-made state table (ns): 0 POLL 0/0, 1 C1 target 2000 exit 2000,
 * 2 C1E target 20000 exit 10000, 3 C6 target 100000 exit 70000.  The
 * aggregate's cross-check and the reports' state rows are checked on it.
 */
static const struct agg_state_info test_states[] __attribute__((unused)) = {
	{ .target_residency_ns = 0,      .exit_latency_ns = 0 },
	{ .target_residency_ns = 2000,   .exit_latency_ns = 2000 },
	{ .target_residency_ns = 20000,  .exit_latency_ns = 10000 },
	{ .target_residency_ns = 100000, .exit_latency_ns = 70000 },
};

/* One governed period in @state, the prediction not read. */
static inline struct idlescope_record make_record(const char *workload,
						 int governor, int cpu, int state,
						 __u64 residency_ns)
{
	struct idlescope_record rec;

	memset(&rec, 0, sizeof(rec));
	memcpy(rec.workload, workload, strnlen(workload, IDLESCOPE_WORKLOAD_LEN));
	rec.governor = governor;
	rec.cpu = cpu;
	rec.state = state;
	rec.chosen_state = state;
	rec.residency_ns = residency_ns;
	rec.predicted_ns = IDLESCOPE_UNKNOWN_NS;
	rec.flags = IDLESCOPE_F_SELECTED;
	return rec;
}

/* The same, in state 1, with a prediction the governor made. */
static inline struct idlescope_record make_prediction(const char *workload,
						     int governor, int cpu,
						     __u64 predicted_ns,
						     __u64 residency_ns)
{
	struct idlescope_record rec = make_record(workload, governor, cpu, 1,
						  residency_ns);

	rec.predicted_ns = predicted_ns;
	rec.flags |= IDLESCOPE_F_PREDICTED;
	return rec;
}

/* The whole file, NUL-terminated; NULL if it cannot be read. */
static inline char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long size;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = calloc(1, size + 1);
	if (fread(buf, 1, size, f) != (size_t)size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Number of directory entries other than . and .. */
static inline int count_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int nr = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			nr++;
	closedir(d);
	return nr;
}

/* tests/check_report_json.py, the folder above this file, or $CHECK_REPORT_JSON. */
static inline const char *check_script(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("CHECK_REPORT_JSON");
	const char *slash = strrchr(__FILE__, '/');

	if (env)
		return env;
	snprintf(path, sizeof(path), "%.*s../check_report_json.py",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
	return path;
}

#endif /* __IDLESCOPE_TEST_FIXTURES_H */
