/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interval.h - a share with its 95% interval as every document and the
 * live dashboard write it, in text and in JSON.  Here and not in format/,
 * which knows no statistic: the share is stats/ci.h's (docs/layers.md).
 */
#ifndef __IDLESCOPE_REPORT_INTERVAL_H
#define __IDLESCOPE_REPORT_INTERVAL_H

#include <stddef.h>
#include "format/json_writer.h"
#include "stats/ci.h"

/**
 * report_fmt_share() - a share with its 95% interval
 * @buf: the text
 * @size: of @buf
 * @r: the share
 *
 * "52.9 ±1.3"; "52.9 ±?" when the periods were too correlated for an
 * interval (too few independent samples); "52.9" with no interval (too few
 * batches); "-" with no share.
 */
void report_fmt_share(char *buf, size_t size, const struct ci_pct *r);

/**
 * report_json_ci() - a share and its 95% interval, in %
 * @j: the writer
 * @key: its name, NULL in an array
 * @r: the share
 *
 * {"pct": .., "lo": .., "hi": ..} on one line, each with json_number().
 */
void report_json_ci(struct json *j, const char *key, const struct ci_pct *r);

#endif /* __IDLESCOPE_REPORT_INTERVAL_H */
