/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extract.h - `idlescope extract FILE [-w WORKLOAD] [-g GOVERNOR] [--all |
 * --window MS] [-o TRACE]`: the sleeps of a run's worst-scoring stretch,
 * or of all of it, as a trace the replay workload plays back
 * (docs/trace-format.md).
 */
#ifndef __IDLESCOPE_CMD_EXTRACT_H
#define __IDLESCOPE_CMD_EXTRACT_H

/**
 * extract_command() - `idlescope extract FILE ...`
 * @argc: of the command line
 * @argv: the command line, "extract" in argv[1], the options and FILE
 *	after it
 *
 * Return: the exit status (cmd/cli.h): 0, or 1 for a bad or unreadable
 * file or a failed write; a usage error exits 2.
 */
int extract_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_EXTRACT_H */
