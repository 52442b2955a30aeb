/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __IDLESCOPE_RUNINFO_MODE_H
#define __IDLESCOPE_RUNINFO_MODE_H

#include <stdio.h>
#include <linux/types.h>
#include "idlescope.h"

/*
 * The "idlescope: mode:" line: what this kernel and this load let
 * idlescope see (IDLESCOPE_CAP_* in @caps) and which cpuidle driver holds
 * the slot ("" if none).
 */
void mode_print(FILE *out, __u32 caps, const char *cpuidle_driver);

#endif /* __IDLESCOPE_RUNINFO_MODE_H */
