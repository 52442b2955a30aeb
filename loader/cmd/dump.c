// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - `idlescope dump FILE`: the raw records as CSV, a header line
 * naming the columns, then one idle period a line in file order.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cmd/dump.h"
#include "format/escape.h"
#include "stats/aggregate.h"
#include "recfile.h"

/*
 * A record's workload tag (16 bytes, no NUL if it fills them) as one CSV
 * field: escaped (format/escape.h), then quoted when it holds a comma or
 * a quote (doubled).
 */
static void print_csv_field(const char *s, size_t size)
{
	char name[ESCAPE_SIZE(IDLESCOPE_WORKLOAD_LEN)];
	const char *c;

	escape_name(name, sizeof(name), s, size);
	if (!strpbrk(name, ",\"")) {
		fputs(name, stdout);
		return;
	}
	putchar('"');
	for (c = name; *c; c++) {
		if (*c == '"')
			putchar('"');
		putchar(*c);
	}
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

int dump_command(int argc, char **argv)
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
