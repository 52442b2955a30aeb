// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_reader - a libFuzzer target for everything that reads a record
 * file: `idlescope report` (text and JSON), `dump` and `compare` (the
 * file against itself, with and without --allow-missing), run in process
 * on each input under ASan and UBSan.  tests/host/fuzz.sh runs it with a
 * fixed seed and count in `make test`; `make fuzz` runs it for longer.
 *
 * An input is one control byte, then a record file.  Most mutations of a
 * record file break its magic, version or sizes and stop at the first
 * check; with the control byte's low bit set the target first writes
 * those right (and, for a file that claims a clean close, the data size
 * and the trailer's magic), so the mutations reach the records and the
 * trailer.  The other bits pick the command run (one an input, so that
 * the count of inputs stays what bounds a run's time).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "cmd/compare.h"
#include "cmd/dump.h"
#include "cmd/report.h"
#include "recfile.h"

#define CTL_REPAIR	(1U << 0)

enum command {
	CMD_REPORT_JSON,
	CMD_REPORT_TEXT,
	CMD_DUMP,
	CMD_COMPARE,		/* the file against itself, a gate */
	CMD_COMPARE_ALLOW,	/* the same with --allow-missing, as JSON */
	NR_COMMANDS,
};

static int memfd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	memfd = memfd_create("fuzz.rec", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("fuzz_reader: memfd_create");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

/* Magic, version and sizes right; for a clean close, its size and trailer magic too. */
static void repair(unsigned char *buf, size_t size)
{
	struct recfile_header hdr, good;
	size_t rest;

	if (size < sizeof(hdr))
		return;
	memcpy(&hdr, buf, sizeof(hdr));
	recfile_header_init(&good);
	memcpy(hdr.magic, good.magic, sizeof(hdr.magic));
	hdr.version = good.version;
	hdr.header_size = good.header_size;
	hdr.record_size = good.record_size;
	hdr.trailer_size = good.trailer_size;
	rest = size - sizeof(hdr);
	if ((hdr.flags & RECFILE_F_COMPLETE) && rest >= sizeof(struct recfile_trailer)) {
		rest -= sizeof(struct recfile_trailer);
		hdr.data_size = rest - rest % sizeof(struct idlescope_record);
		memcpy(buf + sizeof(hdr) + hdr.data_size, RECFILE_TRAILER_MAGIC, 8);
	}
	memcpy(buf, &hdr, sizeof(hdr));
}

static int run(int (*command)(int, char **), char *a0, char *a1, char *a2, char *a3, char *a4)
{
	char *argv[] = { "idlescope", a0, a1, a2, a3, a4, NULL };
	int argc = 1;

	while (argv[argc])
		argc++;
	return command(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int ctl;
	unsigned char *buf;

	if (!size)
		return 0;
	ctl = data[0];
	buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if (ctl & CTL_REPAIR)
		repair(buf, size - 1);
	if (ftruncate(memfd, 0) || pwrite(memfd, buf, size - 1, 0) != (ssize_t)(size - 1)) {
		perror("fuzz_reader: writing the input");
		abort();
	}
	free(buf);
	switch ((enum command)((ctl >> 1) % NR_COMMANDS)) {
	case CMD_REPORT_JSON:
		run(report_command, "report", "-j", path, NULL, NULL);
		break;
	case CMD_REPORT_TEXT:
		run(report_command, "report", path, NULL, NULL, NULL);
		break;
	case CMD_DUMP:
		run(dump_command, "dump", path, NULL, NULL, NULL);
		break;
	case CMD_COMPARE:
		run(compare_command, "compare", path, path, "--fail-above", "1");
		break;
	case CMD_COMPARE_ALLOW:
		run(compare_command, "compare", "-j", "--allow-missing", path, path);
		break;
	case NR_COMMANDS:
		break;
	}
	fflush(stdout);
	clearerr(stdout);
	return 0;
}
