// SPDX-License-Identifier: GPL-2.0
/*
 * constants.c - the kernel constants the models transcribe, as the kernel
 * spells them, for the host test that compares them with the kernel
 * sources (tests/unit/models/test_models.c).
 */
#include "models/menu.h"
#include "models/menu2010.h"
#include "models/teo.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const struct model_constant model_constants[] = {
	{ "menu2010.c",	"BUCKETS",		M2010_BUCKETS },
	{ "menu2010.c",	"RESOLUTION",		M2010_RESOLUTION },
	{ "menu2010.c",	"DECAY",		M2010_DECAY },
	{ "menu2010.c",	"DECAY_RPD",		M2010_DECAY_RPD },
	{ "menu2010.c",	"MAX_INTERESTING",	M2010_MAX_INTERESTING },
	{ "menu2010.c",	"INTERVALS",		M2010_INTERVALS },
	{ "menu2010.c",	"STDDEV_THRESH",	M2010_STDDEV_THRESH },
	/* patch 0004's "no prediction", U64_MAX */
	{ "menu2010.c",	"MENU2010_NOT_PREDICTED", (long long)IDLESCOPE_UNKNOWN_NS },
	{ "menu.c",	"BUCKETS",		MENU_BUCKETS },
	{ "menu.c",	"INTERVAL_SHIFT",	MENU_INTERVAL_SHIFT },
	{ "menu.c",	"INTERVALS",		MENU_INTERVALS },
	{ "menu.c",	"RESOLUTION",		MENU_RESOLUTION },
	{ "menu.c",	"DECAY",		MENU_DECAY },
	{ "menu.c",	"MAX_INTERESTING",	MENU_MAX_INTERESTING },
	{ "menu.c",	"MENU_NOT_PREDICTED",	(long long)IDLESCOPE_UNKNOWN_NS },
	{ "teo.c",	"PULSE",		TEO_PULSE },
	{ "teo.c",	"DECAY_SHIFT",		TEO_DECAY_SHIFT },
	{ "teo.c",	"NR_RECENT",		TEO_NR_RECENT },
	{ "6.12/menu.c", "BUCKETS",		MENU612_BUCKETS },
	{ "6.12/menu.c", "INTERVAL_SHIFT",	MENU_INTERVAL_SHIFT },
	{ "6.12/menu.c", "INTERVALS",		MENU_INTERVALS },
	{ "6.12/menu.c", "RESOLUTION",		MENU_RESOLUTION },
	{ "6.12/menu.c", "DECAY",		MENU_DECAY },
	{ "6.12/menu.c", "MAX_INTERESTING",	MENU_MAX_INTERESTING },
	{ "6.12/teo.c",	"PULSE",		TEO_PULSE },
	{ "6.12/teo.c",	"DECAY_SHIFT",		TEO_DECAY_SHIFT },
	{ "6.12/gov.h",	"RESIDENCY_THRESHOLD_NS", MODEL_RESIDENCY_THRESHOLD_NS },
	/* our series' teo70.c, with the gov.h it includes */
	{ "6.12/teo70.c", "PULSE",		TEO_PULSE },
	{ "6.12/teo70.c", "DECAY_SHIFT",	TEO_DECAY_SHIFT },
	{ "6.12/teo70.c", "LATENCY_THRESHOLD_NS", TEO70_LATENCY_THRESHOLD_NS },
	{ "6.12/teo70.c", "RESIDENCY_THRESHOLD_NS", MODEL_RESIDENCY_THRESHOLD_NS },
	{ "idlescope.config", "CONFIG_HZ",	MODEL_HZ },
};

const unsigned int model_nr_constants = ARRAY_SIZE(model_constants);
