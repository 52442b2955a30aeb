/* SPDX-License-Identifier: GPL-2.0 */
/*
 * file.h - a file on disk either complete or absent.  The report's
 * documents and plots are written this way, so a crash, a full disk or a
 * VM killed by its timeout never leaves a truncated one that looks valid.
 */
#ifndef __IDLESCOPE_OUTPUT_FILE_H
#define __IDLESCOPE_OUTPUT_FILE_H

#include <stdio.h>

/* The temporary file's name: "<path>" OUTPUT_FILE_TMP_INFIX "<pid>". */
#define OUTPUT_FILE_TMP_INFIX	".tmp."

/* Prints a document into @f; 0 or -errno (output_stream_status()). */
typedef int (*output_fprint_fn)(FILE *f, const void *ctx);

/**
 * output_write_file() - write a file atomically
 * @path: the file
 * @fprint: prints its contents
 * @ctx: what @fprint prints from
 *
 * The contents go to "<path>.tmp.<pid>" in the same directory, which is
 * fsynced and renamed over @path, then the directory is fsynced (best
 * effort).  On failure nothing is left behind.
 *
 * Return: 0, or -errno (@fprint's own error first).
 */
int output_write_file(const char *path, output_fprint_fn fprint, const void *ctx);

/**
 * output_stream_status() - whether writing a stream failed
 * @f: the stream
 *
 * Return: 0, or -errno (-EIO when errno says nothing) if @f's error flag
 * is set.
 */
int output_stream_status(FILE *f);

#endif /* __IDLESCOPE_OUTPUT_FILE_H */
