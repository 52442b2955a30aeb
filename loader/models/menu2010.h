/* SPDX-License-Identifier: GPL-2.0 */
/*
 * menu2010.h - the per-CPU data of the menu2010 models and the constants
 * of the kernel code they mirror (menu2010.c has the models).
 */
#ifndef __IDLESCOPE_MODELS_MENU2010_H
#define __IDLESCOPE_MODELS_MENU2010_H

#include "models/models.h"

/* drivers/cpuidle/governors/menu2010.c (kernel/patches/VERSION/0001-0003) */
#define M2010_BUCKETS		12
#define M2010_RESOLUTION	1024
#define M2010_DECAY		4	/* menu2010, menu2010fix */
#define M2010_DECAY_RPD		8	/* menu2010rpd */
#define M2010_MAX_INTERESTING	50000	/* us */
#define M2010_INTERVALS		8
#define M2010_STDDEV_THRESH	400	/* us^2 */

/* struct menu2010_device, with the observation fields of patch 0004. */
struct model_menu2010 {
	int		last_state_idx;
	int		needs_update;
	unsigned int	expected_us;
	__u64		predicted_us;
	unsigned int	measured_us;	/* never written, as before the fix */
	unsigned int	exit_us;
	unsigned int	bucket;
	__u64		correction_factor[M2010_BUCKETS];
	__u32		intervals[M2010_INTERVALS];
	int		interval_ptr;
	unsigned int	typical_interval_us;	/* 0 unless the pattern won */
};

/**
 * model_menu2010_data() - a 2010 model's data inside its per-CPU state
 * @ms: the state of a menu2010, menu2010fix or menu2010rpd model
 *
 * For the model's code and for tests that look inside; no check that @ms
 * is of a 2010 model.
 *
 * Return: @ms's data as struct model_menu2010.
 */
static inline struct model_menu2010 *model_menu2010_data(struct model_state *ms)
{
	return (struct model_menu2010 *)ms->data.bytes;
}

#endif /* __IDLESCOPE_MODELS_MENU2010_H */
