/* SPDX-License-Identifier: GPL-2.0 */
/*
 * extract.h - `idlescope extract FILE [-w WORKLOAD] [-g GOVERNOR] [--all |
 * --window MS] [-o TRACE]`: the sleeps of a run's worst-scoring stretch,
 * or of all of it, as a trace the replay workload plays back
 * (docs/trace-format.md).
 */
#ifndef __IDLESCOPE_CMD_EXTRACT_H
#define __IDLESCOPE_CMD_EXTRACT_H

/* argv[2...] are the options and the file; the exit status (0 or 1). */
int extract_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_EXTRACT_H */
