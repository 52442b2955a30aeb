/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - `idlescope compare A B [-j] [--fail-above PP] [--pair GA:GB]
 * [--allow-missing] [--across FACT[,FACT]]`: two runs (record files, or
 * run directories whose *.rec files are read), the difference B - A of
 * every headline number, with its 95% interval, flagged where the interval
 * excludes 0.  With --fail-above PP it exits 1 when a flagged difference is
 * worse than PP percentage points: a gate a governor patch's CI can run:
 * before/after kernels (the same governor on both sides, --across kernel),
 * or two governors with --pair GA:GB (A's GA against B's GB; A and B may
 * be the same run).  The gate fails closed: a number on one side only, a
 * side without idle periods, an unfinished record file and two setups are
 * errors unless --allow-missing / --across say otherwise.  Exit 2: any
 * error, usage or input.
 */
#ifndef __IDLESCOPE_CMD_COMPARE_H
#define __IDLESCOPE_CMD_COMPARE_H

/**
 * compare_command() - `idlescope compare A B ...`
 * @argc: of the command line
 * @argv: the command line, "compare" in argv[1], the options and the two
 *	runs after it
 *
 * Reads both sides (recset.h), checks that they were recorded alike
 * unless --across says which fact differs, and prints the differences in
 * the format asked for.  A file that shrinks while it is read exits 2 as
 * well, like every other error here.
 *
 * Return: the exit status: 0 no regression past --fail-above, 1 a
 * regression past it (the gate's verdict), 2 any error, usage or input.
 */
int compare_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_COMPARE_H */
