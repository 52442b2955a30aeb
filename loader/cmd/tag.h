/* SPDX-License-Identifier: GPL-2.0 */
/* tag.h - `idlescope tag [NAME]`: retag (or untag) a running loader. */
#ifndef __IDLESCOPE_CMD_TAG_H
#define __IDLESCOPE_CMD_TAG_H

/**
 * tag_command() - `idlescope tag [NAME]`
 * @argc: of the command line
 * @argv: the command line, "tag" in argv[1]
 *
 * Return: the exit status, 0 or 1 (no running loader, write error); a
 * usage error exits 2.
 */
int tag_command(int argc, char **argv);

#endif /* __IDLESCOPE_CMD_TAG_H */
