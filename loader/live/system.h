/* SPDX-License-Identifier: GPL-2.0 */
/* system.h - the running system's facts a live run's report states. */
#ifndef __IDLESCOPE_LIVE_SYSTEM_H
#define __IDLESCOPE_LIVE_SYSTEM_H

#include "runinfo/meta.h"

/**
 * live_read_system() - fill in what the report says about this system
 * @meta: the run; its kernel_release must be set (run_meta_init())
 *
 * Sets hz (CONFIG_HZ from /boot/config-<release> or /proc/config.gz),
 * cpuidle_driver, and clock_mode/clock_args (idlescope.clock= and the
 * base64 idlescope.clock_args= of /proc/cmdline); what is not found stays
 * empty (unknown).
 */
void live_read_system(struct run_meta *meta);

#endif /* __IDLESCOPE_LIVE_SYSTEM_H */
