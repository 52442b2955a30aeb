// SPDX-License-Identifier: GPL-2.0
/*
 * summaries.c - a run's summaries, from the kernel or from records (see
 * summaries.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "format/escape.h"
#include "stats/summaries.h"

struct idlescope_summary *summaries_get(struct summaries *set, const char *workload, int cpu)
{
	char name[IDLESCOPE_WORKLOAD_LEN + 1] = "";
	struct summary_entry *e;
	int i;

	strncpy(name, workload, IDLESCOPE_WORKLOAD_LEN);
	for (i = 0; i < set->nr; i++) {
		e = &set->entries[i];
		if (e->cpu == cpu && !strcmp(e->workload, name))
			return &e->s;
	}
	if (set->nr == set->cap) {
		int cap = set->cap ? 2 * set->cap : 16;

		e = realloc(set->entries, cap * sizeof(*e));
		if (!e)
			return NULL;
		set->entries = e;
		set->cap = cap;
	}
	e = &set->entries[set->nr++];
	memset(e, 0, sizeof(*e));
	memcpy(e->workload, name, sizeof(name));
	e->cpu = cpu;
	return &e->s;
}

int summaries_add_record(struct summaries *set, const struct idlescope_record *rec,
			 const __u64 *untimed_exit_ns)
{
	struct idlescope_summary *s;

	if (rec->cpu >= IDLESCOPE_MAX_CPUS)
		return -EINVAL;
	s = summaries_get(set, rec->workload, rec->cpu);
	if (!s)
		return -ENOMEM;
	idlescope_summary_add(s, rec, untimed_exit_ns);
	set->records[rec->cpu]++;
	set->record_sum[rec->cpu] += idlescope_record_sum(rec);
	set->has_record_sum = true;
	if ((int)rec->cpu >= set->nr_cpus)
		set->nr_cpus = rec->cpu + 1;
	return 0;
}

static void add_summary(struct idlescope_summary *sum, const struct idlescope_summary *s)
{
	const __u64 *from = (const __u64 *)s;
	__u64 *to = (__u64 *)sum;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(__u64); i++)
		to[i] += from[i];
}

bool summaries_total(const struct summaries *set, const char *workload,
		     struct idlescope_summary *sum)
{
	bool found = false;
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < set->nr; i++) {
		if (strcmp(set->entries[i].workload, workload))
			continue;
		add_summary(sum, &set->entries[i].s);
		found = true;
	}
	return found;
}

static int compare_entries(const void *a, const void *b)
{
	const struct summary_entry *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);

	return c ? c : x->cpu - y->cpu;
}

static void print_array(FILE *f, const char *prefix, const char *suffix,
			const __u64 *vals, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		fprintf(f, " %s%d%s=%llu", prefix, i, suffix, (unsigned long long)vals[i]);
}

static void print_entry(FILE *f, const struct summary_entry *e)
{
	const struct idlescope_summary *s = &e->s;
	int i = 0;

	fprintf(f, "summary cpu=%d periods=%llu woke_ns=%llu miss_above=%llu miss_below=%llu "
		"predicted=%llu", e->cpu, (unsigned long long)s->periods,
		(unsigned long long)s->woke_ns, (unsigned long long)s->miss_above,
		(unsigned long long)s->miss_below, (unsigned long long)s->predicted);
#define PRINT_WITHIN(num, den, label) \
	fprintf(f, " within_%s=%llu", label, (unsigned long long)s->within[i++]);
	IDLESCOPE_FACTORS(PRINT_WITHIN)
#undef PRINT_WITHIN
	print_array(f, "state", "_periods", s->state_periods, IDLESCOPE_MAX_STATES);
	print_array(f, "state", "_woke_ns", s->state_woke_ns, IDLESCOPE_MAX_STATES);
	print_array(f, "woke_us_log2_", "", s->woke_us_log2, IDLESCOPE_SUMMARY_LOG2_SLOTS);
	fputs(" workload=", f);
	escape_fputs(f, e->workload, IDLESCOPE_WORKLOAD_LEN);
	fputc('\n', f);
}

void summaries_sort(struct summaries *set)
{
	if (set->nr)
		qsort(set->entries, set->nr, sizeof(*set->entries), compare_entries);
}

void summaries_print(FILE *f, struct summaries *set)
{
	int i, cpu;

	summaries_sort(set);
	for (i = 0; i < set->nr; i++)
		print_entry(f, &set->entries[i]);
	for (cpu = 0; cpu < set->nr_cpus; cpu++) {
		fprintf(f, "counters cpu=%d records=%llu", cpu,
			(unsigned long long)set->records[cpu]);
		if (set->has_record_sum)
			fprintf(f, " record_sum=0x%016llx", (unsigned long long)set->record_sum[cpu]);
		fputc('\n', f);
	}
}

void summaries_free(struct summaries *set)
{
	free(set->entries);
	memset(set, 0, sizeof(*set));
}
