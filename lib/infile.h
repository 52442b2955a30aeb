/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infile.h - open a file given on the command line for reading, without
 * ever blocking on it.  A FIFO blocks open() until a writer comes and
 * read() until it writes; a directory opens but reads as an I/O error; a
 * character device may never end.  The file is opened with O_NONBLOCK,
 * checked with fstat() to be a regular file, and only then read (blocking
 * again: a regular file's reads do not wait).
 */
#ifndef __INFILE_H
#define __INFILE_H

#include <stdio.h>
#include <sys/stat.h>

/**
 * infile_open() - open a regular file for reading, never blocking
 * @path: the file
 * @st: its fstat(), or NULL
 * @why: on failure, what is wrong, for "PATH: <why>": strerror(), "a
 *	directory, not a regular file" or "not a regular file (a FIFO, socket or
 *	device)"
 *
 * Return: the stream (close-on-exec), or NULL with errno set (EISDIR for
 * a directory, EINVAL for another file that is not regular).
 */
FILE *infile_open(const char *path, struct stat *st, const char **why);

#endif /* __INFILE_H */
