// SPDX-License-Identifier: GPL-2.0
/*
 * compare_tool - `idlescope compare` without libbpf, for the host test
 * (tests/host/compare.sh), plus what the test needs to start from: a
 * record file with a known state table and no records, as bench/genrec's
 * template (-H).
 *
 *	compare_tool template FILE
 *	compare_tool compare A B [-j] [--fail-above PP]
 */
#include <stdio.h>
#include <string.h>
#include "cmd/compare.h"
#include "recfile.h"

#define US	1000ULL

/* POLL, C1 (2 us), C1E (10 us), C6 (600 us): a small Skylake-like table. */
static int write_template(const char *path)
{
	static const struct idlescope_state states[] = {
		{ .target_residency_ns = 0, .exit_latency_ns = 0, .polling = 1 },
		{ .target_residency_ns = 2 * US, .exit_latency_ns = 2 * US },
		{ .target_residency_ns = 20 * US, .exit_latency_ns = 10 * US },
		{ .target_residency_ns = 600 * US, .exit_latency_ns = 133 * US },
	};
	struct recfile_header hdr;
	FILE *f;

	recfile_header_init(&hdr);
	hdr.nr_cpus = 2;
	hdr.nr_states = sizeof(states) / sizeof(states[0]);
	hdr.hz = 1000;
	snprintf(hdr.kernel_release, sizeof(hdr.kernel_release), "template");
	snprintf(hdr.clock_mode, sizeof(hdr.clock_mode), "virtual");
	memcpy(hdr.states, states, sizeof(states));
	f = recfile_create(path, &hdr);
	if (!f || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "template"))
		return write_template(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_command(argc, argv);
	fprintf(stderr, "usage: compare_tool template FILE | compare A B [-j] [--fail-above PP]\n");
	return 2;
}
