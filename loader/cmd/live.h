/* SPDX-License-Identifier: GPL-2.0 */
/*
 * live.h - `idlescope [OPTIONS]`: the live run's command line (the run
 * itself is live/run.h's).
 */
#ifndef __IDLESCOPE_CMD_LIVE_H
#define __IDLESCOPE_CMD_LIVE_H

/**
 * live_run_command() - `idlescope [OPTIONS]`, the live run
 * @argc: of the command line
 * @argv: the command line: argv[0] "idlescope", the options after it
 *
 * Parses the live run's options (-d, -i, -w, -g, -o, -j, -r, -b, -m, ...),
 * refuses what they cannot mean together, and runs it (live_command()).
 *
 * Return: the exit status (cmd/cli.h): 0, or 1 after one error line (the
 * BPF side, a failed write); a usage error exits 2.
 */
int live_run_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_LIVE_H */
