/* SPDX-License-Identifier: GPL-2.0 */
/*
 * governors.h - the governors idlescope knows, by name: the ids of
 * IDLESCOPE_GOVERNORS (bpf/idlescope.h) as every report and command line
 * spells them, /sys/devices/system/cpu/cpuidle's names.
 */
#ifndef __IDLESCOPE_GOVERNORS_H
#define __IDLESCOPE_GOVERNORS_H

#include <linux/types.h>
#include "idlescope.h"

/* Governor names, indexed by enum idlescope_governor. */
extern const char *const governor_names[IDLESCOPE_NR_GOVERNORS];

/**
 * governor_name() - the name of a governor id
 * @governor: enum idlescope_governor
 *
 * Return: "menu", ..., or "unknown" for an id out of range.
 */
const char *governor_name(int governor);

/**
 * governor_id() - the id of a governor name
 * @name: as in available_governors
 *
 * Return: enum idlescope_governor, or -1 for a name idlescope does not know.
 */
int governor_id(const char *name);

#endif /* __IDLESCOPE_GOVERNORS_H */
