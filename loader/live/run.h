/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - the live run (`idlescope [OPTIONS]`) and `idlescope tag`:
 * what the run does with the BPF side of live/probes.h, from the governor switch
 * to the reports.
 */
#ifndef __IDLESCOPE_LIVE_RUN_H
#define __IDLESCOPE_LIVE_RUN_H

#include <stdbool.h>
#include "live/probes.h"

/* The live run's options, as cmd/live.c parsed them. */
struct live_cmd_opts {
	long duration_s;		/* -d */
	long interval_s;		/* -i: dashboard refresh */
	bool verbose;			/* -v: libbpf debug messages */
	bool json;			/* -j: the JSON report on stdout */
	const char *workload;		/* -w: the first tag, NULL: none */
	const char *governor;		/* -g: NULL: leave it as it is */
	const char *outdir;		/* -o: the report set, NULL: none */
	const char *record_path;	/* -r: the record file, NULL: none */
	unsigned int run_position;	/* --position: in its boot's runs, 0: unknown */
	struct live_opts bpf;		/* the BPF side's (on_record, ctx: set here) */
};

/**
 * live_command() - the live run
 * @opts: its options
 *
 * Load and attach, switch the governor, watch for -d seconds (or until
 * SIGINT/SIGTERM) writing the record file (-r), then write the reports and
 * restore the governor; every error is printed on one line.
 *
 * Return: the exit status, 0 or 1.
 */
int live_command(const struct live_cmd_opts *opts);

/**
 * live_retag() - tag the running loader's idle periods from now on
 * @name: the workload's name, NULL to untag them
 *
 * Writes the tag map a running loader pinned; an error is printed on one
 * line.
 *
 * Return: the exit status, 0 or 1 (no running loader, write error).
 */
int live_retag(const char *name);

#endif /* __IDLESCOPE_LIVE_RUN_H */
