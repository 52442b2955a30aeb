// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - `idlescope dump FILE`: the raw records as CSV, a header line
 * naming the columns, then one idle period a line in file order.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cmd/dump.h"
#include "stats/aggregate.h"
#include "recfile.h"
#include "governors.h"

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
	       governor_name(rec->governor), rec->flags);
	print_csv_field(rec->workload, sizeof(rec->workload));
	printf(",%u,%u,%u,%u,%u,%d\n", rec->typical_interval_us, rec->lost_selects,
	       rec->exit_latency_ns, rec->target_residency_ns, rec->seq,
	       rec->delta_tick_ns);
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
	       "typical_interval_us,lost_selects,exit_latency_ns,target_residency_ns,seq,"
	       "delta_tick_ns\n");
	while ((ret = recfile_read(&rf, &rec)) == RECFILE_RECORD)
		dump_record(&rec);
	if (ret == RECFILE_CUT_SHORT)
		fprintf(stderr, "idlescope: warning: %s: last record cut short, ignored\n", argv[2]);
	else if (ret == RECFILE_BAD)
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
	recfile_close(&rf);
	return ret == RECFILE_BAD;
}
