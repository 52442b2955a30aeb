/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventsrc.h - where each workload's wake-up events come from, as the
 * workload list says (workloads/suite.txt: NAME SUITES EVENTS COMMAND).
 *
 * Under the virtual clock an event the host times (QEMU's host I/O, a host
 * program) cannot end an idle period early: guest time jumps to the next
 * timer while every CPU idles, and the event lands after it.  The report
 * says which workloads that concerns rather than mixing them in silently.
 */
#ifndef __IDLESCOPE_RUNINFO_EVENTSRC_H
#define __IDLESCOPE_RUNINFO_EVENTSRC_H

#include <stddef.h>
#include <linux/types.h>
#include "idlescope.h"

#define EVENTSRC_MAX_WORKLOADS	64
#define EVENTSRC_LINE_LEN	1022	/* bytes of a line, its newline not counted */

/* The EVENTS words of the workload list, in their order there. */
#define EVENT_SOURCES(X)						\
	X(TIMER, timer, "the guest's own timers")			\
	X(IPI, ipi, "the guest's other CPU (IPIs)")			\
	X(DEVICE, device, "a virtual device counting guest time")	\
	X(HOST, host, "the host (timed by host time)")

#define EVENT_SOURCE_ENUM(id, word, what)	EVENTS_##id,
enum event_source {
	EVENTS_UNKNOWN,
	EVENT_SOURCES(EVENT_SOURCE_ENUM)
	EVENTS_NR,
};
#undef EVENT_SOURCE_ENUM

struct event_sources {
	int nr;
	char name[EVENTSRC_MAX_WORKLOADS][IDLESCOPE_WORKLOAD_LEN + 1];
	unsigned char source[EVENTSRC_MAX_WORKLOADS];	/* enum event_source */
};

/**
 * event_sources_read() - the NAME and EVENTS of every line of a workload list
 * @es: filled, zeroed first
 * @path: the list (workloads/suite.txt); '#' lines and blank lines skipped
 * @err: one line saying what is wrong, on error
 * @size: its size
 *
 * Return: 0; -1 when the file cannot be read or is not a regular file (a
 * FIFO would block, a directory lists nothing), a line is longer than
 * EVENTSRC_LINE_LEN, lacks EVENTS, names an unknown one, has a NAME too
 * long for a tag or one listed before, there are more than
 * EVENTSRC_MAX_WORKLOADS lines, or none.
 */
int event_sources_read(struct event_sources *es, const char *path, char *err, size_t size);

/**
 * event_source_of() - where a workload's events come from
 * @es: the workload list read by event_sources_read()
 * @workload: the workload's name
 *
 * Return: its EVENTS, or EVENTS_UNKNOWN when the list does not name it
 * (or no list was read).
 */
enum event_source event_source_of(const struct event_sources *es, const char *workload);

/**
 * event_source_word() - the EVENTS word of a source
 * @source: the source
 *
 * Return: the word the workload list uses ("timer", ...), "unknown" for
 * EVENTS_UNKNOWN or a value out of range.
 */
const char *event_source_word(enum event_source source);
/**
 * event_source_what() - what a source is, in a few words
 * @source: the source
 *
 * Return: its description ("the guest's own timers", ...); the unknown
 * one's ("not in the workload list") for a value out of range.
 */
const char *event_source_what(enum event_source source);

#endif /* __IDLESCOPE_RUNINFO_EVENTSRC_H */
