/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - `idlescope report FILE|DIR... [-j] [-o DIR]`: the report
 * recomputed off-line from record files, through the same pipeline as a
 * live run.
 */
#ifndef __IDLESCOPE_CMD_REPORT_H
#define __IDLESCOPE_CMD_REPORT_H

/**
 * report_command() - `idlescope report FILE|DIR...`
 * @argc: of the command line
 * @argv: the command line, "report" in argv[1], the options and the
 *	record files or run directories after it
 *
 * The files are read as one run (recset.h) through the pipeline of the
 * live run, so a live run's report and the report of its record file are
 * the same; the report goes to stdout, or as a set to -o DIR.
 *
 * Return: the exit status (cmd/cli.h): 0, or 1 after one error line (a
 * bad record file, a failed write); a usage error exits 2.
 */
int report_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_REPORT_H */
