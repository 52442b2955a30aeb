// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - `idlescope dump FILE`: the raw records as CSV, a header line
 * naming the columns, then one idle period a line in file order; with
 * --summary, the summaries the BPF side of a light run keeps, added up
 * from the records instead (stats/summaries.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cmd/cli.h"
#include "cmd/dump.h"
#include "cmd/recset.h"
#include "format/escape.h"
#include "stats/aggregate.h"
#include "recfile.h"
#include "governors.h"
#include "runinfo/runinfo.h"
#include "stats/period.h"
#include "stats/summaries.h"
#include "stats/wakeup.h"

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

/* predicted_ns as itself, or -1 for IDLESCOPE_UNKNOWN_NS (docs/record-file.md). */
static void print_predicted(__u64 predicted_ns)
{
	if (predicted_ns == IDLESCOPE_UNKNOWN_NS)
		fputs("-1", stdout);
	else
		printf("%llu", (unsigned long long)predicted_ns);
}

/* What ended the period: its source, numbers and the label the reports use. */
static void print_wake(const struct idlescope_record *rec, const struct recfile *rf,
		       const struct wake_names *names)
{
	bool polling = rec->state >= 0 && (__u32)rec->state < rf->hdr.nr_states &&
		       rf->hdr.states[rec->state].polling;
	const char *source = wake_source_name(rec->wake_source);
	char label[WAKE_LABEL_LEN + WAKE_NAME_LEN];
	struct wake_class cls;

	if (!(rec->flags & IDLESCOPE_F_HAS_WAKE)) {
		printf(",,,,");
		return;
	}
	wake_class_of(rec, polling, names, &cls);
	wake_class_label(&cls, label, sizeof(label));
	if (source)
		printf(",%s,%#llx,%u,", source, (unsigned long long)rec->wake_fn, rec->wake_irq);
	else
		printf(",%u,%#llx,%u,", rec->wake_source, (unsigned long long)rec->wake_fn,
		       rec->wake_irq);
	print_csv_field(label, sizeof(label));
}

static void dump_record(const struct idlescope_record *rec, const struct recfile *rf,
			const struct wake_names *names)
{
	printf("%u,%llu,%llu,%llu,", rec->cpu, (unsigned long long)rec->enter_ns,
	       (unsigned long long)rec->residency_ns,
	       (unsigned long long)rec->kernel_residency_ns);
	print_predicted(rec->predicted_ns);
	printf(",%llu,%lld,%d,%d,%s,%#x,", (unsigned long long)rec->next_timer_ns,
	       (long long)rec->latency_req_ns, rec->state, rec->chosen_state,
	       governor_name(rec->governor), rec->flags);
	print_csv_field(rec->workload, sizeof(rec->workload));
	printf(",%u,%u,%u,%u,%u,%d,%lld,%lld,%lld", rec->typical_interval_us, rec->lost_selects,
	       rec->exit_latency_ns, rec->target_residency_ns, rec->seq, rec->delta_tick_ns,
	       rec->flags & IDLESCOPE_F_EXIT_TIMED ? (long long)rec->exit_ns : -1LL,
	       rec->flags & IDLESCOPE_F_SLEEP_WOKE ? (long long)rec->sleep_late_ns : -1LL,
	       rec->tick_adjusted_ns == IDLESCOPE_UNKNOWN_NS ? -1LL :
	       (long long)rec->tick_adjusted_ns);
	print_wake(rec, rf, names);
	putchar('\n');
}

/*
 * The summaries of the file's records, as a light run's BPF side keeps
 * them and prints them (docs/bpf.md); 0, or -1 with the error printed.
 */
static int dump_summaries(struct recfile *rf, enum recfile_status *ret)
{
	const struct idlescope_record *rec;
	struct summaries set = {};
	struct period_exits exits;
	int err = 0;

	period_exits_of(&exits, rf->hdr.states, rf->hdr.nr_states,
			rf->hdr.exit_cost == RECFILE_EXIT_COST_ON);
	while (!err && (rec = recfile_next(rf, ret)))
		err = summaries_add_record(&set, rec, exits.untimed_ns);
	if (err) {
		fprintf(stderr, "idlescope: error: summing the records: %s\n", strerror(-err));
	} else if (*ret != RECFILE_BAD) {
		/* A line for every CPU of the run, as its BPF side has them. */
		set.nr_cpus = rf->hdr.nr_cpus;
		summaries_print(stdout, &set);
	}
	summaries_free(&set);
	return err ? -1 : 0;
}

static const char dump_doc[] =
"Print a record file's records as CSV: a header line naming the columns,\n"
"then one idle period a line, in file order (docs/record-file.md); the\n"
"wake-up columns are empty for a record that has none.  With --summary,\n"
"print instead the summaries a light run's BPF side keeps (its -o DIR's\n"
"summaries.txt, docs/bpf.md), added up from the records, and their count\n"
"and checksum per CPU.\n"
"\v" CLI_EXIT_DOC;

static const struct argp_option dump_opts[] = {
	{ "summary", 's', NULL, 0, "The records' summaries, as a light run's BPF side "
	  "prints them", 0 },
	{},
};

struct dump_args {
	const char *path;
	bool summary;
};

static error_t dump_parse(int key, char *arg, struct argp_state *state)
{
	struct dump_args *args = state->input;

	switch (key) {
	case 's':
		args->summary = true;
		return 0;
	case ARGP_KEY_ARG:
		if (args->path)
			cli_usage_error("usage: idlescope dump FILE (one file, not '%s' too)", arg);
		args->path = arg;
		return 0;
	case ARGP_KEY_NO_ARGS:
		cli_usage_error("usage: idlescope dump FILE");
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int dump_command(int argc, char **argv)
{
	static const struct argp argp = {
		.options = dump_opts,
		.parser = dump_parse,
		.args_doc = "FILE",
		.doc = dump_doc,
	};
	const struct idlescope_record *rec;
	struct dump_args args = {};
	struct wake_names names;
	enum recfile_status ret;
	struct recfile rf;

	cli_parse(&argp, "dump", argc, argv, &args);
	if (recfile_open(&rf, args.path)) {
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
		return CLI_EXIT_ERROR;
	}
	if (args.summary) {
		if (dump_summaries(&rf, &ret)) {
			recfile_close(&rf);
			return CLI_EXIT_ERROR;
		}
		goto end;
	}
	printf("cpu,enter_ns,residency_ns,kernel_residency_ns,predicted_ns,next_timer_ns,"
	       "latency_req_ns,state,chosen_state,governor,flags,workload,"
	       "typical_interval_us,lost_selects,exit_latency_ns,target_residency_ns,seq,"
	       "delta_tick_ns,exit_ns,sleep_late_ns,tick_adjusted_ns,"
	       "wake_source,wake_fn,wake_irq,wake\n");
	runinfo_wake_names(&rf, &names);
	while ((rec = recfile_next(&rf, &ret)))
		dump_record(rec, &rf, &names);
end:
	if (ret == RECFILE_BAD)
		fprintf(stderr, "idlescope: error: %s\n", rf.error);
	else
		recset_warn_end(&rf, ret == RECFILE_CUT_SHORT);
	recfile_close(&rf);
	return ret == RECFILE_BAD ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}
