/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skl_table.h - the idle states the host tests of the models replay on:
 * the synthetic driver's default table, parsed from the one header that
 * holds it, and the units the tests write their numbers in.  Included once
 * by each test program of the models, after check.h.
 */
#ifndef __IDLESCOPE_TEST_SKL_TABLE_H
#define __IDLESCOPE_TEST_SKL_TABLE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "models/models.h"
#include "idlescope_states_table.h"

#define US		1000ULL		/* ns per us */
#define MS		(1000 * US)
#define NO_QOS_NS	(2000000000LL * 1000)	/* PM QoS "no constraint" */

/*
 * kernel/modules/idlescope_states' default: POLL, then the states= string
 * the module parses (intel_idle's Skylake client table), from its header.
 */
#define SKL_STATES	IDLESCOPE_STATES_DEFAULT

/* Index of the state named @name in skl_table(), -1 if there is none. */
static inline int skl_state(const char *name)
{
	const char *entry = SKL_STATES;
	size_t len = strlen(name);
	int i;

	for (i = 1; ; i++) {
		if (!strncmp(entry, name, len) && entry[len] == ':')
			return i;
		entry = strchr(entry, ',');
		if (!entry)
			return -1;
		entry++;
	}
}

#define SKL_C1E		skl_state("C1E")
#define SKL_C10		skl_state("C10")

/*
 * POLL and the entries of SKL_STATES, NAME:EXIT_LATENCY_US:TARGET_RESIDENCY_US;
 * *parsed_all tells whether every entry was read (the table is the one the
 * module builds only then).
 */
static inline struct model_states_table parse_skl_table(bool *parsed_all)
{
	const char *entry = SKL_STATES;
	unsigned int exit_us, target_us;
	struct model_states_table t;
	int len;

	memset(&t, 0, sizeof(t));
	t.states[0].polling = true;
	t.nr_states = 1;
	while (t.nr_states < IDLESCOPE_MAX_STATES &&
	       sscanf(entry, "%*[^:,]:%u:%u%n", &exit_us, &target_us, &len) == 2) {
		t.states[t.nr_states].exit_latency_ns = exit_us * US;
		t.states[t.nr_states].target_residency_ns = target_us * US;
		t.nr_states++;
		entry += len;
		if (*entry != ',')
			break;
		entry++;
	}
	*parsed_all = !*entry;
	model_table_derive(&t);
	return t;
}

static inline struct model_states_table skl_table(void)
{
	bool parsed_all;

	return parse_skl_table(&parsed_all);
}

#endif /* __IDLESCOPE_TEST_SKL_TABLE_H */
