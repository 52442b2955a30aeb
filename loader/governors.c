// SPDX-License-Identifier: GPL-2.0
/* governors.c - governor names and ids (see governors.h). */
#include <string.h>
#include "governors.h"

#define GOVERNOR_NAME(id, name, select)	[IDLESCOPE_GOV_##id] = #name,
const char *const governor_names[IDLESCOPE_NR_GOVERNORS] = {
	IDLESCOPE_GOVERNORS(GOVERNOR_NAME)
};
#undef GOVERNOR_NAME

const char *governor_name(int governor)
{
	if (governor < 0 || governor >= IDLESCOPE_NR_GOVERNORS)
		return "unknown";
	return governor_names[governor];
}

int governor_id(const char *name)
{
	int i;

	for (i = 0; i < IDLESCOPE_NR_GOVERNORS; i++)
		if (!strcmp(name, governor_names[i]))
			return i;
	return -1;
}
