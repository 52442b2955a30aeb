/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakeup.h - what ended an idle period, as the reports name it.
 *
 * A record says it by number (bpf/wakeup.bpf.h): a source, an hrtimer's
 * function address, an IRQ or IPI number.  A wake-up class is what the
 * reports break scores down by: the source with its name ("hrtimer
 * hrtimer_wakeup", "irq 4 ttyS0", "ipi call_function_single", "tick"),
 * interned in the order first seen.  Addresses and IRQ numbers become
 * names through a table: the live run resolves them from /proc/kallsyms
 * and /proc/interrupts as they first appear (live/symbols.c) and keeps
 * the table in the record file's trailer, a report reads it back from
 * there; a name nobody resolved stays a number.  One name per class, not
 * per address: KASLR moves a function between boots.
 *
 * Each class is also a teo-style verdict on the governor's sleep length:
 * a period a timer ended was a "hit" (woken by the timer event the
 * governor was told of, tick_nohz_get_sleep_length()), one that anything
 * else ended first an "intercept"; unknown ends are neither.
 *
 * Pure C: no libbpf.
 */
#ifndef __IDLESCOPE_STATS_WAKEUP_H
#define __IDLESCOPE_STATS_WAKEUP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "idlescope.h"

#define WAKE_NAME_LEN		32	/* a resolved name, with its NUL */
#define WAKE_MAX_NAMES		64	/* resolved names per table */
#define WAKE_MAX_CLASSES	32	/* classes per report; then "other" */
#define WAKE_LABEL_LEN		48	/* a class's label, with its NUL */

/* What a number in a record names. */
enum wake_name_kind {
	WAKE_NAME_FUNCTION = 1,		/* value: an hrtimer function's address */
	WAKE_NAME_IRQ = 2,		/* value: an IRQ number */
};

struct wake_name {
	__u64 value;
	__u32 kind;			/* enum wake_name_kind */
	char name[WAKE_NAME_LEN];	/* NUL-terminated */
};

struct wake_names {
	int nr;
	struct wake_name names[WAKE_MAX_NAMES];
};

/**
 * typedef wake_resolve_fn - resolve a number a record holds
 * @ctx: the resolver's own
 * @kind: enum wake_name_kind
 * @value: the address or IRQ
 * @name: the name, NUL-terminated, on success
 * @size: of @name
 *
 * Return: 0, or -ENOENT when it has no name.
 */
typedef int (*wake_resolve_fn)(void *ctx, __u32 kind, __u64 value, char *name,
			       size_t size);

/**
 * wake_names_find() - a number's name in a table
 * @names: the table
 * @kind: enum wake_name_kind
 * @value: the address or IRQ
 *
 * Return: the name, or NULL.
 */
const char *wake_names_find(const struct wake_names *names, __u32 kind, __u64 value);

/**
 * wake_names_add() - append a name to a table
 * @names: the table
 * @kind: enum wake_name_kind
 * @value: the address or IRQ
 * @name: its name (cut to WAKE_NAME_LEN - 1)
 *
 * Return: 0, -EEXIST when the number has a name already, -ENOSPC when the
 * table is full.
 */
int wake_names_add(struct wake_names *names, __u32 kind, __u64 value, const char *name);

/* Whether a class ended its period on a timer, on something else, or neither. */
enum wake_verdict {
	WAKE_NEITHER,			/* unknown, or the polling time limit */
	WAKE_HIT,			/* a timer: the tick or an hrtimer */
	WAKE_INTERCEPT,			/* an IPI, a device, a remote wake-up */
};

/*
 * A class: the source, and what makes it one class: the IPI kind, the IRQ
 * number and name, the hrtimer function's name.  UNKNOWN with detail 1 is
 * the polling state's time limit (IDLESCOPE_F_POLL_LIMIT, no handler ran).
 */
struct wake_class {
	__u16 source;			/* enum idlescope_wake_source */
	__u32 detail;			/* IPI kind, IRQ number, poll limit */
	char name[WAKE_NAME_LEN];	/* function or IRQ name, "" unresolved */
	__u64 value;			/* an unresolved function's address */
};

/**
 * wake_class_of() - the class of a record's wake-up
 * @rec: a record with IDLESCOPE_F_HAS_WAKE
 * @polling: its state is the polling one
 * @names: names for its numbers
 * @cls: set
 */
void wake_class_of(const struct idlescope_record *rec, bool polling,
		   const struct wake_names *names, struct wake_class *cls);

/**
 * wake_class_verdict() - hit, intercept or neither
 * @cls: the class
 *
 * Return: the teo-style verdict (see the top of this file).
 */
enum wake_verdict wake_class_verdict(const struct wake_class *cls);

/**
 * wake_class_label() - the class as the reports name it
 * @cls: the class
 * @buf: "tick", "hrtimer hrtimer_wakeup", "hrtimer 0xffffffff81094600",
 *	"ipi reschedule", "irq 4 ttyS0", "irq 4", "polled (no IPI)",
 *	"poll limit", "unknown"; a name escaped (format/escape.h)
 * @size: of @buf
 */
void wake_class_label(const struct wake_class *cls, char *buf, size_t size);

/**
 * wake_source_name() - a source's name, as in IDLESCOPE_WAKE_SOURCES
 * @source: enum idlescope_wake_source
 *
 * Return: the name, or NULL for an unknown id.
 */
const char *wake_source_name(unsigned int source);

/**
 * wake_ipi_name() - an IPI's name, as in IDLESCOPE_IPIS
 * @ipi: enum idlescope_ipi
 *
 * Return: the name, or NULL for an unknown id.
 */
const char *wake_ipi_name(unsigned int ipi);

#endif /* __IDLESCOPE_STATS_WAKEUP_H */
