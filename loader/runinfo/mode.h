/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __IDLESCOPE_RUNINFO_MODE_H
#define __IDLESCOPE_RUNINFO_MODE_H

#include <stdio.h>
#include <linux/types.h>
#include "idlescope.h"

/**
 * mode_print() - the "idlescope: mode:" line
 * @out: where to
 * @caps: what this kernel and this load let idlescope see (IDLESCOPE_CAP_*)
 * @cpuidle_driver: which cpuidle driver holds the slot ("" if none)
 *
 * One line, for a person: observation fields, 2010 governors, select
 * probes, cpuidle driver.
 */
void mode_print(FILE *out, __u32 caps, const char *cpuidle_driver);

#endif /* __IDLESCOPE_RUNINFO_MODE_H */
