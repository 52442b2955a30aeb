// SPDX-License-Identifier: GPL-2.0
/*
 * runinfo.c - a run's metadata into a record file's header and trailer,
 * and back (see runinfo/runinfo.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/lateness.h"
#include "stats/sat.h"
#include "runinfo/runinfo.h"
#include "format/escape.h"

_Static_assert(RECFILE_NAME_FUNCTION == WAKE_NAME_FUNCTION && RECFILE_NAME_IRQ == WAKE_NAME_IRQ,
	       "a record file's name kinds are stats/wakeup.h's");
_Static_assert(RECFILE_MAX_NAMES == WAKE_MAX_NAMES && RECFILE_NAME_LEN == WAKE_NAME_LEN,
	       "a record file's names table holds a struct wake_names");

void runinfo_header(struct recfile_header *hdr, const struct run_meta *meta,
		    const struct idlescope_state *states, unsigned int nr_states,
		    unsigned int nr_cpus)
{
	recfile_header_init(hdr);
	hdr->nr_cpus = nr_cpus;
	hdr->nr_states = nr_states;
	hdr->hz = meta->hz;
	hdr->capabilities = meta->capabilities;
	hdr->exit_cost = meta->exit_cost;
	hdr->run_position = meta->run_position;
	hdr->guest_insn_ps = meta->insn_ps_lo;	/* the one measurement so far */
	memcpy(hdr->states, states, sizeof(*states) * nr_states);
	snprintf(hdr->kernel_release, sizeof(hdr->kernel_release), "%s", meta->kernel_release);
	snprintf(hdr->cpuidle_driver, sizeof(hdr->cpuidle_driver), "%s", meta->cpuidle_driver);
	snprintf(hdr->clock_mode, sizeof(hdr->clock_mode), "%s", meta->clock_mode);
	snprintf(hdr->clock_args, sizeof(hdr->clock_args), "%s", meta->clock_args);
	snprintf(hdr->boot_id, sizeof(hdr->boot_id), "%s", meta->boot_id);
}

void runinfo_trailer(struct recfile_trailer *t, const struct run_meta *meta,
		     unsigned int nr_ringbufs)
{
	int cpu, i;

	memset(t, 0, sizeof(*t));
	memcpy(t->magic, RECFILE_TRAILER_MAGIC, sizeof(t->magic));
	t->start_time = meta->start_time;
	t->duration_s = meta->duration_s;
	t->ringbuf_size_bytes = meta->ringbuf_size_bytes;
	t->sysfs_usage_delta = meta->sysfs_usage_delta;
	t->nr_ringbufs = nr_ringbufs;
	for (cpu = 0; cpu < meta->nr_cpus && cpu < IDLESCOPE_MAX_CPUS; cpu++) {
		t->records_produced[cpu] = meta->records_produced[cpu];
		t->dropped_records[cpu] = meta->dropped_records[cpu];
	}
	for (i = 0; i < meta->nr_skipped && i < RECFILE_MAX_SKIPPED; i++) {
		snprintf(t->skipped[i].prog, sizeof(t->skipped[i].prog), "%s",
			 meta->skipped[i].name);
		snprintf(t->skipped[i].reason, sizeof(t->skipped[i].reason), "%s",
			 meta->skipped[i].reason);
	}
	t->nr_skipped = i;
	t->lateness = meta->lateness;
	t->guest_insn_ps_end = meta->insn_ps_end;
	t->sysfs_above_delta = meta->sysfs_above_delta;
	t->sysfs_below_delta = meta->sysfs_below_delta;
	for (i = 0; i < meta->wake_names.nr && i < RECFILE_MAX_NAMES; i++) {
		t->names[i].value = meta->wake_names.names[i].value;
		t->names[i].kind = meta->wake_names.names[i].kind;
		snprintf(t->names[i].name, sizeof(t->names[i].name), "%s",
			 meta->wake_names.names[i].name);
	}
	t->nr_names = i;
}

void runinfo_wake_names(const struct recfile *rf, struct wake_names *names)
{
	const struct recfile_trailer *t = &rf->trailer;
	unsigned int i;

	memset(names, 0, sizeof(*names));
	for (i = 0; rf->complete && i < t->nr_names; i++)
		wake_names_add(names, t->names[i].kind, t->names[i].value, t->names[i].name);
}

static void add_lateness(struct idlescope_lateness *sum, const struct idlescope_lateness *l)
{
	struct idlescope_lateness both[2] = { *sum, *l };

	lateness_sum_cpus(sum, both, 2);
}

/* A skipped program of a trailer: its names bounded by their fields. */
static void add_skipped(struct run_meta *meta, const struct recfile_skipped *skipped)
{
	char prog[sizeof(skipped->prog) + 1], reason[sizeof(skipped->reason) + 1];

	snprintf(prog, sizeof(prog), "%.*s", (int)sizeof(skipped->prog), skipped->prog);
	snprintf(reason, sizeof(reason), "%.*s", (int)sizeof(skipped->reason), skipped->reason);
	run_meta_add_skipped(meta, prog, reason);
}

/* The setup every file of a report shares: from the first one. */
static void meta_from_header(struct run_meta *meta, const struct recfile_header *hdr)
{
	snprintf(meta->kernel_release, sizeof(meta->kernel_release), "%.*s",
		 (int)sizeof(meta->kernel_release) - 1, hdr->kernel_release);
	meta->hz = hdr->hz;
	snprintf(meta->cpuidle_driver, sizeof(meta->cpuidle_driver), "%.*s",
		 (int)sizeof(meta->cpuidle_driver) - 1, hdr->cpuidle_driver);
	snprintf(meta->clock_mode, sizeof(meta->clock_mode), "%.*s",
		 (int)sizeof(hdr->clock_mode), hdr->clock_mode);
	snprintf(meta->clock_args, sizeof(meta->clock_args), "%.*s",
		 (int)sizeof(hdr->clock_args), hdr->clock_args);
	meta->exit_cost = hdr->exit_cost;
}

void runinfo_add_recfile(struct run_meta *meta, const struct recfile *rf,
			 const __u64 *records_read, bool first)
{
	const struct recfile_trailer *t = &rf->trailer;
	unsigned int cpu, i;

	if (first) {
		meta_from_header(meta, &rf->hdr);
		meta->start_time = rf->complete ? t->start_time : 0;
		meta->ringbuf_size_bytes = t->ringbuf_size_bytes;
	}
	/* What every file could observe: a file without a probe lacks it. */
	meta->capabilities = first ? rf->hdr.capabilities :
			     meta->capabilities & rf->hdr.capabilities;
	if ((int)rf->hdr.nr_cpus > meta->nr_cpus)
		meta->nr_cpus = rf->hdr.nr_cpus;
	sat_inc(&meta->seq_lost, rf->seq_lost);
	run_meta_note_insn_ps(meta, rf->hdr.guest_insn_ps);
	if (!rf->complete) {
		meta->nr_untrailed_files++;
		for (cpu = 0; cpu < rf->hdr.nr_cpus; cpu++)
			sat_inc(&meta->records_produced[cpu], records_read[cpu]);
		return;
	}
	if (t->start_time < meta->start_time)
		meta->start_time = t->start_time;
	meta->duration_s += t->duration_s;
	sat_inc(&meta->sysfs_usage_delta, t->sysfs_usage_delta);
	sat_inc(&meta->sysfs_above_delta, t->sysfs_above_delta);
	sat_inc(&meta->sysfs_below_delta, t->sysfs_below_delta);
	for (cpu = 0; cpu < rf->hdr.nr_cpus; cpu++) {
		sat_inc(&meta->records_produced[cpu], t->records_produced[cpu]);
		sat_inc(&meta->dropped_records[cpu], t->dropped_records[cpu]);
	}
	for (i = 0; i < t->nr_skipped; i++)
		add_skipped(meta, &t->skipped[i]);
	add_lateness(&meta->lateness, &t->lateness);
	run_meta_note_insn_ps(meta, t->guest_insn_ps_end);
}

const char *const runinfo_fact_names[RUNINFO_NR_FACTS] = {
	[RUNINFO_CLOCK] = "clock",
	[RUNINFO_HZ] = "hz",
	[RUNINFO_DRIVER] = "driver",
	[RUNINFO_STATES] = "states",
	[RUNINFO_KERNEL] = "kernel",
	[RUNINFO_EXIT_COST] = "exit_cost",
};

/* @hdr's value of @fact, printable (a header string is escaped). */
void runinfo_fact_value(const struct recfile_header *hdr, enum runinfo_fact fact,
			char *buf, size_t size)
{
	switch (fact) {
	case RUNINFO_CLOCK:
		escape_name(buf, size, hdr->clock_mode, sizeof(hdr->clock_mode));
		break;
	case RUNINFO_HZ:
		snprintf(buf, size, "%u", hdr->hz);
		break;
	case RUNINFO_DRIVER:
		escape_name(buf, size, hdr->cpuidle_driver, sizeof(hdr->cpuidle_driver));
		break;
	case RUNINFO_STATES:
		snprintf(buf, size, "%u states", hdr->nr_states);
		break;
	case RUNINFO_KERNEL:
		escape_name(buf, size, hdr->kernel_release, sizeof(hdr->kernel_release));
		break;
	case RUNINFO_EXIT_COST:
		snprintf(buf, size, "%s", recfile_exit_cost_name(hdr->exit_cost));
		break;
	case RUNINFO_NR_FACTS:
		buf[0] = '\0';
		break;
	}
}

/* " (ARGS)" after a clock mode in @buf: QEMU's arguments, escaped. */
static void append_clock_args(char *buf, size_t size, const struct recfile_header *hdr)
{
	char args[ESCAPE_SIZE(RECFILE_CLOCK_ARGS_LEN)];
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, " (%s)",
		 escape_name(args, sizeof(args), hdr->clock_args, sizeof(hdr->clock_args)));
}

void runinfo_fact_values(const struct recfile_header *a, const struct recfile_header *b,
			 enum runinfo_fact fact, char *va, char *vb, size_t size)
{
	runinfo_fact_value(a, fact, va, size);
	runinfo_fact_value(b, fact, vb, size);
	/* One clock mode, other QEMU arguments: those are the difference. */
	if (fact == RUNINFO_CLOCK && !strcmp(va, vb)) {
		append_clock_args(va, size, a);
		append_clock_args(vb, size, b);
	}
}

static bool fact_differs(const struct recfile_header *a, const struct recfile_header *b,
			 enum runinfo_fact fact)
{
	switch (fact) {
	case RUNINFO_CLOCK:
		return strncmp(a->clock_mode, b->clock_mode, sizeof(a->clock_mode)) ||
		       strncmp(a->clock_args, b->clock_args, sizeof(a->clock_args));
	case RUNINFO_HZ:
		return a->hz != b->hz;
	case RUNINFO_DRIVER:
		return strncmp(a->cpuidle_driver, b->cpuidle_driver, sizeof(a->cpuidle_driver));
	case RUNINFO_STATES:
		return a->nr_states != b->nr_states ||
		       memcmp(a->states, b->states, sizeof(a->states[0]) * a->nr_states);
	case RUNINFO_KERNEL:
		return strncmp(a->kernel_release, b->kernel_release, sizeof(a->kernel_release));
	case RUNINFO_EXIT_COST:
		return a->exit_cost != b->exit_cost;
	case RUNINFO_NR_FACTS:
		break;
	}
	return false;
}

int runinfo_setup_difference(const struct recfile_header *a, const struct recfile_header *b,
			     unsigned int facts)
{
	int fact;

	for (fact = 0; fact < RUNINFO_NR_FACTS; fact++)
		if ((facts & (1U << fact)) && fact_differs(a, b, fact))
			return fact;
	return -1;
}

int runinfo_check_same_setup(const struct recfile *first, const struct recfile *rf,
			     char *err, size_t size)
{
	static const unsigned int facts = 1U << RUNINFO_CLOCK | 1U << RUNINFO_HZ |
					  1U << RUNINFO_DRIVER | 1U << RUNINFO_EXIT_COST |
					  1U << RUNINFO_KERNEL;
	char va[ESCAPE_SIZE(RECFILE_RELEASE_LEN)], vb[ESCAPE_SIZE(RECFILE_RELEASE_LEN)];
	char pa[256], pb[256];
	int fact = runinfo_setup_difference(&first->hdr, &rf->hdr, facts);

	if (fact < 0)
		return 0;
	runinfo_fact_values(&first->hdr, &rf->hdr, fact, va, vb, sizeof(va));
	escape_name(pa, sizeof(pa), first->path, SIZE_MAX);
	escape_name(pb, sizeof(pb), rf->path, SIZE_MAX);
	if (fact == RUNINFO_CLOCK)
		snprintf(err, size, "%s: recorded under clock '%s', %s under '%s': "
			 "one report is one setup", pb, vb, pa, va);
	else if (fact == RUNINFO_HZ)
		snprintf(err, size, "%s: recorded with HZ %s, %s with HZ %s: "
			 "one report is one setup", pb, vb, pa, va);
	else if (fact == RUNINFO_EXIT_COST)
		snprintf(err, size, "%s: recorded with exit cost %s, %s with %s: "
			 "one report is one setup", pb, vb, pa, va);
	else if (fact == RUNINFO_KERNEL)
		snprintf(err, size, "%s: recorded on kernel '%s', %s on '%s': one report is "
			 "one setup (compare --across kernel sets two kernels side by side)",
			 pb, vb, pa, va);
	else
		snprintf(err, size, "%s: recorded with cpuidle driver '%s', %s with '%s': "
			 "one report is one setup", pb, vb, pa, va);
	return -1;
}
