// SPDX-License-Identifier: GPL-2.0
/*
 * compare_tool - `idlescope compare` without libbpf, for the host test
 * (tests/cli/compare.sh), plus what the test needs to start from: a
 * record file with a known state table and no records, as bench/genrec's
 * template (-H), and edits of a genrec file that make one side lack
 * something.
 *
 *	compare_tool template FILE [KERNEL [HZ]]
 *	compare_tool drop IN OUT workload|governor NAME
 *	compare_tool kill IN OUT N	the first N records, no trailer: a killed loader's
 *	compare_tool late IN OUT WORKLOAD GOVERNOR
 *		the first period of WORKLOAD under GOVERNOR woken by a sleep
 *		167 s late, as a guest whose time jumped
 *	compare_tool compare A B [OPTION...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/compare.h"
#include "recfile.h"
#include "stats/aggregate.h"
#include "governors.h"

#define US	1000ULL

/* POLL, C1 (2 us), C1E (10 us), C6 (600 us): a small Skylake-like table. */
static int write_template(const char *path, const char *kernel, unsigned int hz)
{
	static const struct idlescope_state states[] = {
		{ .target_residency_ns = 0, .exit_latency_ns = 0, .polling = 1 },
		{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
		{ .target_residency_ns = 20 * US, .exit_latency_ns = 10 * US },
		{ .target_residency_ns = 600 * US, .exit_latency_ns = 133 * US },
	};
	struct recfile_header hdr;
	FILE *f;

	recfile_header_init(&hdr);
	hdr.nr_cpus = 2;
	hdr.nr_states = sizeof(states) / sizeof(states[0]);
	hdr.hz = hz;
	snprintf(hdr.kernel_release, sizeof(hdr.kernel_release), "%s", kernel);
	snprintf(hdr.clock_mode, sizeof(hdr.clock_mode), "virtual");
	memcpy(hdr.states, states, sizeof(states));
	f = recfile_create(path, &hdr);
	if (!f || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

/* What an edit does to each record: keep it (maybe changed) or not. */
struct edit_op {
	const char *field;		/* drop: "workload" or "governor"; late: the workload */
	const char *name;		/* drop: its name; late: the governor */
	unsigned long keep;		/* kill: how many records */
	bool late;
	bool done;			/* late: the period is marked */
	__u64 nr;			/* records kept so far */
};

/* A record's tag as a string. */
static bool has_tag(const struct idlescope_record *rec, const char *name)
{
	char tag[IDLESCOPE_WORKLOAD_LEN + 1] = {};

	memcpy(tag, rec->workload, IDLESCOPE_WORKLOAD_LEN);
	return !strcmp(tag, name);
}

static bool keep_record(struct edit_op *op, struct idlescope_record *rec)
{
	if (op->late) {
		if (!op->done && has_tag(rec, op->field) && rec->governor == governor_id(op->name)) {
			rec->flags |= IDLESCOPE_F_SLEEP_WOKE;
			rec->sleep_late_ns = ~0U;	/* 167 s, capped as the BPF side caps it */
			op->done = true;
		}
		return true;
	}
	if (!op->field)
		return op->nr < op->keep;
	if (!strcmp(op->field, "governor"))
		return rec->governor != governor_id(op->name);
	return !has_tag(rec, op->name);
}

/*
 * A copy of complete file IN, each record through @op; without the
 * trailer when @op keeps only the first records (a killed loader's file).
 */
static int edit(const char *in, const char *out, struct edit_op *op)
{
	struct idlescope_record rec;
	struct recfile rf;
	FILE *f;

	if (recfile_open(&rf, in) || !rf.complete) {
		fprintf(stderr, "compare_tool: %s: %s\n", in, rf.error[0] ? rf.error : "not complete");
		return 1;
	}
	rf.hdr.flags = 0;
	rf.hdr.data_size = 0;
	f = recfile_create(out, &rf.hdr);
	if (!f) {
		perror(out);
		return 1;
	}
	while (recfile_read(&rf, &rec) == RECFILE_RECORD) {
		if (!keep_record(op, &rec))
			continue;
		if (fwrite(&rec, sizeof(rec), 1, f) != 1)
			return 1;
		op->nr++;
	}
	recfile_close(&rf);
	if (!op->field && !op->late)
		return fclose(f) ? 1 : 0;
	return recfile_finish(f, &rf.trailer, op->nr) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && argc <= 5 && !strcmp(argv[1], "template"))
		return write_template(argv[2], argc > 3 ? argv[3] : "template",
				      argc > 4 ? atoi(argv[4]) : 1000);
	struct edit_op op = {};

	if (argc == 6 && !strcmp(argv[1], "drop") &&
	    (!strcmp(argv[4], "workload") || !strcmp(argv[4], "governor"))) {
		op.field = argv[4];
		op.name = argv[5];
		return edit(argv[2], argv[3], &op);
	}
	if (argc == 5 && !strcmp(argv[1], "kill")) {
		op.keep = strtoul(argv[4], NULL, 10);
		return edit(argv[2], argv[3], &op);
	}
	if (argc == 6 && !strcmp(argv[1], "late")) {
		op = (struct edit_op){ .field = argv[4], .name = argv[5], .late = true };
		return edit(argv[2], argv[3], &op) || !op.done;
	}
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_command(argc, argv);
	fprintf(stderr, "usage: compare_tool template FILE [KERNEL [HZ]] | "
		"drop IN OUT workload|governor NAME | kill IN OUT N | "
		"late IN OUT WORKLOAD GOVERNOR | compare A B [OPTION...]\n");
	return 2;
}
