/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault.h - fault points in the report set's writing (output/dir.h), for
 * the test that stops it at every step (tests/hostile/reportset.sh).  Built
 * with -DIDLESCOPE_FAULT_INJECTION (the host tests' sanitizer build), the
 * environment's IDLESCOPE_FAULT=N:ACTION makes the Nth fault point of the
 * run fail with EIO (ACTION "error") or raise SIGINT or SIGKILL ("int",
 * "kill"), after "idlescope: fault N: ACTION at WHAT" on stderr.  In the
 * real loader a fault point is nothing.
 */
#ifndef __IDLESCOPE_OUTPUT_FAULT_H
#define __IDLESCOPE_OUTPUT_FAULT_H

#ifdef IDLESCOPE_FAULT_INJECTION
/**
 * fault_point() - a step of the report set's writing a test may fail
 * @what: the step, as the "idlescope: fault N: ACTION at WHAT" line says it
 *
 * Counts the fault points of the run; at the Nth of IDLESCOPE_FAULT=N:ACTION
 * it fails with EIO, or raises SIGINT or SIGKILL.  Built without
 * IDLESCOPE_FAULT_INJECTION it is an inline 0 the compiler drops.
 *
 * Return: 0, or -EIO when this is the point to fail with "error".
 */
int fault_point(const char *what);
#else
static inline int fault_point(const char *what)
{
	return 0;
}
#endif

#endif /* __IDLESCOPE_OUTPUT_FAULT_H */
