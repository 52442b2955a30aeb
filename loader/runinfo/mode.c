// SPDX-License-Identifier: GPL-2.0
/*
 * mode.c - what this kernel lets idlescope see, in one line.
 *
 * The same BPF object runs on our patched guest kernel and on a
 * distribution kernel (Debian's), and sees less on the latter: without the
 * observation fields (kernel/patches 0004) no governor's prediction is
 * recorded, without the 2010 governors there is no menu2010 family to
 * measure, without trampolines (fentry/fexit) there are no select probes,
 * and without a cpuidle driver no governor runs at all.  The live path
 * decides the capabilities (live/probes.c); this prints them for a person.
 */
#include "runinfo/mode.h"

static const char *yes_no(__u32 caps, __u32 cap)
{
	return caps & cap ? "yes" : "no";
}

void mode_print(FILE *out, __u32 caps, const char *cpuidle_driver)
{
	fprintf(out, "idlescope: mode: observation fields %s, 2010 governors %s, "
		"select probes %s, cpuidle driver %s\n",
		yes_no(caps, IDLESCOPE_CAP_OBSERVATION), yes_no(caps, IDLESCOPE_CAP_GOV2010),
		caps & IDLESCOPE_CAP_SELECT_PROBES ? "yes" : "no (tracepoints only)",
		cpuidle_driver[0] ? cpuidle_driver : "none");
}
