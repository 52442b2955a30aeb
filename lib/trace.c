// SPDX-License-Identifier: GPL-2.0
/*
 * The sleep trace's text format (see trace.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

#define LINE_MAX_LEN	256
#define TRACE_STR_(x)	#x
#define TRACE_STR(x)	TRACE_STR_(x)
#define TRACE_VERSION_TEXT	TRACE_STR(TRACE_VERSION)

#define TRACE_KIND_NAME(id, name)	[TRACE_##id] = #name,
static const char *const kind_names[TRACE_NR_KINDS] = {
	TRACE_KINDS(TRACE_KIND_NAME)
};
#undef TRACE_KIND_NAME

const char *trace_kind_name(enum trace_kind kind)
{
	return (unsigned int)kind < TRACE_NR_KINDS ? kind_names[kind] : NULL;
}

static int kind_of(const char *name)
{
	int k;

	for (k = 0; k < TRACE_NR_KINDS; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

int trace_add(struct trace *t, const struct trace_sleep *sleep)
{
	struct trace_sleep *grown;

	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 1024;
		grown = realloc(t->sleeps, t->alloc * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		t->sleeps = grown;
	}
	t->sleeps[t->nr++] = *sleep;
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct trace_sleep *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->cpu - y->cpu;
}

void trace_sort(struct trace *t)
{
	if (t->nr)
		qsort(t->sleeps, t->nr, sizeof(*t->sleeps), by_start);
}

int trace_write(FILE *f, const struct trace *t, const char *comment)
{
	const char *line = comment, *end;
	size_t i;

	fprintf(f, "idlescope-trace %d\n", TRACE_VERSION);
	while (line && *line) {
		end = strchr(line, '\n');
		fprintf(f, "# %.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
		line = end ? end + 1 : NULL;
	}
	fprintf(f, "tick_ns %" PRIu64 "\norigin_ns %" PRIu64 "\ncpus %d\n"
		"# sleep CPU START_NS LENGTH_NS KIND [WHAT]\n", t->tick_ns, t->origin_ns,
		t->nr_cpus);
	for (i = 0; i < t->nr; i++) {
		const struct trace_sleep *s = &t->sleeps[i];

		fprintf(f, "sleep %d %" PRIu64 " %" PRIu64 " %s%s%s\n", s->cpu, s->start_ns,
			s->length_ns, kind_names[s->kind], s->what[0] ? " " : "", s->what);
	}
	return ferror(f) ? -EIO : 0;
}

/* A decimal u64 (no sign, no spaces); false when it is not one. */
static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* "sleep CPU START LENGTH KIND [WHAT]", its fields after "sleep". */
static const char *parse_sleep(char *rest, const struct trace *t, struct trace_sleep *s)
{
	char *cpu, *start, *length, *kind, *what, *save;
	uint64_t v;
	int k;

	memset(s, 0, sizeof(*s));
	cpu = strtok_r(rest, " \t", &save);
	start = strtok_r(NULL, " \t", &save);
	length = strtok_r(NULL, " \t", &save);
	kind = strtok_r(NULL, " \t", &save);
	what = strtok_r(NULL, "", &save);
	if (!kind)
		return "expected sleep CPU START_NS LENGTH_NS KIND [WHAT]";
	if (!t->nr_cpus)
		return "a sleep before the cpus line";
	if (!parse_u64(cpu, &v) || v >= (uint64_t)t->nr_cpus)
		return "CPU is not a number below cpus";
	s->cpu = v;
	if (!parse_u64(start, &s->start_ns) || !parse_u64(length, &s->length_ns) ||
	    s->start_ns + s->length_ns < s->start_ns)
		return "START_NS and LENGTH_NS are not numbers of ns";
	k = kind_of(kind);
	if (k < 0)
		return "KIND is not tick, timer, ipi, device, polled or unknown";
	s->kind = k;
	if (what) {
		what += strspn(what, " \t");
		snprintf(s->what, sizeof(s->what), "%s", what);
	}
	return NULL;
}

/* Sleeps by start; on one CPU each after the end of the one before. */
static const char *check_order(const struct trace *t, const struct trace_sleep *s,
			       uint64_t *cpu_end)
{
	if (t->nr && s->start_ns < t->sleeps[t->nr - 1].start_ns)
		return "sleeps are not in order of start";
	if (s->start_ns < cpu_end[s->cpu])
		return "the sleep begins before the CPU's last one ends";
	cpu_end[s->cpu] = s->start_ns + s->length_ns;
	return NULL;
}

/* A "KEY VALUE" line of the header into its field. */
static const char *parse_header(const char *key, char *value, struct trace *t, unsigned int *seen)
{
	static const char *const keys[] = { "tick_ns", "origin_ns", "cpus" };
	uint64_t v;
	unsigned int i;

	for (i = 0; i < 3 && strcmp(key, keys[i]); i++)
		;
	if (i == 3)
		return "unknown keyword";
	if (*seen & (1U << i))
		return "keyword given twice";
	if (t->nr)
		return "keyword after the sleeps";
	value[strcspn(value, " \t")] = '\0';
	if (!parse_u64(value, &v))
		return "its value is not a number";
	*seen |= 1U << i;
	if (i == 0)
		t->tick_ns = v;
	else if (i == 1)
		t->origin_ns = v;
	else if (v < 1 || v > TRACE_MAX_CPUS)
		return "cpus is not 1 to 8";
	else
		t->nr_cpus = v;
	return NULL;
}

int trace_read(FILE *f, struct trace *t, char *err, size_t err_size)
{
	uint64_t cpu_end[TRACE_MAX_CPUS] = {};
	char line[LINE_MAX_LEN + 2], *key, *rest;
	struct trace_sleep s;
	const char *why = NULL;
	unsigned int seen = 0;
	int nr = 0, ret = -EINVAL;

	memset(t, 0, sizeof(*t));
	while (!why && fgets(line, sizeof(line), f)) {
		nr++;
		if (!strchr(line, '\n') && !feof(f)) {
			why = "line too long";
			break;
		}
		line[strcspn(line, "#\r\n")] = '\0';
		key = line + strspn(line, " \t");
		if (!*key)
			continue;
		rest = key + strcspn(key, " \t");
		if (*rest)
			*rest++ = '\0';
		rest += strspn(rest, " \t");
		if (!(seen & 8)) {
			if (strcmp(key, "idlescope-trace") || strcmp(rest, TRACE_VERSION_TEXT))
				why = "not an idlescope trace of version " TRACE_VERSION_TEXT;
			seen |= 8;
		} else if (strcmp(key, "sleep")) {
			why = parse_header(key, rest, t, &seen);
		} else if (!(why = parse_sleep(rest, t, &s)) &&
			   !(why = check_order(t, &s, cpu_end)) && trace_add(t, &s)) {
			ret = -ENOMEM;
			why = "out of memory";
		}
	}
	if (!why && ferror(f)) {
		ret = -EIO;
		why = "read error";
	}
	if (!why && !t->nr_cpus)
		why = nr ? "no cpus line" : "empty";
	if (!why)
		return 0;
	snprintf(err, err_size, "line %d: %s", nr, why);
	trace_free(t);
	return ret;
}

void trace_free(struct trace *t)
{
	free(t->sleeps);
	memset(t, 0, sizeof(*t));
}
