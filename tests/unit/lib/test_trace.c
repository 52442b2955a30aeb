// SPDX-License-Identifier: GPL-2.0
/*
 * test_trace - the sleep trace's text format (lib/trace.h): a trace
 * written and read back is the same trace; every malformed one is refused
 * with its line number and what is wrong.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"
#include "check.h"

static int read_text(const char *text, struct trace *t, char *err, size_t size)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret = trace_read(f, t, err, size);

	fclose(f);
	return ret;
}

static void test_round_trip(void)
{
	static const struct trace_sleep sleeps[] = {
		{ .start_ns = 500, .length_ns = 10, .cpu = 1, .kind = TRACE_TIMER,
		  .what = "hrtimer hrtimer_wakeup" },
		{ .start_ns = 0, .length_ns = 400, .cpu = 0, .kind = TRACE_IPI },
		{ .start_ns = 400, .length_ns = 0, .cpu = 0, .kind = TRACE_DEVICE,
		  .what = "irq 4 ttyS0" },
		{ .start_ns = 500, .length_ns = 7, .cpu = 0, .kind = TRACE_POLLED },
		{ .start_ns = 600, .length_ns = 3, .cpu = 2, .kind = TRACE_TICK, .what = "tick" },
		{ .start_ns = 18446744073709550000ULL, .length_ns = 1, .cpu = 2,
		  .kind = TRACE_UNKNOWN },
	};
	struct trace t = { .tick_ns = 4000000, .origin_ns = 123456789, .nr_cpus = 3 }, back;
	char *text = NULL, err[128] = "";
	size_t size = 0, i;
	FILE *f = open_memstream(&text, &size);
	bool same;

	for (i = 0; i < ARRAY_SIZE(sleeps); i++)
		trace_add(&t, &sleeps[i]);
	trace_sort(&t);
	trace_write(f, &t, "two lines\nof comment");
	fclose(f);
	check(!read_text(text, &back, err, sizeof(err)), "trace: what trace_write() writes reads back",
	      "%s", err);
	same = back.nr == t.nr && back.tick_ns == t.tick_ns && back.origin_ns == t.origin_ns &&
	       back.nr_cpus == t.nr_cpus;
	for (i = 0; same && i < t.nr; i++)
		same = !memcmp(&back.sleeps[i], &t.sleeps[i], sizeof(t.sleeps[i]));
	check(same, "trace: ... the same trace, sleeps in order of start then CPU", "%s", text);
	check(t.sleeps[0].cpu == 0 && t.sleeps[2].start_ns == 500 && t.sleeps[2].cpu == 0 &&
	      t.sleeps[3].cpu == 1, "trace: trace_sort() orders by start, then CPU", "%s", text);
	check(strstr(text, "# two lines\n# of comment\n") &&
	      strstr(text, "sleep 0 400 0 device irq 4 ttyS0\n") &&
	      strstr(text, "sleep 0 0 400 ipi\n") && strstr(text, "sleep 2 600 3 tick tick\n"),
	      "trace: comments and sleeps as docs/trace-format.md shows them", "%s", text);
	free(text);
	trace_free(&t);
	trace_free(&back);
}

static void test_refused(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "", "line 0: empty" },
		{ "idlescope-trace 1\n", "line 1: not an idlescope trace of version 2" },
		{ "# a comment first is fine\nidlescope-trace 2\nsleep 0 0 1 ipi\n",
		  "line 3: a sleep before the cpus line" },
		{ "idlescope-trace 2\ncpus 9\n", "line 2: cpus is not 1 to 8" },
		{ "idlescope-trace 2\ncpus 2\ncpus 2\n", "line 3: keyword given twice" },
		{ "idlescope-trace 2\nfrob 1\n", "line 2: unknown keyword" },
		{ "idlescope-trace 2\ntick_ns -5\n", "line 2: its value is not a number" },
		{ "idlescope-trace 2\ncpus 2\nsleep 2 0 1 ipi\n", "line 3: CPU is not a number below cpus" },
		{ "idlescope-trace 2\ncpus 2\nsleep 0 0 1 nap\n",
		  "line 3: KIND is not tick, timer, ipi, device, polled or unknown" },
		{ "idlescope-trace 2\ncpus 2\nsleep 0 0 1\n",
		  "line 3: expected sleep CPU START_NS LENGTH_NS KIND [WHAT]" },
		{ "idlescope-trace 2\ncpus 2\nsleep 0 18446744073709551615 1 ipi\n",
		  "line 3: START_NS and LENGTH_NS are not numbers of ns" },
		{ "idlescope-trace 2\ncpus 2\nsleep 0 10 1 ipi\nsleep 1 5 1 ipi\n",
		  "line 4: sleeps are not in order of start" },
		{ "idlescope-trace 2\ncpus 2\nsleep 0 10 10 ipi\nsleep 0 15 1 ipi\n",
		  "line 4: the sleep begins before the CPU's last one ends" },
		{ "idlescope-trace 2\ncpus 2\nsleep 0 10 10 ipi\ncpus 2\n",
		  "line 4: keyword given twice" },
		{ "idlescope-trace 2\ntick_ns 1\nsleep 0 10 10 ipi\n", "line 3: a sleep before the cpus line" },
		{ "idlescope-trace 2\ntick_ns 1\n", "line 2: no cpus line" },
	};
	char err[128];
	struct trace t;
	unsigned int i, ok = 0;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		if (read_text(bad[i].text, &t, err, sizeof(err)) && !strcmp(err, bad[i].err) &&
		    !t.nr && !t.sleeps)
			ok++;
		else
			printf("# case %u: '%s'\n", i, err);
	}
	CHECK_EQ("trace: each malformed trace is refused with its line and reason", ok,
		 ARRAY_SIZE(bad));
}

int main(void)
{
	test_round_trip();
	test_refused();
	return check_done();
}
