// SPDX-License-Identifier: GPL-2.0
/*
 * extract.c - `idlescope extract FILE [-w WORKLOAD] [-g GOVERNOR] [--all |
 * --window MS] [-o TRACE]`: a miss made into a reproducer.
 *
 * From a record file, the periods of one workload (and governor) become a
 * sleep trace (lib/trace.h, docs/trace-format.md): per CPU, each time it
 * had nothing to run and what woke it, which the replay workload plays
 * back in the guest.  By default only the worst-scoring stretch: the
 * window of --window milliseconds (200) whose share of predictions within
 * 2x of the actual period is lowest (of a governor that predicts nothing,
 * the share of periods the kernel's cpu_idle_miss passed), with one window
 * before and after it, so that the governor's history is warm when the
 * stretch begins; --all: every period.
 *
 * The sleeps need to know which wake-up had a task to run
 * (IDLESCOPE_F_WAKE_RESCHED): records without wake-up sources are
 * refused.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/cli.h"
#include "cmd/extract.h"
#include "cmd/recset.h"
#include "format/escape.h"
#include "governors.h"
#include "output/file.h"
#include "recfile.h"
#include "runinfo/runinfo.h"
#include "stats/buckets.h"
#include "stats/period.h"
#include "stats/wakeup.h"
#include "trace.h"

#define NS_PER_MS		1000000ULL
#define DEFAULT_WINDOW_MS	200
/* Fewer scored periods in a window say nothing about it. */
#define MIN_WINDOW_SCORED	50
/*
 * The kernel's clock is a signed 64-bit count of ns (ktime_t): a period
 * that ends later is no time of CLOCK_MONOTONIC.  Within it, every sum
 * below (a window's end, a sleep's) stays far from 2^64.
 */
#define MAX_TIME_NS		(1ULL << 63)

/* What extract keeps of a record. */
struct kept_period {
	__u64 enter_ns;
	__u64 residency_ns;
	__u64 exit_cost_ns;		/* of the residency, spent after the wake-up */
	__u32 flags;
	__u16 cpu;
	bool scored;			/* counts in a window's score */
	bool good;			/* ... and is a hit */
	enum trace_kind kind;
	char what[TRACE_WHAT_LEN];
};

struct extract {
	const char *path, *workload, *out;
	char shown[256];		/* the path for messages: escaped */
	int governor;			/* -1: any */
	bool all;
	__u64 window_ns;
	struct recfile rf;
	__u64 cpu_end_ns[IDLESCOPE_MAX_CPUS];	/* where each CPU's last period ended */
	struct wake_names names;
	struct period_exits exits;	/* of the header's states, its exit cost */
	struct kept_period *periods;
	size_t nr, alloc;
	bool predictions;		/* some period had one */
	__u64 without_wake;		/* periods without wake-up sources, skipped */
};

static enum trace_kind kind_of_source(unsigned int source)
{
	switch (source) {
	case IDLESCOPE_WAKE_TICK:
		return TRACE_TICK;
	case IDLESCOPE_WAKE_HRTIMER:
	case IDLESCOPE_WAKE_TIMER:
		return TRACE_TIMER;
	case IDLESCOPE_WAKE_IPI:
		return TRACE_IPI;
	case IDLESCOPE_WAKE_IRQ:
		return TRACE_DEVICE;
	case IDLESCOPE_WAKE_NO_IPI:
		return TRACE_POLLED;
	default:
		return TRACE_UNKNOWN;
	}
}

static bool selected(const struct extract *x, const struct idlescope_record *rec)
{
	return (!x->workload || !strncmp(rec->workload, x->workload, IDLESCOPE_WORKLOAD_LEN)) &&
	       (x->governor < 0 || rec->governor == x->governor);
}

static int keep(struct extract *x, const struct idlescope_record *rec)
{
	const struct recfile_header *hdr = &x->rf.hdr;
	bool polling = rec->state >= 0 && (__u32)rec->state < hdr->nr_states &&
		       hdr->states[rec->state].polling;
	bool predicted = (rec->flags & IDLESCOPE_F_PREDICTED) && rec->predicted_ns &&
			 rec->predicted_ns != IDLESCOPE_UNKNOWN_NS;
	struct wake_class cls;
	struct kept_period *p;

	if (x->nr == x->alloc) {
		x->alloc = x->alloc ? 2 * x->alloc : 4096;
		p = realloc(x->periods, x->alloc * sizeof(*p));
		if (!p)
			return -ENOMEM;
		x->periods = p;
	}
	p = &x->periods[x->nr++];
	p->enter_ns = rec->enter_ns;
	p->residency_ns = rec->residency_ns;
	/* What the state spent after the wake-up, as every score has it. */
	p->exit_cost_ns = rec->residency_ns - period_woke_ns(rec, &x->exits);
	p->flags = rec->flags;
	p->cpu = rec->cpu;
	p->kind = kind_of_source(rec->wake_source);
	wake_class_of(rec, polling, &x->names, &cls);
	wake_class_label(&cls, p->what, sizeof(p->what));
	if (predicted) {
		p->scored = true;
		p->good = agg_within_ratio(rec->predicted_ns,
					   rec->residency_ns - p->exit_cost_ns, 2, 1);
	} else {
		p->scored = false;
		p->good = !(rec->flags & (IDLESCOPE_F_MISS_ABOVE | IDLESCOPE_F_MISS_BELOW));
	}
	x->predictions |= predicted;
	return 0;
}

/*
 * A CPU's periods come in the order it had them, one after the other:
 * one that enters before the last one ended is a record repeated or
 * overlapping another, and one that ends past MAX_TIME_NS no time at all.
 * Either would put sleeps in a trace that no run had.  0, or -EINVAL
 * after one error line.
 */
static int check_time(struct extract *x, const struct idlescope_record *rec)
{
	unsigned long long nr = x->rf.nr_read, enter_ns = rec->enter_ns;

	if (rec->enter_ns > MAX_TIME_NS || rec->residency_ns > MAX_TIME_NS - rec->enter_ns) {
		fprintf(stderr, "idlescope: error: %s: record %llu: cpu %u's period of %llu ns "
			"from %llu ns ends past 2^63 ns, no time of the kernel's clock\n", x->shown,
			nr, rec->cpu, (unsigned long long)rec->residency_ns, enter_ns);
		return -EINVAL;
	}
	if (rec->enter_ns < x->cpu_end_ns[rec->cpu]) {
		fprintf(stderr, "idlescope: error: %s: record %llu: cpu %u's period enters at %llu ns, "
			"before its last one ended (%llu ns): records repeated or overlapping\n",
			x->shown, nr, rec->cpu, enter_ns,
			(unsigned long long)x->cpu_end_ns[rec->cpu]);
		return -EINVAL;
	}
	x->cpu_end_ns[rec->cpu] = rec->enter_ns + rec->residency_ns;
	return 0;
}

static int read_periods(struct extract *x)
{
	const struct idlescope_record *rec;
	enum recfile_status status = RECFILE_END;
	int err = 0;

	runinfo_wake_names(&x->rf, &x->names);
	while (!err && (rec = recfile_next(&x->rf, &status))) {
		err = check_time(x, rec);
		if (err || !selected(x, rec))
			continue;
		if (!(rec->flags & IDLESCOPE_F_HAS_WAKE))
			x->without_wake++;
		else if ((err = keep(x, rec)))
			fprintf(stderr, "idlescope: error: %s: %s\n", x->shown, strerror(-err));
	}
	if (err)
		return err;
	if (status == RECFILE_BAD) {
		fprintf(stderr, "idlescope: error: %s\n", x->rf.error);
		return -EINVAL;
	}
	recset_warn_end(&x->rf, status == RECFILE_CUT_SHORT);
	if (!x->nr) {
		fprintf(stderr, "idlescope: error: %s: %s\n", x->shown, x->without_wake ?
			"its records have no wake-up sources: record them with this idlescope" :
			"no period of that workload and governor");
		return -ENOENT;
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct kept_period *x = a, *y = b;

	if (x->enter_ns != y->enter_ns)
		return x->enter_ns < y->enter_ns ? -1 : 1;
	return x->cpu - y->cpu;
}

/*
 * Of a governor that predicts, a period counts when it has a prediction;
 * of one that does not, every period does (the kernel's verdict).
 */
static bool counts(const struct extract *x, const struct kept_period *p)
{
	return !x->predictions || p->scored;
}

/* The share of good periods among the counted ones of [lo, hi); -1 with too few. */
static double window_score(const struct extract *x, size_t lo, size_t hi)
{
	size_t i, scored = 0, good = 0;

	for (i = lo; i < hi; i++) {
		if (!counts(x, &x->periods[i]))
			continue;
		scored++;
		good += x->periods[i].good;
	}
	return scored >= MIN_WINDOW_SCORED ? (double)good / scored : -1;
}

/*
 * The worst window's start, periods sorted by time: windows every quarter
 * window, each with MIN_WINDOW_SCORED scored periods or more.  Sets
 * *@score to its share of good periods (-1: no window had enough).  The
 * starts of windows without a period are skipped, so a stretch of hours
 * without one costs nothing (check_time() keeps every time below 2^63).
 */
static __u64 worst_window(const struct extract *x, double *score)
{
	__u64 first = x->periods[0].enter_ns, last = x->periods[x->nr - 1].enter_ns;
	__u64 start, best_start = first, step = x->window_ns / 4 ? x->window_ns / 4 : 1;
	size_t lo = 0, hi = 0;
	double share;

	*score = -1;
	for (start = first;;) {
		while (lo < x->nr && x->periods[lo].enter_ns < start)
			lo++;
		while (hi < x->nr && x->periods[hi].enter_ns < start + x->window_ns)
			hi++;
		share = window_score(x, lo, hi);
		if (share >= 0 && (*score < 0 || share < *score)) {
			*score = share;
			best_start = start;
		}
		if (last - start < step)
			break;
		start += step;
		while (lo < x->nr && x->periods[lo].enter_ns < start)
			lo++;
		/* An empty window: on to the first one that holds the next period. */
		if (x->periods[lo].enter_ns - start >= x->window_ns)
			start += ((x->periods[lo].enter_ns - start - x->window_ns) / step + 1) * step;
	}
	return best_start;
}

/* The share of good periods among those counted in [from, to). */
static double share_between(const struct extract *x, __u64 from, __u64 to)
{
	size_t i, scored = 0, good = 0;

	for (i = 0; i < x->nr; i++) {
		if (x->periods[i].enter_ns < from || x->periods[i].enter_ns >= to ||
		    !counts(x, &x->periods[i]))
			continue;
		scored++;
		good += x->periods[i].good;
	}
	return scored ? 100.0 * good / scored : 0.0;
}

/*
 * One CPU's periods in [from, to) as sleeps: each from the first period
 * after the CPU last ran a task to the wake-up of the first period whose
 * wake-up had one (IDLESCOPE_F_WAKE_RESCHED): its end less the exit
 * latency spent after the wake-up, which a replay's kernel spends again.
 */
static int cpu_sleeps(const struct extract *x, int cpu, __u64 from, __u64 to,
		      struct trace *t)
{
	struct trace_sleep s = { .cpu = cpu };
	bool open = false;
	size_t i;
	int err = 0;

	for (i = 0; i < x->nr && !err; i++) {
		const struct kept_period *p = &x->periods[i];

		if (p->cpu != cpu || p->enter_ns < from || p->enter_ns >= to)
			continue;
		if (!open) {
			s.start_ns = p->enter_ns - t->origin_ns;
			open = true;
		}
		if (!(p->flags & IDLESCOPE_F_WAKE_RESCHED))
			continue;
		s.length_ns = p->enter_ns + p->residency_ns - p->exit_cost_ns - t->origin_ns -
			      s.start_ns;
		s.kind = p->kind;
		snprintf(s.what, sizeof(s.what), "%s", p->what);
		err = trace_add(t, &s);
		open = false;
	}
	return err;
}

struct trace_doc {
	const struct trace *t;
	const char *comment;
};

static int fprint_trace(FILE *f, const void *ctx)
{
	const struct trace_doc *doc = ctx;

	/* trace_write()'s -EIO, or what the stream's errno says went wrong. */
	return trace_write(f, doc->t, doc->comment) ? output_stream_status(f) : 0;
}

/*
 * The trace to -o: written whole and renamed over the file (a full disk
 * leaves the previous trace, not a cut one that reads as a shorter run),
 * or, for something that is not a file (a device, a FIFO), into it.
 */
static int write_out(const char *path, const struct trace_doc *doc)
{
	struct stat st;
	FILE *f;
	int err;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return output_write_file(path, fprint_trace, doc);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	err = fprint_trace(f, doc);
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int write_trace(struct extract *x, __u64 from, __u64 to, const char *comment)
{
	struct trace t = {};
	struct trace_doc doc = { &t, comment };
	char out[256];
	size_t i;
	int cpu, err = 0;

	t.tick_ns = x->rf.hdr.hz ? 1000000000ULL / x->rf.hdr.hz : 0;
	t.nr_cpus = x->rf.hdr.nr_cpus;
	for (i = 0, t.origin_ns = to; i < x->nr; i++)
		if (x->periods[i].enter_ns >= from && x->periods[i].enter_ns < t.origin_ns)
			t.origin_ns = x->periods[i].enter_ns;
	for (cpu = 0; cpu < t.nr_cpus && !err; cpu++)
		err = cpu_sleeps(x, cpu, from, to, &t);
	trace_sort(&t);
	if (!err)
		err = x->out ? write_out(x->out, &doc) : fprint_trace(stdout, &doc);
	escape_name(out, sizeof(out), x->out ? x->out : "stdout", SIZE_MAX);
	if (err)
		fprintf(stderr, "idlescope: error: writing %s: %s\n", out, strerror(-err));
	else if (x->out)
		fprintf(stderr, "idlescope: %zu sleeps on %d CPUs into %s\n", t.nr, t.nr_cpus, out);
	trace_free(&t);
	return err;
}

static int run_extract(struct extract *x)
{
	__u64 from, to, start;
	char comment[512];
	double worst;
	int n;

	qsort(x->periods, x->nr, sizeof(*x->periods), by_time);
	from = x->periods[0].enter_ns;
	to = x->periods[x->nr - 1].enter_ns + 1;
	n = snprintf(comment, sizeof(comment), "from %s: workload %s, governor %s, exit cost %s\n",
		     x->shown, x->workload ? x->workload : "(any)",
		     x->governor < 0 ? "(any)" : governor_name(x->governor),
		     recfile_exit_cost_name(x->rf.hdr.exit_cost));
	if (!x->all) {
		start = worst_window(x, &worst);
		if (worst < 0) {
			fprintf(stderr, "idlescope: error: %s: no window of %llu ms has %d scored "
				"periods: a longer --window, or --all\n", x->shown,
				(unsigned long long)(x->window_ns / NS_PER_MS), MIN_WINDOW_SCORED);
			return -ENOENT;
		}
		snprintf(comment + n, sizeof(comment) - n,
			 "worst %llu ms: %.1f%% %s, the run %.1f%%; with a window before and after",
			 (unsigned long long)(x->window_ns / NS_PER_MS), 100 * worst,
			 x->predictions ? "within 2x" : "not missed (cpu_idle_miss)",
			 share_between(x, from, to));
		from = start > from + x->window_ns ? start - x->window_ns : from;
		to = start + 2 * x->window_ns < to ? start + 2 * x->window_ns : to;
	} else {
		snprintf(comment + n, sizeof(comment) - n, "every period: %.1f%% %s",
			 share_between(x, from, to),
			 x->predictions ? "within 2x" : "not missed (cpu_idle_miss)");
	}
	return write_trace(x, from, to, comment);
}

enum {
	OPT_ALL = 0x100,
	OPT_WINDOW,
};

static const char extract_doc[] =
"Write the sleeps of a record file's worst-scoring stretch (or, with --all,\n"
"of every period) as a trace that the replay workload plays back\n"
"(docs/trace-format.md): a miss made into a reproducer.\n"
"\n"
"The worst stretch: of the windows of --window milliseconds, the one with the\n"
"lowest share of predictions within 2x (of a governor that predicts nothing,\n"
"of periods the kernel's cpu_idle_miss passed), with a window either side.\n"
"\v" CLI_EXIT_DOC;

static const struct argp_option extract_options[] = {
	{ "workload", 'w', "NAME", 0, "Only the periods tagged NAME", 0 },
	{ "governor", 'g', "NAME", 0, "Only the periods governor NAME chose", 0 },
	{ "output", 'o', "TRACE", 0, "Write the trace into TRACE (default stdout)", 0 },
	{ "all", OPT_ALL, NULL, 0, "Every period, not only the worst stretch", 0 },
	{ "window", OPT_WINDOW, "MS", 0, "The worst stretch's window (default 200 ms)", 0 },
	{},
};

static error_t extract_parse(int key, char *arg, struct argp_state *state)
{
	struct extract *x = state->input;

	switch (key) {
	case 'w':
		cli_check_workload_name(arg);
		x->workload = arg;
		return 0;
	case 'g':
		x->governor = governor_id(arg);
		if (x->governor < 0)
			cli_usage_error("-g %s: no such governor", arg);
		return 0;
	case 'o':
		x->out = arg;
		return 0;
	case OPT_ALL:
		x->all = true;
		return 0;
	case OPT_WINDOW:
		x->window_ns = cli_parse_integer(arg, "--window", 1, 3600000) * NS_PER_MS;
		return 0;
	case ARGP_KEY_ARG:
		if (x->path)
			cli_usage_error("usage: idlescope extract FILE (one file, not '%s' too)", arg);
		x->path = arg;
		return 0;
	case ARGP_KEY_NO_ARGS:
		cli_usage_error("usage: idlescope extract FILE [-w WORKLOAD] [-g GOVERNOR] "
				"[--all | --window MS] [-o TRACE]");
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int extract_command(int argc, char **argv)
{
	static const struct argp argp = {
		.options = extract_options,
		.parser = extract_parse,
		.args_doc = "FILE",
		.doc = extract_doc,
	};
	struct extract x = { .governor = -1, .window_ns = DEFAULT_WINDOW_MS * NS_PER_MS };
	int err;

	cli_parse(&argp, "extract", argc, argv, &x);
	escape_name(x.shown, sizeof(x.shown), x.path, SIZE_MAX);
	if (recfile_open(&x.rf, x.path)) {
		fprintf(stderr, "idlescope: error: %s\n", x.rf.error);
		return CLI_EXIT_ERROR;
	}
	period_exits_of(&x.exits, x.rf.hdr.states, x.rf.hdr.nr_states,
			x.rf.hdr.exit_cost == RECFILE_EXIT_COST_ON);
	err = read_periods(&x);
	if (!err)
		err = run_extract(&x);
	recfile_close(&x.rf);
	free(x.periods);
	return err ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}
