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

/**
 * inputs_of_governor() - what a governor's data holds
 * @governor: enum idlescope_governor
 *
 * Return: IDLESCOPE_F_HAS_* bits; 0 for ladder, none and unknown ids.
 */
unsigned int inputs_of_governor(int governor);

/**
 * inputs_of_record() - what a record holds
 * @rec: the record
 *
 * Return: its HAS_* flags when the BPF side set any, else what its
 * governor's data holds (the I/O waiters only when the prediction was
 * read with them); 0 without a select.
 */
unsigned int inputs_of_record(const struct idlescope_record *rec);

/**
 * inputs_format() - a mask of inputs for people
 * @buf: the text, e.g. "next timer, iowaiters, load"; "none" for 0
 * @size: of @buf
 * @inputs: IDLESCOPE_F_HAS_* bits
 */
void inputs_format(char *buf, size_t size, unsigned int inputs);

#endif /* __IDLESCOPE_REPLAY_INPUTS_H */
