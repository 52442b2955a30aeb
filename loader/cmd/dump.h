/* SPDX-License-Identifier: GPL-2.0 */
/* dump.h - `idlescope dump FILE`: a record file's records as CSV. */
#ifndef __IDLESCOPE_CMD_DUMP_H
#define __IDLESCOPE_CMD_DUMP_H

/* argv[2...] are the options and FILE; the exit status (cmd/cli.h). */
int dump_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_DUMP_H */
