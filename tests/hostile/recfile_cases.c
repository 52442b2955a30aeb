// SPDX-License-Identifier: GPL-2.0
/*
 * recfile_cases - the damaged record files of tests/hostile/recfile.sh, made
 * from a good one (genrec's) by changing one field, found by its name in
 * recfile.h (offsetof, no byte offsets written twice).
 *
 *   recfile_cases cases BASE DIR   one file per case below, DIR/<case>.rec
 *   recfile_cases boot-id BASE OUT ID   BASE with the boot id ID, as OUT
 *   recfile_cases fuzz BASE DIR N  DIR/fuzz-<seed>.rec for seeds 1..N: BASE
 *                                  with 1..8 bits flipped (half of the flips
 *                                  in the header, a quarter in the trailer,
 *                                  a quarter anywhere), one in four also
 *                                  cut short at a random length
 *
 * BASE must be a complete file of at least 16 records on 2 CPUs.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recfile.h"
#include "rng.h"

#define RECORD_SIZE	sizeof(struct idlescope_record)

struct file {
	unsigned char *buf;
	size_t size;
};

static struct file base;

static int load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return -1;
	base.size = size;
	base.buf = malloc(base.size);
	if (!base.buf || fread(base.buf, 1, base.size, f) != base.size)
		return -1;
	fclose(f);
	return base.size >= sizeof(struct recfile_header) + 16 * RECORD_SIZE +
			    sizeof(struct recfile_trailer) ? 0 : -1;
}

/* A fresh copy of BASE to damage. */
static struct file copy(void)
{
	struct file f = { malloc(base.size), base.size };

	if (!f.buf)
		exit(1);
	memcpy(f.buf, base.buf, base.size);
	return f;
}

static struct recfile_header *hdr_of(struct file *f)
{
	return (struct recfile_header *)f->buf;
}

static struct recfile_trailer *trailer_of(struct file *f)
{
	return (struct recfile_trailer *)(f->buf + f->size - sizeof(struct recfile_trailer));
}

static struct idlescope_record *record_of(struct file *f, size_t i)
{
	return (struct idlescope_record *)(f->buf + sizeof(struct recfile_header) + i * RECORD_SIZE);
}

static size_t nr_records(struct file *f)
{
	return hdr_of(f)->data_size / RECORD_SIZE;
}

static void save_as(const char *path, struct file *f)
{
	FILE *out = fopen(path, "wb");

	if (!out || fwrite(f->buf, 1, f->size, out) != f->size || fclose(out)) {
		fprintf(stderr, "recfile_cases: writing %s: %s\n", path, strerror(errno));
		exit(1);
	}
	free(f->buf);
}

static void save(const char *dir, const char *name, struct file *f)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.rec", dir, name);
	save_as(path, f);
}

/* @f as a loader killed after @records and a half left it: no flag, no size, no trailer. */
static void kill_file(struct file *f, size_t records)
{
	hdr_of(f)->flags = 0;
	hdr_of(f)->data_size = 0;
	f->size = sizeof(struct recfile_header) + records * RECORD_SIZE + RECORD_SIZE / 2;
}

static struct file killed(size_t records)
{
	struct file f = copy();

	kill_file(&f, records);
	return f;
}

/* Workload names that CSV, terminals, file names and JSON must survive. */
static void set_names(struct file *f)
{
	static const char *const names[] = {
		"a,b", "q\"x", "esc\033[31m", "a b", "a_b", "a/b",
	};
	size_t i;

	for (i = 0; i < nr_records(f); i++)
		snprintf(record_of(f, i)->workload, IDLESCOPE_WORKLOAD_LEN, "%s",
			 names[i % (sizeof(names) / sizeof(names[0]))]);
}

/* The inputs that overflowed signed arithmetic in replay/models.c. */
static void set_overflows(struct file *f)
{
	struct recfile_header *hdr = hdr_of(f);
	size_t i;

	for (i = 1; i < hdr->nr_states; i++)
		hdr->states[i].exit_latency_ns = INT64_MAX;
	for (i = 0; i < nr_records(f); i++)
		record_of(f, i)->load = 0x7fffffff;
}

/* A file that says nothing is wrong but skips @gap periods of CPU 1 after record 20. */
static void skip_seq(struct file *f, __u32 gap)
{
	size_t i;

	for (i = 20; i < nr_records(f); i++)
		if (record_of(f, i)->cpu == 1)
			record_of(f, i)->seq += gap;
}

/*
 * Names that a terminal, a one-line error and the workload list must
 * survive: two tags that differ only in a control byte, header strings
 * and a skipped program with a newline and escape sequences.
 */
static void set_hostile_names(struct file *f)
{
	struct recfile_header *hdr = hdr_of(f);
	struct recfile_trailer *t = trailer_of(f);
	size_t i;

	for (i = 0; i < nr_records(f); i++)
		snprintf(record_of(f, i)->workload, IDLESCOPE_WORKLOAD_LEN, "tag%c", 1 + (int)(i % 2));
	snprintf(hdr->cpuidle_driver, RECFILE_DRIVER_LEN, "drv\n\033[31mred");
	t->nr_skipped = 1;
	snprintf(t->skipped[0].prog, RECFILE_NAME_LEN, "prog\033]0;title\007");
	snprintf(t->skipped[0].reason, RECFILE_REASON_LEN, "line one\nline two");
}

/* The killed loader's file of a preallocated (or sparse) file: zeros after 10 records. */
static struct file zero_tail(void)
{
	struct file f = killed(10);
	size_t size = sizeof(struct recfile_header) + 1010 * RECORD_SIZE;

	f.buf = realloc(f.buf, size);
	if (!f.buf)
		exit(1);
	memset(f.buf + sizeof(struct recfile_header) + 10 * RECORD_SIZE, 0, 1000 * RECORD_SIZE);
	f.size = size;
	return f;
}

/* Wake-up fields no BPF side writes: sources, IPIs and names out of range. */
static void set_wake_garbage(struct file *f)
{
	struct recfile_trailer *t = trailer_of(f);
	size_t i;

	for (i = 0; i < nr_records(f); i++) {
		record_of(f, i)->flags |= IDLESCOPE_F_HAS_WAKE;
		record_of(f, i)->wake_source = i % 3 ? 0xffff : i % 256;
		record_of(f, i)->wake_irq = UINT32_MAX - i;
		record_of(f, i)->wake_fn = UINT64_MAX - i % 40;
	}
	t->nr_names = RECFILE_MAX_NAMES;
	for (i = 0; i < RECFILE_MAX_NAMES; i++) {
		t->names[i].kind = i % 2 ? RECFILE_NAME_IRQ : RECFILE_NAME_FUNCTION;
		t->names[i].value = UINT64_MAX - i;
		snprintf(t->names[i].name, RECFILE_NAME_LEN, "a,\"b\033[31m%zu", i);
	}
}

/*
 * Issue 39's fuzzing round.  Record @i's CPU's record before it, or NULL:
 * what a moved or copied record must contradict.
 */
static struct idlescope_record *prev_of_cpu(struct file *f, size_t i)
{
	__u32 cpu = record_of(f, i)->cpu;

	while (i-- > 0)
		if (record_of(f, i)->cpu == cpu)
			return record_of(f, i);
	return NULL;
}

/* The last record of @cpu. */
static struct idlescope_record *last_of_cpu(struct file *f, __u32 cpu)
{
	size_t i = nr_records(f);

	while (i-- > 0)
		if (record_of(f, i)->cpu == cpu)
			return record_of(f, i);
	exit(1);
}

/* The data section written twice, then the trailer: every period twice. */
static struct file data_twice(void)
{
	struct file f = copy();
	size_t data = hdr_of(&f)->data_size, hdr = sizeof(struct recfile_header);

	f.buf = realloc(f.buf, f.size + data);
	if (!f.buf)
		exit(1);
	memmove(f.buf + hdr + 2 * data, f.buf + hdr + data, sizeof(struct recfile_trailer));
	memcpy(f.buf + hdr + data, f.buf + hdr, data);
	f.size += data;
	hdr_of(&f)->data_size = 2 * data;
	return f;
}

/* Record 30 enters in the middle of its CPU's record before it (sequence intact). */
static void overlap(struct file *f)
{
	struct idlescope_record *prev = prev_of_cpu(f, 30);

	if (!prev)
		exit(1);
	record_of(f, 30)->enter_ns = prev->enter_ns + prev->residency_ns / 2;
}

/* A wake-up name with a newline, for the records' timer function. */
static void name_newline(struct file *f)
{
	struct recfile_trailer *t = trailer_of(f);

	t->nr_names = 1;
	t->names[0].kind = RECFILE_NAME_FUNCTION;
	t->names[0].value = record_of(f, 0)->wake_fn;
	snprintf(t->names[0].name, RECFILE_NAME_LEN, "fn\nsleep 0 0 1 ipi\033[2J");
}

/* As a big-endian writer left it: the header's numbers byte-swapped. */
static void big_endian(struct file *f)
{
	struct recfile_header *hdr = hdr_of(f);

	hdr->version = __builtin_bswap32(hdr->version);
	hdr->header_size = __builtin_bswap32(hdr->header_size);
	hdr->record_size = __builtin_bswap32(hdr->record_size);
	hdr->trailer_size = __builtin_bswap32(hdr->trailer_size);
	hdr->nr_cpus = __builtin_bswap32(hdr->nr_cpus);
	hdr->data_size = __builtin_bswap64(hdr->data_size);
}

/*
 * Sums of ns that would wrap to just below the rest: of each governor's
 * periods on a CPU, two of 2^63 - 10 ms in the deepest state, the rest
 * in state 1, shallower than the cheapest state for them.  A wrapped sum
 * of idle time is then 20 ms short of the shallower time in it.
 */
static void residency_wrap(struct file *f)
{
	unsigned int seen[256][IDLESCOPE_MAX_CPUS] = {};
	struct idlescope_record *rec;
	size_t i;

	for (i = 0; i < nr_records(f); i++) {
		rec = record_of(f, i);
		if (seen[rec->governor & 255][rec->cpu]++ < 2) {
			rec->residency_ns = (1ULL << 63) - 10000000;
			rec->state = hdr_of(f)->nr_states - 1;
		} else {
			rec->state = 1;
		}
	}
}

static void cases_39(const char *dir)
{
	struct file f;

	f = data_twice(); save(dir, "data-twice", &f);
	f = copy(); *record_of(&f, 21) = *record_of(&f, 20); save(dir, "record-repeated", &f);
	f = copy(); overlap(&f); save(dir, "records-overlap", &f);
	f = copy(); record_of(&f, 30)->enter_ns = 1ULL << 62; save(dir, "enter-2^62", &f);
	f = copy(); last_of_cpu(&f, 1)->enter_ns = 1ULL << 62; save(dir, "enter-2^62-last", &f);
	f = copy(); last_of_cpu(&f, 1)->enter_ns = UINT64_MAX - 5; save(dir, "enter-2^64", &f);
	f = copy(); name_newline(&f); save(dir, "wake-name-newline", &f);
	f = copy(); big_endian(&f); save(dir, "big-endian", &f);
	f = copy(); snprintf(hdr_of(&f)->clock_args, RECFILE_CLOCK_ARGS_LEN, "-icount shift=7");
	record_of(&f, 0)->enter_ns++;	/* another run, not a copy of BASE */
	save(dir, "clock-args-7", &f);
	f = copy(); residency_wrap(&f); save(dir, "residency-wrap", &f);
}

static void cases(const char *dir)
{
	struct file f;
	size_t i;

	f = copy(); hdr_of(&f)->version = 2; save(dir, "v2", &f);
	f = copy(); hdr_of(&f)->version = 9; save(dir, "v9", &f);
	/* what wrapped header + count * size in version 2 */
	f = copy(); hdr_of(&f)->data_size += RECORD_SIZE * ((1ULL << 60) / RECORD_SIZE);
	save(dir, "size-wrap", &f);
	f = copy(); hdr_of(&f)->data_size = UINT64_MAX - UINT64_MAX % RECORD_SIZE;
	save(dir, "size-max", &f);
	f = copy(); hdr_of(&f)->data_size += 1; save(dir, "size-partial", &f);
	f = copy(); hdr_of(&f)->nr_cpus = 0; save(dir, "cpus-0", &f);
	f = copy(); hdr_of(&f)->nr_cpus = IDLESCOPE_MAX_CPUS + 1; save(dir, "cpus-9", &f);
	f = copy(); record_of(&f, 10)->cpu = 5; save(dir, "cpu-5-of-2", &f);
	f = copy(); trailer_of(&f)->dropped_records[5] = 1; save(dir, "trailer-cpu-5-of-2", &f);
	f = copy(); trailer_of(&f)->duration_s = NAN; save(dir, "duration-nan", &f);
	f = copy(); trailer_of(&f)->duration_s = INFINITY; save(dir, "duration-inf", &f);
	f = copy(); trailer_of(&f)->lateness.count++; save(dir, "lateness-count", &f);
	f = copy(); hdr_of(&f)->flags |= 1U << 7; save(dir, "unknown-flags", &f);
	f = copy(); memset(hdr_of(&f)->clock_mode, 'x', RECFILE_CLOCK_MODE_LEN);
	save(dir, "unterminated-clock", &f);
	f = copy(); hdr_of(&f)->flags = 0; save(dir, "data-size-without-flag", &f);
	f = copy(); memcpy(trailer_of(&f)->magic, "IDLSCXXX", 8); save(dir, "trailer-magic", &f);
	f = copy(); hdr_of(&f)->hz = 250; save(dir, "hz-250", &f);
	f = copy(); snprintf(hdr_of(&f)->cpuidle_driver, RECFILE_DRIVER_LEN, "intel_idle");
	save(dir, "driver-intel_idle", &f);
	f = copy(); snprintf(hdr_of(&f)->clock_mode, RECFILE_CLOCK_MODE_LEN, "host");
	save(dir, "clock-host", &f);
	f = copy(); trailer_of(&f)->dropped_records[1] = 3; save(dir, "dropped-3", &f);
	f = copy(); set_names(&f); save(dir, "names", &f);
	f = copy(); trailer_of(&f)->nr_names = RECFILE_MAX_NAMES + 1; save(dir, "wake-names-65", &f);
	f = copy(); trailer_of(&f)->nr_names = 1; trailer_of(&f)->names[0].kind = RECFILE_NAME_IRQ;
	memset(trailer_of(&f)->names[0].name, 'x', RECFILE_NAME_LEN);
	save(dir, "wake-name-unterminated", &f);
	f = copy(); set_wake_garbage(&f); save(dir, "wake-garbage", &f);
	f = copy(); set_overflows(&f); save(dir, "overflows", &f);
	f = copy();
	for (i = 0; i < nr_records(&f); i++)
		record_of(&f, i)->lost_selects = 0xffff;
	save(dir, "lost-selects", &f);
	/* 16 bytes of tag and no NUL, nor one in the field after it. */
	f = copy();
	for (i = 0; i < nr_records(&f); i++) {
		memset(record_of(&f, i)->workload, 'w', IDLESCOPE_WORKLOAD_LEN);
		record_of(&f, i)->delta_tick_ns = 0x41414141;
	}
	save(dir, "workload-unterminated", &f);
	f = killed(10); save(dir, "killed-cut", &f);
	/* Issue 24: losses that no trailer counts, names, counters. */
	f = copy(); skip_seq(&f, 5); save(dir, "seq-gap-5", &f);
	f = copy(); skip_seq(&f, 7); kill_file(&f, 40); save(dir, "killed-seq-gap-7", &f);
	f = zero_tail(); save(dir, "zero-tail", &f);
	f = copy(); set_hostile_names(&f); save(dir, "hostile-names", &f);
	f = copy(); snprintf(hdr_of(&f)->clock_mode, RECFILE_CLOCK_MODE_LEN, "virt\nual");
	save(dir, "clock-newline", &f);
	f = copy();
	trailer_of(&f)->dropped_records[0] = 1ULL << 63;
	trailer_of(&f)->dropped_records[1] = 1ULL << 63;
	save(dir, "dropped-wrap", &f);
	f = copy();
	for (i = 0; i < nr_records(&f); i++)
		record_of(&f, i)->residency_ns = (1ULL << 63) + i;
	save(dir, "residency-huge", &f);
	f = copy();
	for (i = 0; i < nr_records(&f); i++)
		record_of(&f, i)->state = hdr_of(&f)->nr_states;
	save(dir, "state-past-table", &f);
	f = copy();
	for (i = 0; i < nr_records(&f); i++)
		record_of(&f, i)->predicted_ns = (1ULL << 63) + 5;
	save(dir, "predicted-2^63+5", &f);
	/* Killed after the trailer was written but before the flag. */
	f = copy(); hdr_of(&f)->flags = 0; hdr_of(&f)->data_size = 0;
	save(dir, "killed-before-flag", &f);
	cases_39(dir);
}

static void fuzz_one(const char *dir, __u64 seed)
{
	struct file f = copy();
	char name[32];
	size_t trailer_at = f.size - sizeof(struct recfile_trailer);
	struct rng rng;
	int flips, i;
	size_t at;

	rng_seed(&rng, seed);
	flips = rng_range(&rng, 1, 8);
	for (i = 0; i < flips; i++) {
		switch (rng_range(&rng, 0, 3)) {
		case 0:
		case 1:
			at = rng_range(&rng, 0, sizeof(struct recfile_header) - 1);
			break;
		case 2:
			at = trailer_at + rng_range(&rng, 0, sizeof(struct recfile_trailer) - 1);
			break;
		default:
			at = rng_range(&rng, 0, f.size - 1);
			break;
		}
		f.buf[at] ^= 1U << rng_range(&rng, 0, 7);
	}
	f.size -= rng_range(&rng, 0, 3) ? 0 : rng_range(&rng, 0, f.size);
	snprintf(name, sizeof(name), "fuzz-%llu", (unsigned long long)seed);
	save(dir, name, &f);
}

int main(int argc, char **argv)
{
	__u64 seed, n;

	if (argc < 4 || load(argv[2])) {
		fprintf(stderr, "usage: recfile_cases cases BASE DIR | boot-id BASE OUT ID | "
			"fuzz BASE DIR N (BASE: a complete file of >= 16 records)\n");
		return 2;
	}
	if (!strcmp(argv[1], "cases") && argc == 4) {
		cases(argv[3]);
	} else if (!strcmp(argv[1], "boot-id") && argc == 5) {
		/* BASE with another boot id, in place of DIR: a file of that boot. */
		struct file f = copy();

		snprintf(hdr_of(&f)->boot_id, RECFILE_BOOT_ID_LEN, "%s", argv[4]);
		save_as(argv[3], &f);
	} else if (!strcmp(argv[1], "fuzz") && argc == 5) {
		n = strtoull(argv[4], NULL, 10);
		for (seed = 1; seed <= n; seed++)
			fuzz_one(argv[3], seed);
	} else {
		return 2;
	}
	return 0;
}
