/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reconstruct.h - stock menu's prediction rebuilt from its own per-CPU data,
 * for kernels without the observation fields of kernel/patches/VERSION/0004
 * (a distribution kernel); see replay/reconstruct.c for what it can and
 * cannot see.
 */
#ifndef __IDLESCOPE_REPLAY_RECONSTRUCT_H
#define __IDLESCOPE_REPLAY_RECONSTRUCT_H

#include <linux/types.h>
#include "idlescope.h"
#include "models/menu.h"

/* What reconstruct_record() did, summed over the records it was given. */
struct reconstruct_stats {
	__u64 reconstructed;	/* predictions rebuilt: F_RECONSTRUCTED set */
	/*
	 * Periods left without a prediction because an unseen PM QoS limit
	 * could have made select return before predicting.
	 */
	__u64 unresolved;
	/* Records with the kernel's own prediction too: rebuilt and compared. */
	__u64 checked;
	__u64 agreed;
};

/**
 * reconstruct_record() - rebuild stock menu's prediction into a record
 * @rec: a record of any governor; only stock menu's are changed
 * @table: the recorded state table
 * @menu_model: the model of stock menu on the records' kernel
 *	(replay_running_model()): MODEL_MENU612 rebuilds with 6.12's
 *	arithmetic, any other with 6.1's
 * @stats: where what was done is added up
 *
 * For a stock menu record with menu's data (IDLESCOPE_F_MENU_DATA) and no
 * prediction of the kernel's: set predicted_ns, typical_interval_us and
 * nr_iowaiters (0 or 1, see replay/reconstruct.c) with IDLESCOPE_F_PREDICTED |
 * IDLESCOPE_F_RECONSTRUCTED when it can be rebuilt.  A record that has the
 * kernel's own prediction is left as it is and only counted in
 * checked/agreed; one without a select, or rebuilt already, is not
 * touched.
 */
void reconstruct_record(struct idlescope_record *rec,
			const struct model_states_table *table, int menu_model,
			struct reconstruct_stats *stats);

#endif /* __IDLESCOPE_REPLAY_RECONSTRUCT_H */
