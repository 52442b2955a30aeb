/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - the report's word on where each workload's events come from
 * (runinfo/eventsrc.h): a line under the headline, and a mark on the
 * headline's rows of the workloads the host times under a virtual clock.
 */
#ifndef __IDLESCOPE_REPORT_EVENTS_H
#define __IDLESCOPE_REPORT_EVENTS_H

#include <stdbool.h>
#include <stdio.h>
#include "runinfo/meta.h"

/* Appended to a host-timed workload's name in the headline. */
#define REPORT_HOST_TIMED_MARK	"^"

/*
 * Whether @workload's events are the host's while the guest ran on a
 * virtual clock (CLOCK=virtual or fixed), where they cannot end an idle
 * period early.
 */
bool report_host_timed(const struct run_meta *meta, const char *workload);

/* The headline's row label of @workload, into buf[size]. */
const char *report_workload_row_label(char *buf, size_t size, const struct run_meta *meta,
				      const char *workload);

/*
 * "events: timer: idle, periodic1ms, ...; ipi: pingpong; ..." over the
 * run's workloads, and what the mark means when one is marked; nothing
 * without a workload list.  Returns the lines printed.
 */
int report_print_event_sources(FILE *f, const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_EVENTS_H */
