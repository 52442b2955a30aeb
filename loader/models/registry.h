/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h - every model the replay knows, one row each: the one list of
 * models.  enum model_id, MODEL_NR, the catalogue (names, governors,
 * kernels, inputs), the dispatch of model_reset() and model_step(), and
 * the capacity of the aggregate's shadow scores are all made from it.
 *
 *	X(ID, name, governor, kernel, inputs, step, reset)
 *
 * ID		MODEL_<ID> in enum model_id; the row's position is its index
 *		in every per-model array (report order: append new rows)
 * name		the model's name in reports, stringified: a bare word, or
 *		the governor and the kernel its code is from (teo-6.12)
 * governor	IDLESCOPE_GOV_<governor>: the governor whose code it mirrors
 *		and whose recorded predictions check it (NONE: no governor)
 * kernel	the kernel release whose governor code it transcribes
 * inputs	the IDLESCOPE_F_HAS_* bits a record must hold for the model's
 *		prediction to be scored on it (replay/inputs.h)
 * step, reset	its model_step_fn and model_reset_fn (models.h), defined in
 *		the model's own file
 *
 * Adding a model is one file and one row here: docs/howto.md.
 */
#ifndef __IDLESCOPE_MODELS_REGISTRY_H
#define __IDLESCOPE_MODELS_REGISTRY_H

#include <linux/types.h>
#include "idlescope.h"

/* What the menu2010 family's data holds: next timer, I/O waiters, load. */
#define MODEL_INPUTS_MENU2010	(IDLESCOPE_F_HAS_NEXT_TIMER | \
				 IDLESCOPE_F_HAS_IOWAITERS | \
				 IDLESCOPE_F_HAS_LOAD)
/* Stock menu's: next timer, I/O waiters, whether the tick ended the period. */
#define MODEL_INPUTS_MENU	(IDLESCOPE_F_HAS_NEXT_TIMER | \
				 IDLESCOPE_F_HAS_IOWAITERS | \
				 IDLESCOPE_F_HAS_TICK)
/*
 * 6.12's menu: whether the tick ended the period, and the tick at select
 * (stopped or not: it decides whether to ask for the next timer, which
 * the model then says it lacked where the record has none).
 */
#define MODEL_INPUTS_MENU612	(IDLESCOPE_F_HAS_TICK | \
				 IDLESCOPE_F_HAS_TICK_STATE)
/* teo of 6.1: the sleep length, the tick at select, its reflect's span. */
#define MODEL_INPUTS_TEO	(IDLESCOPE_F_HAS_NEXT_TIMER | \
				 IDLESCOPE_F_HAS_TICK_STATE | \
				 IDLESCOPE_F_HAS_TEO_SPAN)
/* teo of 6.12: the same, the sleep length only where it asks (as menu612). */
#define MODEL_INPUTS_TEO612	(IDLESCOPE_F_HAS_TICK_STATE | \
				 IDLESCOPE_F_HAS_TEO_SPAN)
/*
 * teo70 (7.0's teo): the tick at select, and what its reflect noted of the
 * period before (the tick wakeup and the polling timeout, HAS_TICK); the
 * sleep length only where it asks.
 */
#define MODEL_INPUTS_TEO70	(IDLESCOPE_F_HAS_TICK_STATE | \
				 IDLESCOPE_F_HAS_TICK)

/*
 * Models for one experiment, not for every report: the ablation of
 * 6.12's teo on 300 us timers (docs/kernels.md), built into
 * build/ablation/idlescope only (make ablation), after every other row.
 * teo-6.12-sl is 6.12's teo scored only where the record holds the sleep
 * length, teo-6.12-c61 the same with 6.1's candidate state.
 */
#ifdef IDLESCOPE_ABLATION
#define IDLESCOPE_MODELS_ABLATION(X)					\
	X(TEO612SL, teo-6.12-sl, NONE, "6.12",				\
	  MODEL_INPUTS_TEO612, teo612sl_step, teo612_reset)		\
	X(TEO612C61, teo-6.12-c61, NONE, "6.12",			\
	  MODEL_INPUTS_TEO612, teo612c61_step, teo612_reset)
#else
#define IDLESCOPE_MODELS_ABLATION(X)
#endif

#define IDLESCOPE_MODELS(X)						\
	X(MENU2010, menu2010, MENU2010, "2.6.34-rc",			\
	  MODEL_INPUTS_MENU2010, m2010_plain_step, m2010_plain_reset)	\
	X(MENU2010FIX, menu2010fix, MENU2010FIX, "2.6.34",		\
	  MODEL_INPUTS_MENU2010, m2010_fix_step, m2010_fix_reset)	\
	X(MENU2010RPD, menu2010rpd, MENU2010RPD, "2.6.35",		\
	  MODEL_INPUTS_MENU2010, m2010_rpd_step, m2010_rpd_reset)	\
	X(MENU, menu, MENU, "6.1",					\
	  MODEL_INPUTS_MENU, menu_step, menu_reset)			\
	X(TEO, teo-6.1, TEO, "6.1",					\
	  MODEL_INPUTS_TEO, teo_step, teo_reset)			\
	X(TEO612, teo-6.12, TEO, "6.12",				\
	  MODEL_INPUTS_TEO612, teo612_step, teo612_reset)		\
	X(MENU612, menu-6.12, MENU, "6.12",				\
	  MODEL_INPUTS_MENU612, menu612_step, menu_reset)		\
	X(MENU615, menu615, MENU615, "6.12",				\
	  MODEL_INPUTS_MENU612, menu615_step, menu_reset)		\
	X(TEO70, teo70, TEO70, "6.12",					\
	  MODEL_INPUTS_TEO70, teo70_step, teo70_reset)			\
	/* new models: a row above this line (docs/howto.md) */	\
	IDLESCOPE_MODELS_ABLATION(X)

/* 1 per row: sizes of per-model arrays in headers that need no models.h. */
#define MODEL_REGISTRY_ONE(id, name, gov, kernel, inputs, step, reset)	+1
#define MODEL_REGISTRY_COUNT	(0 IDLESCOPE_MODELS(MODEL_REGISTRY_ONE))

#endif /* __IDLESCOPE_MODELS_REGISTRY_H */
