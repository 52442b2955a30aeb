// SPDX-License-Identifier: GPL-2.0
/*
 * catalog.c - which models models.c replays: their names, the
 * governor each one is of, and the kernel constants they transcribe (for
 * the host test that compares them with the kernel sources).  Kept apart
 * from the models' code, which stays one translation unit: splitting the
 * models themselves cost the replay 5% (their steps inline into
 * model_step()).
 */
#include "replay/models.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const char *const model_names[MODEL_NR] = {
	[MODEL_MENU2010]	= "menu2010",
	[MODEL_MENU2010FIX]	= "menu2010fix",
	[MODEL_MENU2010RPD]	= "menu2010rpd",
	[MODEL_MENU]		= "menu",
};

const struct model_constant model_constants[] = {
	{ "menu2010.c",	"BUCKETS",		M2010_BUCKETS },
	{ "menu2010.c",	"RESOLUTION",		M2010_RESOLUTION },
	{ "menu2010.c",	"DECAY",		M2010_DECAY },
	{ "menu2010.c",	"DECAY_RPD",		M2010_DECAY_RPD },
	{ "menu2010.c",	"MAX_INTERESTING",	M2010_MAX_INTERESTING },
	{ "menu2010.c",	"INTERVALS",		M2010_INTERVALS },
	{ "menu2010.c",	"STDDEV_THRESH",	M2010_STDDEV_THRESH },
	{ "menu.c",	"BUCKETS",		MENU_BUCKETS },
	{ "menu.c",	"INTERVAL_SHIFT",	MENU_INTERVAL_SHIFT },
	{ "menu.c",	"INTERVALS",		MENU_INTERVALS },
	{ "menu.c",	"RESOLUTION",		MENU_RESOLUTION },
	{ "menu.c",	"DECAY",		MENU_DECAY },
	{ "menu.c",	"MAX_INTERESTING",	MENU_MAX_INTERESTING },
	{ "idlescope.config", "CONFIG_HZ",	MODEL_HZ },
};

const unsigned int model_nr_constants = ARRAY_SIZE(model_constants);

static const unsigned int model_governors[MODEL_NR] = {
	[MODEL_MENU2010]	= IDLESCOPE_GOV_MENU2010,
	[MODEL_MENU2010FIX]	= IDLESCOPE_GOV_MENU2010FIX,
	[MODEL_MENU2010RPD]	= IDLESCOPE_GOV_MENU2010RPD,
	[MODEL_MENU]		= IDLESCOPE_GOV_MENU,
};

int model_of_governor(unsigned int governor)
{
	int id;

	for (id = 0; id < MODEL_NR; id++)
		if (model_governors[id] == governor)
			return id;
	return -1;
}

unsigned int governor_of_model(enum model_id id)
{
	return id < MODEL_NR ? model_governors[id] : IDLESCOPE_GOV_NONE;
}
