/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs.h - what a live run reads and writes under
 * /sys/devices/system/cpu: the current cpuidle governor (checked before
 * anything is loaded, switched after attach, restored at exit), cpu0's
 * state table and the kernel's own count of idle entries.
 */
#ifndef __IDLESCOPE_LIVE_SYSFS_H
#define __IDLESCOPE_LIVE_SYSFS_H

#include <stddef.h>
#include <linux/types.h>
#include "idlescope.h"

/* The first line of @path without its newline; 0 or -errno. */
int sysfs_read_line(const char *path, char *buf, size_t size);

/*
 * Check that governor @name is available (one error line if not), keep
 * the current one in saved[] to switch back at exit and another available
 * one in other[] ("" if there is none); 0 or -errno.
 */
int sysfs_check_governor(const char *name, char *saved, size_t size,
			 char *other, size_t other_size);

/*
 * Make @name the current governor, starting from its ->enable() state
 * even if it is @current already (then by way of @other); 0 or -errno.
 */
int sysfs_switch_governor(const char *name, const char *current, const char *other);

/* Make @name the current governor as it is (the one saved at start). */
int sysfs_restore_governor(const char *name);

/* cpu0's state table into states[IDLESCOPE_MAX_STATES]; the number of states. */
int sysfs_read_state_table(struct idlescope_state *states);

/* The kernel's own count of idle entries: every stateN/usage of every CPU. */
__u64 sysfs_usage_sum(int nr_cpus);

#endif /* __IDLESCOPE_LIVE_SYSFS_H */
