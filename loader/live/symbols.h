/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbols.h - names for the numbers a live run's records hold: an hrtimer
 * function's address from /proc/kallsyms, an IRQ's handlers from
 * /proc/interrupts.  The aggregate asks once per number, when it first
 * appears (stats/why.h's resolver); the run keeps the answers in its
 * record file's trailer, so a report elsewhere has the same names.
 */
#ifndef __IDLESCOPE_LIVE_SYMBOLS_H
#define __IDLESCOPE_LIVE_SYMBOLS_H

#include <stddef.h>
#include <linux/types.h>

/**
 * symbols_resolve() - a wake_resolve_fn over this machine's /proc
 * @ctx: unused
 * @kind: WAKE_NAME_FUNCTION or WAKE_NAME_IRQ (stats/wakeup.h)
 * @value: the function's address, or the IRQ
 * @name: the name, NUL-terminated, on success
 * @size: of @name
 *
 * Return: 0, or -ENOENT when /proc has no name for it.
 */
int symbols_resolve(void *ctx, __u32 kind, __u64 value, char *name, size_t size);

#endif /* __IDLESCOPE_LIVE_SYMBOLS_H */
