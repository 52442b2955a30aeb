/* SPDX-License-Identifier: GPL-2.0 */
/*
 * numbers.h - how every document and the live dashboard write a number: a
 * part in percent, ns as us, a start time, the name of the untagged
 * workload.  Below the report and the live view, so neither has to call
 * into the other for a format (a share with its interval: report/
 * interval.h).
 */
#ifndef __IDLESCOPE_FORMAT_NUMBERS_H
#define __IDLESCOPE_FORMAT_NUMBERS_H

#include <stddef.h>
#include <time.h>
#include <linux/types.h>

/**
 * fmt_percent() - a part of a whole in percent
 * @part: the part
 * @whole: the whole
 *
 * Return: 100 * @part / @whole, 0 for an empty whole.
 */
static inline double fmt_percent(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/**
 * fmt_ns_to_us() - nanoseconds as microseconds, for printing
 * @ns: the time in ns
 *
 * Return: @ns / 1000, with its fraction.
 */
static inline double fmt_ns_to_us(__u64 ns)
{
	return (double)ns / 1000.0;
}

/**
 * fmt_workload_label() - a workload as the reports name it
 * @name: its tag
 *
 * Return: @name, or "(none)" for the untagged workload.
 */
const char *fmt_workload_label(const char *name);

/**
 * fmt_utc() - a start time as "YYYY-MM-DDTHH:MM:SSZ"
 * @buf: the text
 * @size: of @buf
 * @t: the time; 0 (a file without its trailer) prints "unknown"
 */
void fmt_utc(char *buf, size_t size, time_t t);

#endif /* __IDLESCOPE_FORMAT_NUMBERS_H */
