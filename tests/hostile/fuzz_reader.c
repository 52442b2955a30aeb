// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_reader - a libFuzzer target for everything that reads what a run
 * left: `idlescope report` (text and JSON), `dump`, `extract` (the worst
 * window, and every period into a file) and `compare` (the file against
 * itself, with and without --allow-missing; and two run directories) on a
 * record file; the sleep trace's reader; the figures file, power table
 * and workload list readers.  Run in process on each input under ASan and
 * UBSan.  tests/hostile/fuzz.sh runs it with a fixed seed and count in `make
 * test`; `make fuzz` runs it for longer.
 *
 * An input is one control byte, then one or more parts separated by
 * FUZZ_PART_SEP (what a command reads as two files reads two parts; a
 * part missing is a file missing).  Most mutations of a record file break
 * its magic, version or sizes and stop at the first check; with the
 * control byte's low bit set the target first writes those right (and,
 * for a file that claims a clean close, the data size and the trailer's
 * magic), so the mutations reach the records and the trailer.  The other
 * bits pick the command run (one an input, so that the count of inputs
 * stays what bounds a run's time).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "cmd/compare.h"
#include "cmd/dump.h"
#include "cmd/extract.h"
#include "cmd/report.h"
#include "recfile.h"
#include "report/figures.h"
#include "runinfo/eventsrc.h"
#include "stats/energy.h"
#include "trace.h"

#define CTL_REPAIR	(1U << 0)
#define FUZZ_PART_SEP	"\n--8<--\n"
#define FUZZ_MAX_PARTS	4

enum command {
	CMD_REPORT_JSON,
	CMD_REPORT_TEXT,
	CMD_DUMP,
	CMD_COMPARE,		/* the file against itself, a gate */
	CMD_COMPARE_ALLOW,	/* the same with --allow-missing, as JSON */
	CMD_EXTRACT,		/* the worst window, to stdout */
	CMD_EXTRACT_ALL,	/* every period, into a file */
	CMD_TRACE,		/* the part as a sleep trace */
	CMD_FIGURES,		/* two parts as the figures files of two runs */
	CMD_POWER,		/* the part as --power's table */
	CMD_WORKLOADS,		/* the part as -w's workload list */
	CMD_COMPARE_DIRS,	/* A/1/run.rec, B/1/run.rec, B/2/run.rec, A/1/run.rec.figures */
	NR_COMMANDS,
};

struct part {
	const uint8_t *data;
	size_t size;
};

static int memfd = -1;
static char path[64];
static char dir[64];	/* a directory of its own, in memory when /dev/shm is there */
static FILE *null_out;

static void clear_dir(void);

/* DIR goes with the process (a crash leaves it, beside the input that crashed). */
static void remove_dir(void)
{
	clear_dir();
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	memfd = memfd_create("fuzz.rec", MFD_CLOEXEC);
	snprintf(dir, sizeof(dir), "%s/fuzz_reader.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	null_out = fopen("/dev/null", "w");
	if (memfd < 0 || !mkdtemp(dir) || !null_out) {
		perror("fuzz_reader: setting up");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	atexit(remove_dir);
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

/* The parts of @data, split at FUZZ_PART_SEP; how many. */
static int split(const uint8_t *data, size_t size, struct part *parts)
{
	const size_t sep_len = strlen(FUZZ_PART_SEP);
	const uint8_t *at;
	int n = 0;

	while (n < FUZZ_MAX_PARTS - 1 &&
	       (at = memmem(data, size, FUZZ_PART_SEP, sep_len))) {
		parts[n++] = (struct part){ data, at - data };
		size -= at - data + sep_len;
		data = at + sep_len;
	}
	parts[n++] = (struct part){ data, size };
	return n;
}

/* @p into @file (a record file repaired when @repair_rec), made from scratch. */
static void write_part(const char *file, const struct part *p, bool repair_rec)
{
	unsigned char *buf = malloc(p->size ? p->size : 1);
	FILE *f = fopen(file, "w");

	if (!buf || !f) {
		perror(file);
		abort();
	}
	memcpy(buf, p->data, p->size);
	if (repair_rec)
		repair(buf, p->size);
	if (fwrite(buf, 1, p->size, f) != p->size || fclose(f)) {
		perror(file);
		abort();
	}
	free(buf);
}

/* DIR/@name; its directories made. */
static char *in_dir(char *buf, size_t size, const char *name)
{
	char *slash;

	snprintf(buf, size, "%s/%s", dir, name);
	for (slash = strchr(buf + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(buf, 0755);
		*slash = '/';
	}
	return buf;
}

static int remove_entry(const char *file, const struct stat *st, int flag, struct FTW *ftw)
{
	return ftw->level ? remove(file) : 0;	/* everything under DIR, not DIR */
}

/* DIR empty again: the next input's files from scratch. */
static void clear_dir(void)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int run(int (*command)(int, char **), char *a0, char *a1, char *a2, char *a3, char *a4)
{
	char *argv[] = { "idlescope", a0, a1, a2, a3, a4, NULL };
	int argc = 1;

	while (argv[argc])
		argc++;
	return command(argc, argv);
}

static void fuzz_trace(const struct part *p)
{
	FILE *f = fmemopen((void *)p->data, p->size ? p->size : 1, "r");
	struct trace t;
	char err[128];

	if (f && !trace_read(f, &t, err, sizeof(err))) {
		trace_write(null_out, &t, "a comment");
		trace_free(&t);
	}
	if (f)
		fclose(f);
}

static void fuzz_figures(const struct part *parts, int nr)
{
	static struct figures fig;
	char file[128];
	struct json j = { .f = null_out };
	int i;

	for (i = 0; i < nr && i < 2; i++) {
		write_part(in_dir(file, sizeof(file), i ? "b.rec.figures" : "a.rec.figures"),
			   &parts[i], false);
		if (figures_read_beside(&fig, in_dir(file, sizeof(file), i ? "b.rec" : "a.rec")))
			break;
	}
	figures_fprint_text(null_out, &fig);
	json_object(&j, NULL, false);
	figures_json(&j, &fig);
	json_object_end(&j);
	figures_free(&fig);
}

static void fuzz_lists(enum command cmd, const struct part *p)
{
	static struct event_sources es;
	struct power_table table;
	char file[128], err[512];

	write_part(in_dir(file, sizeof(file), "list"), p, false);
	if (cmd == CMD_POWER)
		power_table_load(file, &table, err, sizeof(err));
	else
		event_sources_read(&es, file, err, sizeof(err));
}

/* Two run directories of up to three record files and a figures file. */
static void fuzz_compare_dirs(const struct part *parts, int nr, bool repair_rec)
{
	static const char *const names[FUZZ_MAX_PARTS] = {
		"A/1/run.rec", "B/1/run.rec", "B/2/run.rec", "A/1/run.rec.figures",
	};
	char file[128], a[128], b[128];
	int i;

	for (i = 0; i < nr; i++)
		write_part(in_dir(file, sizeof(file), names[i]), &parts[i], repair_rec && i < 3);
	run(compare_command, "compare", in_dir(a, sizeof(a), "A"), in_dir(b, sizeof(b), "B"),
	    "--fail-above", "1");
}

static void run_on_memfd(enum command cmd)
{
	char out[128];

	switch (cmd) {
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
	case CMD_EXTRACT:
		run(extract_command, "extract", path, NULL, NULL, NULL);
		break;
	case CMD_EXTRACT_ALL:
		run(extract_command, "extract", "--all", path, "-o",
		    in_dir(out, sizeof(out), "out.trace"));
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part parts[FUZZ_MAX_PARTS];
	enum command cmd;
	int nr;

	if (!size)
		return 0;
	cmd = (enum command)((data[0] >> 1) % NR_COMMANDS);
	nr = split(data + 1, size - 1, parts);
	if (cmd <= CMD_EXTRACT_ALL) {
		write_part(path, &parts[0], data[0] & CTL_REPAIR);
		run_on_memfd(cmd);
	} else if (cmd == CMD_TRACE) {
		fuzz_trace(&parts[0]);
	} else if (cmd == CMD_FIGURES) {
		fuzz_figures(parts, nr);
	} else if (cmd == CMD_POWER || cmd == CMD_WORKLOADS) {
		fuzz_lists(cmd, &parts[0]);
	} else {
		fuzz_compare_dirs(parts, nr, data[0] & CTL_REPAIR);
	}
	clear_dir();
	fflush(stdout);
	clearerr(stdout);
	return 0;
}
