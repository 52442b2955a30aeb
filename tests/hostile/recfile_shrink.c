// SPDX-License-Identifier: GPL-2.0
/*
 * recfile_shrink.c - a record file that shrinks while it is read: the
 * reader must end with its one-line error and status 1 (recfile.c's SIGBUS
 * guard), not die of the signal, nor read on.
 *
 * usage: recfile_shrink FILE  (a record file with more than a page of
 * records, which it truncates to nothing: the rest of a page the file
 * still had would read as zeros, and a record of zeros ends the data)
 */
#include <stdio.h>
#include <unistd.h>
#include "recfile.h"

int main(int argc, char **argv)
{
	enum recfile_status status;
	unsigned long long more = 0;
	struct recfile rf;

	if (argc != 2) {
		fprintf(stderr, "usage: recfile_shrink FILE\n");
		return 2;
	}
	if (recfile_open(&rf, argv[1]) || !recfile_next(&rf, &status)) {
		fprintf(stderr, "recfile_shrink: %s: no first record\n", argv[1]);
		return 2;
	}
	/* The window is mapped now: cut the file under it. */
	if (truncate(argv[1], 0)) {
		perror("recfile_shrink: truncate");
		return 2;
	}
	while (recfile_next(&rf, &status))
		more++;
	fprintf(stderr, "recfile_shrink: read %llu records after the file shrank\n", more);
	return 3;
}
