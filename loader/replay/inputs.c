// SPDX-License-Identifier: GPL-2.0
/*
 * inputs.c - which of a replayed model's inputs a record holds.
 *
 * The BPF side reads a governor's own per-CPU data at select time, so a
 * record holds only what the running governor computed: the menu2010
 * family's next timer, I/O waiters and load; stock menu's next timer (not
 * on 6.12 when it did not ask), I/O waiters (6.1) and whether the tick
 * ended the period; teo's sleep length (the same) and, from a probe on its
 * reflect, whether its time span reached it; none for ladder.  The select
 * probes add, for every governor, the tick as select found it.  A model of
 * governor G needs what G records; fed another governor's periods, the
 * missing inputs would be zeros, and its score would measure the zeros,
 * not the predictor.
 *
 * The BPF side says what it read in the IDLESCOPE_F_HAS_* bits; a record
 * file written before it did has none, and its governor says instead.
 */
#include <stdio.h>
#include "replay/inputs.h"

unsigned int inputs_of_governor(int governor)
{
	switch (governor) {
	case IDLESCOPE_GOV_MENU2010:
	case IDLESCOPE_GOV_MENU2010FIX:
	case IDLESCOPE_GOV_MENU2010RPD:
	case IDLESCOPE_GOV_MENU2010MF2:
		return IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_IOWAITERS |
		       IDLESCOPE_F_HAS_LOAD;
	case IDLESCOPE_GOV_MENU:
		return IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_IOWAITERS |
		       IDLESCOPE_F_HAS_TICK;
	case IDLESCOPE_GOV_TEO:
		return IDLESCOPE_F_HAS_NEXT_TIMER;
	default:
		return 0;
	}
}

unsigned int inputs_of_record(const struct idlescope_record *rec)
{
	unsigned int inputs = rec->flags & INPUTS_ALL;

	if (!(rec->flags & IDLESCOPE_F_SELECTED))
		return 0;
	if (inputs)
		return inputs;
	inputs = inputs_of_governor(rec->governor);
	/* The BPF side reads the I/O waiters only with the prediction. */
	if (!(rec->flags & IDLESCOPE_F_PREDICTED))
		inputs &= ~IDLESCOPE_F_HAS_IOWAITERS;
	return inputs;
}

void inputs_format(char *buf, size_t size, unsigned int inputs)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {
		{ IDLESCOPE_F_HAS_NEXT_TIMER, "next timer" },
		{ IDLESCOPE_F_HAS_IOWAITERS, "iowaiters" },
		{ IDLESCOPE_F_HAS_LOAD, "load" },
		{ IDLESCOPE_F_HAS_TICK, "tick wakeup" },
		{ IDLESCOPE_F_HAS_TICK_STATE, "tick at select" },
		{ IDLESCOPE_F_HAS_TEO_SPAN, "teo span" },
	};
	size_t len = 0;
	unsigned int i;

	snprintf(buf, size, "none");
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && len < size; i++) {
		if (!(inputs & names[i].bit))
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
				names[i].name);
	}
}
