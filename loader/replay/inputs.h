/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inputs.h - the inputs a replayed model needs and a record holds, as
 * IDLESCOPE_F_HAS_* bits (see replay/inputs.c for why a model is scored only
 * where its inputs were recorded).
 */
#ifndef __IDLESCOPE_REPLAY_INPUTS_H
#define __IDLESCOPE_REPLAY_INPUTS_H

#include <stddef.h>
#include <linux/types.h>
#include "idlescope.h"

#define INPUTS_ALL	(IDLESCOPE_F_HAS_NEXT_TIMER | IDLESCOPE_F_HAS_IOWAITERS | \
			 IDLESCOPE_F_HAS_LOAD | IDLESCOPE_F_HAS_TICK | \
			 IDLESCOPE_F_HAS_TICK_STATE | IDLESCOPE_F_HAS_TEO_SPAN)

/* What governor @governor's data holds (0 for ladder, none, unknown ids). */
unsigned int inputs_of_governor(int governor);
/*
 * What @rec holds: its HAS_* flags when the BPF side set any, else what
 * its governor's data holds (the I/O waiters only when the prediction was
 * read with them); 0 without a select.
 */
unsigned int inputs_of_record(const struct idlescope_record *rec);
/* "next timer, iowaiters, load" for a mask, "none" for 0. */
void inputs_format(char *buf, size_t size, unsigned int inputs);

#endif /* __IDLESCOPE_REPLAY_INPUTS_H */
