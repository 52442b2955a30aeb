/* SPDX-License-Identifier: GPL-2.0 */
/* dump.h - `idlescope dump FILE`: a record file's records as CSV. */
#ifndef __IDLESCOPE_CMD_DUMP_H
#define __IDLESCOPE_CMD_DUMP_H

/**
 * dump_command() - `idlescope dump FILE`
 * @argc: of the command line
 * @argv: the command line, "dump" in argv[1], the options and FILE after it
 *
 * Every record as a CSV row under a header row (with --summary instead
 * the summaries a light run's BPF side keeps, added up from the
 * records), then the warnings of how the file ended (recset_warn_end()).
 *
 * Return: the exit status (cmd/cli.h): 0, or 1 for a file that cannot be
 * opened or holds a bad record (after the rows before it); a usage error
 * exits 2.
 */
int dump_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_DUMP_H */
