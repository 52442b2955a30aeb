// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - what every model shares: the state table's derived values,
 * and the dispatch and catalogue made from models/registry.h (the models
 * themselves are in files of their own).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "models/models.h"

#define NSEC_PER_USEC	1000L	/* include/vdso/time64.h: a long, as there */

/* The cpuidle core: us = ns / 1000 (drivers/cpuidle/driver.c); the tick. */
void model_table_derive(struct model_states_table *table)
{
	int i;

	for (i = 0; i < IDLESCOPE_MAX_STATES; i++) {
		struct model_idle_state *s = &table->states[i];

		s->exit_latency_us = (__u64)s->exit_latency_ns / NSEC_PER_USEC;
		s->target_residency_us = (__u64)s->target_residency_ns / NSEC_PER_USEC;
	}
	table->tick_ns = 0;
	table->tick_ns = model_tick_ns(table);
	table->tick_hz = table->hz ? table->hz : MODEL_HZ;
}

__s64 model_sleep_length_ns(struct model_state *ms, const struct model_input *in,
			    __s64 *delta_tick_ns)
{
	if (!(in->inputs & IDLESCOPE_F_HAS_NEXT_TIMER))
		ms->lacked_inputs |= IDLESCOPE_F_HAS_NEXT_TIMER;
	*delta_tick_ns = in->delta_tick_ns;
	return (__s64)in->next_timer_ns;
}

void model_reset(struct model_state *ms, enum model_id id)
{
	memset(ms, 0, sizeof(*ms));
	ms->id = id;
	ms->chosen_state = -1;
	switch (id) {
#define MODEL_RESET_CASE(id, name, gov, kernel, inputs, step, reset)	\
	case MODEL_##id:						\
		reset(ms->data.bytes);					\
		break;
	IDLESCOPE_MODELS(MODEL_RESET_CASE)
#undef MODEL_RESET_CASE
	}
}

__u64 model_step(struct model_state *ms, const struct model_input *in,
		 const struct model_states_table *table)
{
	ms->lacked_inputs = 0;
	if (table->nr_states < 1 || table->nr_states > IDLESCOPE_MAX_STATES)
		return IDLESCOPE_UNKNOWN_NS;
	switch (ms->id) {
#define MODEL_STEP_CASE(id, name, gov, kernel, inputs, step, reset)	\
	case MODEL_##id:						\
		return step(ms, in, table);
	IDLESCOPE_MODELS(MODEL_STEP_CASE)
#undef MODEL_STEP_CASE
	}
	return IDLESCOPE_UNKNOWN_NS;	/* not a model: model_reset() was never called */
}

#define MODEL_NAME(id, name, gov, kernel, inputs, step, reset)	[MODEL_##id] = #name,
const char *const model_names[MODEL_NR] = {
	IDLESCOPE_MODELS(MODEL_NAME)
};
#undef MODEL_NAME

#define MODEL_GOVERNOR(id, name, gov, kernel, inputs, step, reset) \
	[MODEL_##id] = IDLESCOPE_GOV_##gov,
static const unsigned int model_governors[MODEL_NR] = {
	IDLESCOPE_MODELS(MODEL_GOVERNOR)
};
#undef MODEL_GOVERNOR

#define MODEL_KERNEL(id, name, gov, kernel, inputs, step, reset)	[MODEL_##id] = kernel,
static const char *const model_kernels[MODEL_NR] = {
	IDLESCOPE_MODELS(MODEL_KERNEL)
};
#undef MODEL_KERNEL

#define MODEL_INPUTS(id, name, gov, kernel, inputs, step, reset)	[MODEL_##id] = (inputs),
const unsigned int model_input_masks[MODEL_NR] = {
	IDLESCOPE_MODELS(MODEL_INPUTS)
};
#undef MODEL_INPUTS

/* A release's first three numbers ("6.12.118+deb12" -> 6, 12, 118), 0 past them. */
#define RELEASE_PARTS	3

static bool parse_release(const char *release, unsigned long parts[RELEASE_PARTS])
{
	const char *p = release;
	char *end;
	int i;

	memset(parts, 0, sizeof(parts[0]) * RELEASE_PARTS);
	if (!p || !isdigit((unsigned char)*p))
		return false;
	for (i = 0; i < RELEASE_PARTS; i++) {
		parts[i] = strtoul(p, &end, 10);
		if (*end != '.' || !isdigit((unsigned char)end[1]))
			break;
		p = end + 1;
	}
	return true;
}

/* <0, 0, >0 as release @a is older than, the same as, newer than @b. */
static int compare_releases(const unsigned long *a, const unsigned long *b)
{
	int i;

	for (i = 0; i < RELEASE_PARTS; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

int model_of_governor(unsigned int governor, const char *kernel_release)
{
	unsigned long want[RELEASE_PARTS], have[RELEASE_PARTS];
	unsigned long best[RELEASE_PARTS], oldest[RELEASE_PARTS];
	int id, best_id = -1, oldest_id = -1;
	bool known;

	if (governor == IDLESCOPE_GOV_NONE)
		return -1;	/* the governor of models that mirror none */
	known = parse_release(kernel_release, want);
	for (id = 0; id < MODEL_NR; id++) {
		if (model_governors[id] != governor)
			continue;
		parse_release(model_kernels[id], have);
		if (oldest_id < 0 || compare_releases(have, oldest) < 0) {
			oldest_id = id;
			memcpy(oldest, have, sizeof(oldest));
		}
		if (known && compare_releases(have, want) <= 0 &&
		    (best_id < 0 || compare_releases(have, best) > 0)) {
			best_id = id;
			memcpy(best, have, sizeof(best));
		}
	}
	return best_id >= 0 ? best_id : oldest_id;
}

unsigned int governor_of_model(enum model_id id)
{
	return id < MODEL_NR ? model_governors[id] : IDLESCOPE_GOV_NONE;
}

const char *model_kernel(enum model_id id)
{
	return id < MODEL_NR ? model_kernels[id] : "";
}

unsigned int model_inputs(enum model_id id)
{
	return id < MODEL_NR ? model_input_masks[id] : 0;
}
