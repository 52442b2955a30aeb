/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - `idlescope report FILE|DIR... [-j] [-o DIR]`: the report
 * recomputed off-line from record files, through the same pipeline as a
 * live run.
 */
#ifndef __IDLESCOPE_CMD_REPORT_H
#define __IDLESCOPE_CMD_REPORT_H

/* argv[2...] are the options and files; the exit status (cmd/cli.h). */
int report_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_REPORT_H */
