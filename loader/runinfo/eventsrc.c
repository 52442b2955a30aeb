// SPDX-License-Identifier: GPL-2.0
/*
 * eventsrc.c - the workload list's EVENTS field (see eventsrc.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "runinfo/eventsrc.h"
#include "format/escape.h"
#include "infile.h"

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
	char shown[ESCAPE_SIZE(32)], shown_word[ESCAPE_SIZE(16)];
	enum event_source source;

	if (!name || name[0] == '#')
		return 1;
	escape_name(shown, sizeof(shown), name, 32);
	source = word ? source_of_word(word) : EVENTS_UNKNOWN;
	if (source == EVENTS_UNKNOWN)
		snprintf(err, size, "%s:%d: workload %s: EVENTS must be timer, ipi, device or host, "
			 "not '%s'", path, lineno, shown,
			 escape_name(shown_word, sizeof(shown_word), word ? word : "", 16));
	else if (strlen(name) > IDLESCOPE_WORKLOAD_LEN - 1)
		snprintf(err, size, "%s:%d: workload name '%s' is longer than %d characters",
			 path, lineno, shown, IDLESCOPE_WORKLOAD_LEN - 1);
	else if (event_source_of(es, name) != EVENTS_UNKNOWN)
		snprintf(err, size, "%s:%d: workload %s is listed twice", path, lineno, shown);
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
	char line[EVENTSRC_LINE_LEN + 2], shown[ESCAPE_SIZE(128)];
	int lineno = 0, ret = 0;
	const char *why;
	FILE *f;

	memset(es, 0, sizeof(*es));
	escape_name(shown, sizeof(shown), path, SIZE_MAX);
	f = infile_open(path, NULL, &why);
	if (!f) {
		snprintf(err, size, "%s: cannot read the workload list: %s", shown, why);
		return -1;
	}
	while (ret >= 0 && fgets(line, sizeof(line), f)) {
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, size, "%s:%d: a line longer than %d bytes", shown, lineno + 1,
				 EVENTSRC_LINE_LEN);
			ret = -1;
		} else {
			ret = parse_line(es, line, shown, ++lineno, err, size);
		}
	}
	if (ret >= 0 && ferror(f)) {
		snprintf(err, size, "%s: %s", shown, strerror(errno));
		ret = -1;
	}
	fclose(f);
	if (ret >= 0 && !es->nr) {
		snprintf(err, size, "%s: no workload in the list", shown);
		ret = -1;
	}
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
