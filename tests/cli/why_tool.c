// SPDX-License-Identifier: GPL-2.0
/*
 * why_tool - `idlescope report`, `extract`, `compare` and `dump` without
 * libbpf, for the host test tests/cli/why_cli.sh, plus what the test
 * needs: a copy of a record file whose records say nothing of their
 * wake-ups (as a kernel without the wake-up tracepoints gives).
 *
 *	why_tool nowake IN OUT
 *	why_tool report|extract|compare|dump ARGS...
 */
#include <stdio.h>
#include <string.h>
#include "cmd/compare.h"
#include "cmd/dump.h"
#include "cmd/extract.h"
#include "cmd/report.h"
#include "recfile.h"

/* @in's header and records, IDLESCOPE_F_HAS_WAKE cleared, into @out. */
static int strip_wakeups(const char *in, const char *out)
{
	struct recfile_trailer trailer;
	struct idlescope_record rec;
	struct recfile rf;
	__u64 nr = 0;
	FILE *f;

	if (recfile_open(&rf, in)) {
		fprintf(stderr, "%s\n", rf.error);
		return 1;
	}
	f = recfile_create(out, &rf.hdr);
	while (f && recfile_read(&rf, &rec) == RECFILE_RECORD) {
		rec.flags &= ~IDLESCOPE_F_HAS_WAKE;
		fwrite(&rec, sizeof(rec), 1, f);
		nr++;
	}
	trailer = rf.trailer;
	recfile_close(&rf);
	if (!f || recfile_finish(f, &trailer, nr)) {
		perror(out);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "nowake"))
		return strip_wakeups(argv[2], argv[3]);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_command(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "extract"))
		return extract_command(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_command(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "dump"))
		return dump_command(argc, argv);
	fprintf(stderr, "usage: why_tool nowake IN OUT | report|extract|compare|dump ARGS...\n");
	return 2;
}
