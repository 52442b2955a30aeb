// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup.c - wake-up classes and their names (see stats/wakeup.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "stats/wakeup.h"
#include "format/escape.h"

#define WAKE_NAME(id, name)	[IDLESCOPE_WAKE_##id] = #name,
static const char *const source_names[IDLESCOPE_NR_WAKE_SOURCES] = {
	IDLESCOPE_WAKE_SOURCES(WAKE_NAME)
};
#undef WAKE_NAME

#define IPI_NAME(id, name, tp)	[IDLESCOPE_IPI_##id] = #name,
static const char *const ipi_names[IDLESCOPE_NR_IPIS] = {
	IDLESCOPE_IPIS(IPI_NAME)
};
#undef IPI_NAME

/* UNKNOWN's detail for a polling state that ran out of time. */
#define WAKE_DETAIL_POLL_LIMIT	1

const char *wake_source_name(unsigned int source)
{
	return source < IDLESCOPE_NR_WAKE_SOURCES ? source_names[source] : NULL;
}

const char *wake_ipi_name(unsigned int ipi)
{
	return ipi < IDLESCOPE_NR_IPIS ? ipi_names[ipi] : NULL;
}

const char *wake_names_find(const struct wake_names *names, __u32 kind, __u64 value)
{
	int i;

	for (i = 0; names && i < names->nr; i++)
		if (names->names[i].kind == kind && names->names[i].value == value)
			return names->names[i].name;
	return NULL;
}

int wake_names_add(struct wake_names *names, __u32 kind, __u64 value, const char *name)
{
	struct wake_name *n;

	if (wake_names_find(names, kind, value))
		return -EEXIST;
	if (names->nr == WAKE_MAX_NAMES)
		return -ENOSPC;
	n = &names->names[names->nr++];
	n->kind = kind;
	n->value = value;
	snprintf(n->name, sizeof(n->name), "%s", name);
	return 0;
}

void wake_class_of(const struct idlescope_record *rec, bool polling,
		   const struct wake_names *names, struct wake_class *cls)
{
	const char *name = NULL;

	memset(cls, 0, sizeof(*cls));
	cls->source = rec->wake_source;
	switch (rec->wake_source) {
	case IDLESCOPE_WAKE_HRTIMER:
		name = wake_names_find(names, WAKE_NAME_FUNCTION, rec->wake_fn);
		/* "": asked, and nobody knew it. */
		if (!name || !*name)
			cls->value = rec->wake_fn;
		break;
	case IDLESCOPE_WAKE_IPI:
		cls->detail = rec->wake_irq;
		break;
	case IDLESCOPE_WAKE_IRQ:
		cls->detail = rec->wake_irq;
		name = wake_names_find(names, WAKE_NAME_IRQ, rec->wake_irq);
		break;
	case IDLESCOPE_WAKE_UNKNOWN:
		if (polling && (rec->flags & IDLESCOPE_F_POLL_LIMIT))
			cls->detail = WAKE_DETAIL_POLL_LIMIT;
		break;
	default:
		break;
	}
	if (name)
		snprintf(cls->name, sizeof(cls->name), "%s", name);
}

enum wake_verdict wake_class_verdict(const struct wake_class *cls)
{
	switch (cls->source) {
	case IDLESCOPE_WAKE_TICK:
	case IDLESCOPE_WAKE_HRTIMER:
	case IDLESCOPE_WAKE_TIMER:
		return WAKE_HIT;
	case IDLESCOPE_WAKE_IPI:
	case IDLESCOPE_WAKE_IRQ:
	case IDLESCOPE_WAKE_NO_IPI:
		return WAKE_INTERCEPT;
	default:
		return WAKE_NEITHER;
	}
}

void wake_class_label(const struct wake_class *cls, char *buf, size_t size)
{
	/* The name comes from a record file's trailer: any byte. */
	char name[ESCAPE_SIZE(WAKE_NAME_LEN)];
	const char *ipi;

	escape_name(name, sizeof(name), cls->name, sizeof(cls->name));
	switch (cls->source) {
	case IDLESCOPE_WAKE_HRTIMER:
		if (cls->name[0])
			snprintf(buf, size, "hrtimer %s", name);
		else
			snprintf(buf, size, "hrtimer 0x%llx", (unsigned long long)cls->value);
		break;
	case IDLESCOPE_WAKE_IPI:
		ipi = wake_ipi_name(cls->detail);
		if (ipi)
			snprintf(buf, size, "ipi %s", ipi);
		else
			snprintf(buf, size, "ipi %u", cls->detail);
		break;
	case IDLESCOPE_WAKE_IRQ:
		if (cls->name[0])
			snprintf(buf, size, "irq %u %s", cls->detail, name);
		else
			snprintf(buf, size, "irq %u", cls->detail);
		break;
	case IDLESCOPE_WAKE_NO_IPI:
		snprintf(buf, size, "polled (no IPI)");
		break;
	case IDLESCOPE_WAKE_UNKNOWN:
		snprintf(buf, size, cls->detail == WAKE_DETAIL_POLL_LIMIT ? "poll limit" : "unknown");
		break;
	default:
		if (wake_source_name(cls->source))
			snprintf(buf, size, "%s", wake_source_name(cls->source));
		else
			snprintf(buf, size, "source %u", cls->source);
		break;
	}
}
