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

/**
 * sysfs_read_line() - the first line of a file
 * @path: the file
 * @buf: the line, without its newline
 * @size: of @buf
 *
 * Return: 0, -errno when it does not open, -EIO when it is empty.
 */
int sysfs_read_line(const char *path, char *buf, size_t size);

/**
 * sysfs_check_governor() - check a governor before anything is loaded
 * @name: the governor asked for
 * @saved: the current governor, to switch back to at exit
 * @size: of @saved
 * @other: another available governor, "" if there is none
 * @other_size: of @other
 *
 * Return: 0, or -errno with one error line printed (-ENOENT: @name is not
 * available).
 */
int sysfs_check_governor(const char *name, char *saved, size_t size,
			 char *other, size_t other_size);

/**
 * sysfs_switch_governor() - make a governor current, from a fresh start
 * @name: the governor
 * @current: the current one (sysfs_check_governor()'s @saved)
 * @other: another one (sysfs_check_governor()'s @other)
 *
 * The governor starts from its ->enable() state even if it is @current
 * already: then by way of @other (not when @other is "").
 *
 * Return: 0 or -errno.
 */
int sysfs_switch_governor(const char *name, const char *current, const char *other);

/**
 * sysfs_restore_governor() - make a governor current as it is
 * @name: the one saved at start
 *
 * Return: 0 or -errno.
 */
int sysfs_restore_governor(const char *name);

/**
 * sysfs_read_state_table() - cpu0's state table
 * @states: states[IDLESCOPE_MAX_STATES], zeroed, then filled from state0
 *
 * Return: the number of states read, 0 without cpuidle.
 */
int sysfs_read_state_table(struct idlescope_state *states);

/**
 * sysfs_usage_sum() - the kernel's own count of idle entries
 * @nr_cpus: CPUs 0..@nr_cpus-1
 *
 * Return: the sum of every stateN/usage of every CPU.
 */
__u64 sysfs_usage_sum(int nr_cpus);

#endif /* __IDLESCOPE_LIVE_SYSFS_H */
