/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The default table of idlescope_states, in the syntax of its states=
 * parameter: NAME:EXIT_LATENCY_US:TARGET_RESIDENCY_US, comma separated,
 * the states after POLL.  These are skl_cstates of drivers/idle/intel_idle.c
 * in Linux 6.1 (Skylake client), with intel_idle's names.
 *
 * This header is the one place of that table.  The module parses the
 * string as it parses states= and shows it in
 * /sys/module/idlescope_states/parameters/states, where the guest test
 * compares it with the states in sysfs; the host tests (plain C) include
 * this header and parse the same string.  So it holds nothing but the
 * string.
 */
#ifndef _IDLESCOPE_STATES_TABLE_H
#define _IDLESCOPE_STATES_TABLE_H

#define IDLESCOPE_STATES_DEFAULT \
	"C1:2:2,C1E:10:20,C3:70:100,C6:85:200,C7s:124:800,C8:200:800,C9:480:5000,C10:890:5000"

#endif /* _IDLESCOPE_STATES_TABLE_H */
