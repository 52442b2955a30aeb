/* SPDX-License-Identifier: GPL-2.0 */
/* dump.h - `idlescope dump FILE`: a record file's records as CSV. */
#ifndef __IDLESCOPE_CMD_DUMP_H
#define __IDLESCOPE_CMD_DUMP_H

/* argv[2] is FILE; the exit status (1: bad usage or a bad file). */
int dump_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_DUMP_H */
