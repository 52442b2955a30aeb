// SPDX-License-Identifier: GPL-2.0
/*
 * eventsrc.c - the workload list's EVENTS field (see eventsrc.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "runinfo/eventsrc.h"

#define EVENT_SOURCE_WORD(id, word, what)	[EVENTS_##id] = #word,
static const char *const words[EVENTS_NR] = {
	[EVENTS_UNKNOWN] = "unknown",
	EVENT_SOURCES(EVENT_SOURCE_WORD)
};
#undef EVENT_SOURCE_WORD

#define EVENT_SOURCE_WHAT(id, word, what)	[EVENTS_##id] = what,
static const char *const whats[EVENTS_NR] = {
	[EVENTS_UNKNOWN] = "not in the workload list",
	EVENT_SOURCES(EVENT_SOURCE_WHAT)
};
#undef EVENT_SOURCE_WHAT

const char *event_source_word(enum event_source source)
{
	return source < EVENTS_NR ? words[source] : words[EVENTS_UNKNOWN];
}

const char *event_source_what(enum event_source source)
{
	return source < EVENTS_NR ? whats[source] : whats[EVENTS_UNKNOWN];
}

static enum event_source source_of_word(const char *word)
{
	int s;

	for (s = EVENTS_UNKNOWN + 1; s < EVENTS_NR; s++)
		if (!strcmp(words[s], word))
			return s;
	return EVENTS_UNKNOWN;
}

/* One line of the list; 0, 1 for a line without a workload, -1 (err set). */
static int parse_line(struct event_sources *es, char *line, const char *path,
		      int lineno, char *err, size_t size)
{
	char *save, *name = strtok_r(line, " \t\r\n", &save);
	char *suites = name ? strtok_r(NULL, " \t\r\n", &save) : NULL;
	char *word = suites ? strtok_r(NULL, " \t\r\n", &save) : NULL;
	enum event_source source;

	if (!name || name[0] == '#')
		return 1;
	source = word ? source_of_word(word) : EVENTS_UNKNOWN;
	if (source == EVENTS_UNKNOWN)
		snprintf(err, size, "%s:%d: workload %s: EVENTS must be timer, ipi, device or host, not '%s'",
			 path, lineno, name, word ? word : "");
	else if (strlen(name) > IDLESCOPE_WORKLOAD_LEN - 1)
		snprintf(err, size, "%s:%d: workload name '%s' is longer than %d characters",
			 path, lineno, name, IDLESCOPE_WORKLOAD_LEN - 1);
	else if (es->nr == EVENTSRC_MAX_WORKLOADS)
		snprintf(err, size, "%s:%d: more than %d workloads", path, lineno,
			 EVENTSRC_MAX_WORKLOADS);
	else {
		snprintf(es->name[es->nr], sizeof(es->name[es->nr]), "%s", name);
		es->source[es->nr++] = source;
		return 0;
	}
	return -1;
}

int event_sources_read(struct event_sources *es, const char *path, char *err, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int lineno = 0, ret = 0;

	memset(es, 0, sizeof(*es));
	if (!f) {
		snprintf(err, size, "%s: cannot read the workload list: %s", path, strerror(errno));
		return -1;
	}
	while (ret >= 0 && fgets(line, sizeof(line), f))
		ret = parse_line(es, line, path, ++lineno, err, size);
	fclose(f);
	return ret < 0 ? -1 : 0;
}

enum event_source event_source_of(const struct event_sources *es, const char *workload)
{
	int i;

	for (i = 0; i < es->nr; i++)
		if (!strcmp(es->name[i], workload))
			return es->source[i];
	return EVENTS_UNKNOWN;
}
