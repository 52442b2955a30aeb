// SPDX-License-Identifier: GPL-2.0
/*
 * recfile.c - write and read the raw record file (see recfile.h).
 *
 * The reader trusts nothing in the file: every count and size is checked
 * against the others and against the file's real size before it is used,
 * and sums are computed so that they cannot wrap.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "recfile.h"
#include "format/escape.h"
#include "infile.h"
#include "stats/sat.h"

/* Records are read in place: each must start aligned for its __u64s. */
_Static_assert(sizeof(struct recfile_header) % 8 == 0 &&
	       sizeof(struct idlescope_record) % 8 == 0, "records 8-byte aligned in the file");

/* Longer than any run (30 years): a sum over many files stays finite. */
#define RECFILE_MAX_DURATION_S	1e9
/*
 * More periods or wake-ups than a run can count (9 years at a million a
 * second): a counter beyond it is corrupt, and refusing it keeps the sums
 * over CPUs and files far from 2^64.
 */
#define RECFILE_MAX_COUNT	(1ULL << 48)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define OWN_BYTE_ORDER		"little-endian"
#define OTHER_BYTE_ORDER	"big-endian"
#else
#define OWN_BYTE_ORDER		"big-endian"
#define OTHER_BYTE_ORDER	"little-endian"
#endif

void recfile_header_init(struct recfile_header *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	memcpy(hdr->magic, RECFILE_MAGIC, sizeof(hdr->magic));
	hdr->version = RECFILE_VERSION;
	hdr->header_size = sizeof(*hdr);
	hdr->record_size = sizeof(struct idlescope_record);
	hdr->trailer_size = sizeof(struct recfile_trailer);
}

FILE *recfile_create(const char *path, const struct recfile_header *hdr)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	if (fwrite(hdr, sizeof(*hdr), 1, f) != 1) {
		fclose(f);
		errno = EIO;
		return NULL;
	}
	return f;
}

static int write_at(FILE *f, long offset, const void *val, size_t size)
{
	if (fflush(f) || fseek(f, offset, SEEK_SET) || fwrite(val, size, 1, f) != 1)
		return errno ? -errno : -EIO;
	return 0;
}

int recfile_finish(FILE *f, const struct recfile_trailer *trailer, __u64 nr_records)
{
	const __u64 record_size = sizeof(struct idlescope_record);
	__u64 data_size = nr_records * record_size;
	__u32 flags = RECFILE_F_COMPLETE;
	int err = 0;

	errno = 0;
	if (nr_records > UINT64_MAX / record_size)
		err = -EOVERFLOW;
	/* The flag goes in last: a file with it has its size and trailer. */
	if (!err && fwrite(trailer, sizeof(*trailer), 1, f) != 1)
		err = errno ? -errno : -EIO;
	if (!err)
		err = write_at(f, offsetof(struct recfile_header, data_size),
			       &data_size, sizeof(data_size));
	if (!err)
		err = write_at(f, offsetof(struct recfile_header, flags), &flags, sizeof(flags));
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int fail(struct recfile *rf, const char *fmt, ...)
{
	char path[sizeof(rf->error)];
	int n = snprintf(rf->error, sizeof(rf->error), "%s: ",
			 escape_name(path, sizeof(path), rf->path, SIZE_MAX));
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && n < (int)sizeof(rf->error))
		vsnprintf(rf->error + n, sizeof(rf->error) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A string field must end inside its array: what follows may be garbage. */
static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

const char *recfile_exit_cost_name(unsigned int exit_cost)
{
	static const char *const names[RECFILE_NR_EXIT_COST] = {
		[RECFILE_EXIT_COST_UNKNOWN] = "unknown",
		[RECFILE_EXIT_COST_OFF] = "off",
		[RECFILE_EXIT_COST_ON] = "on",
		[RECFILE_EXIT_COST_SPREAD] = "spread",
	};

	return exit_cost < RECFILE_NR_EXIT_COST ? names[exit_cost] : "unknown";
}

static int check_header(struct recfile *rf)
{
	const struct recfile_header *hdr = &rf->hdr;

	/* A version from 1 to ours, byte-swapped: the other byte order's 4 reads as 2^26. */
	if (hdr->version > RECFILE_VERSION && __builtin_bswap32(hdr->version) &&
	    __builtin_bswap32(hdr->version) <= RECFILE_VERSION)
		return fail(rf, "a %s record file (version %u): this idlescope reads %s ones",
			    OTHER_BYTE_ORDER, __builtin_bswap32(hdr->version), OWN_BYTE_ORDER);
	if (hdr->version > RECFILE_VERSION)
		return fail(rf, "record file version %u is newer than this idlescope (%u)",
			    hdr->version, RECFILE_VERSION);
	if (hdr->version != RECFILE_VERSION)
		return fail(rf, "record file version %u is older than this idlescope (%u); "
			    "record it again", hdr->version, RECFILE_VERSION);
	if (hdr->header_size != sizeof(*hdr) ||
	    hdr->record_size != sizeof(struct idlescope_record) ||
	    hdr->trailer_size != sizeof(struct recfile_trailer))
		return fail(rf, "inconsistent header (header %u, record %u, trailer %u bytes)",
			    hdr->header_size, hdr->record_size, hdr->trailer_size);
	if (hdr->nr_cpus < 1 || hdr->nr_cpus > IDLESCOPE_MAX_CPUS ||
	    hdr->nr_states > IDLESCOPE_MAX_STATES)
		return fail(rf, "inconsistent header (%u CPUs, %u states)",
			    hdr->nr_cpus, hdr->nr_states);
	if (hdr->flags & ~RECFILE_F_ALL)
		return fail(rf, "inconsistent header (unknown flags %#x)", hdr->flags);
	if (hdr->exit_cost >= RECFILE_NR_EXIT_COST)
		return fail(rf, "inconsistent header (exit cost %u)", hdr->exit_cost);
	if (!(hdr->flags & RECFILE_F_COMPLETE) && hdr->data_size)
		return fail(rf, "inconsistent header (data size %llu without a clean close)",
			    (unsigned long long)hdr->data_size);
	if (!terminated(hdr->kernel_release, sizeof(hdr->kernel_release)) ||
	    !terminated(hdr->cpuidle_driver, sizeof(hdr->cpuidle_driver)) ||
	    !terminated(hdr->clock_mode, sizeof(hdr->clock_mode)) ||
	    !terminated(hdr->boot_id, sizeof(hdr->boot_id)) ||
	    !terminated(hdr->clock_args, sizeof(hdr->clock_args)))
		return fail(rf, "inconsistent header (unterminated name)");
	return 0;
}

static int check_lateness(const struct idlescope_lateness *l)
{
	__u64 sum = 0;
	unsigned int i;

	for (i = 0; i < IDLESCOPE_LATENESS_SLOTS; i++) {
		if (l->hist[i] > l->count - sum)
			return -1;
		sum += l->hist[i];
	}
	return sum == l->count ? 0 : -1;
}

static int check_trailer(struct recfile *rf)
{
	struct recfile_trailer *t = &rf->trailer;
	unsigned int cpu, i;

	if (memcmp(t->magic, RECFILE_TRAILER_MAGIC, sizeof(t->magic)))
		return fail(rf, "corrupt trailer (no trailer magic)");
	if (!isfinite(t->duration_s) || t->duration_s < 0 || t->duration_s > RECFILE_MAX_DURATION_S)
		return fail(rf, "corrupt trailer (duration %g s)", t->duration_s);
	if (t->nr_skipped > RECFILE_MAX_SKIPPED || t->nr_ringbufs > IDLESCOPE_MAX_CPUS)
		return fail(rf, "corrupt trailer (%u skipped programs, %u ring buffers)",
			    t->nr_skipped, t->nr_ringbufs);
	for (cpu = rf->hdr.nr_cpus; cpu < IDLESCOPE_MAX_CPUS; cpu++)
		if (t->records_produced[cpu] || t->dropped_records[cpu])
			return fail(rf, "corrupt trailer (counters for cpu %u of %u CPUs)",
				    cpu, rf->hdr.nr_cpus);
	for (cpu = 0; cpu < rf->hdr.nr_cpus; cpu++)
		if (t->records_produced[cpu] > RECFILE_MAX_COUNT ||
		    t->dropped_records[cpu] > RECFILE_MAX_COUNT)
			return fail(rf, "corrupt trailer (cpu %u: %llu records produced, %llu dropped: "
				    "more than 2^48)", cpu,
				    (unsigned long long)t->records_produced[cpu],
				    (unsigned long long)t->dropped_records[cpu]);
	if (t->lateness.count > RECFILE_MAX_COUNT)
		return fail(rf, "corrupt trailer (%llu timer wake-ups: more than 2^48)",
			    (unsigned long long)t->lateness.count);
	for (i = 0; i < t->nr_skipped; i++)
		if (!terminated(t->skipped[i].prog, sizeof(t->skipped[i].prog)) ||
		    !terminated(t->skipped[i].reason, sizeof(t->skipped[i].reason)))
			return fail(rf, "corrupt trailer (unterminated name)");
	if (check_lateness(&t->lateness))
		return fail(rf, "corrupt trailer (lateness histogram does not sum to its count)");
	if (t->nr_names > RECFILE_MAX_NAMES)
		return fail(rf, "corrupt trailer (%u names)", t->nr_names);
	for (i = 0; i < t->nr_names; i++)
		if (!terminated(t->names[i].name, sizeof(t->names[i].name)) ||
		    (t->names[i].kind != RECFILE_NAME_FUNCTION &&
		     t->names[i].kind != RECFILE_NAME_IRQ))
			return fail(rf, "corrupt trailer (name %u: unterminated or of unknown kind)", i);
	return 0;
}

/* A complete file is exactly header, data_size bytes of records, trailer. */
static int read_trailer(struct recfile *rf, off_t file_size)
{
	const struct recfile_header *hdr = &rf->hdr;
	__u64 rest = file_size - sizeof(*hdr);	/* file_size >= header: read it */

	if (hdr->data_size % sizeof(struct idlescope_record))
		return fail(rf, "inconsistent header (data size %llu is not whole records)",
			    (unsigned long long)hdr->data_size);
	if (rest < sizeof(rf->trailer) || hdr->data_size != rest - sizeof(rf->trailer))
		return fail(rf, "truncated: the header says %llu bytes of records and a trailer, "
			    "the file has %llu bytes after the header",
			    (unsigned long long)hdr->data_size, (unsigned long long)rest);
	if (fseeko(rf->f, sizeof(*hdr) + hdr->data_size, SEEK_SET) ||
	    fread(&rf->trailer, sizeof(rf->trailer), 1, rf->f) != 1 ||
	    fseeko(rf->f, sizeof(*hdr), SEEK_SET))
		return fail(rf, "reading the trailer: %s", errno ? strerror(errno) : "short read");
	if (check_trailer(rf))
		return -1;
	rf->complete = true;
	return 0;
}

/* Open without blocking (a FIFO would, until a writer comes), then check. */
static int open_regular(struct recfile *rf, struct stat *st)
{
	const char *why;

	rf->f = infile_open(rf->path, st, &why);
	if (!rf->f)
		return fail(rf, "%s", why);
	rf->dev = st->st_dev;
	rf->ino = st->st_ino;
	return 0;
}

int recfile_open(struct recfile *rf, const char *path)
{
	struct stat st;

	memset(rf, 0, sizeof(*rf));
	rf->path = path;
	if (open_regular(rf, &st))
		return -1;
	if (fread(&rf->hdr, sizeof(rf->hdr), 1, rf->f) != 1 ||
	    memcmp(rf->hdr.magic, RECFILE_MAGIC, sizeof(rf->hdr.magic))) {
		/* A cut-short header and a foreign file look the same here. */
		if (!memcmp(rf->hdr.magic, RECFILE_MAGIC, sizeof(rf->hdr.magic)))
			fail(rf, "truncated header");
		else
			fail(rf, "not an idlescope record file");
		goto fail;
	}
	if (check_header(rf) ||
	    ((rf->hdr.flags & RECFILE_F_COMPLETE) && read_trailer(rf, st.st_size)))
		goto fail;
	rf->pos = sizeof(rf->hdr);
	rf->data_end = rf->complete ? rf->pos + (off_t)rf->hdr.data_size : st.st_size;
	/* A hint for the kernel's read-ahead: the window moves forward only. */
	posix_fadvise(fileno(rf->f), 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
fail:
	recfile_close(rf);
	return -1;
}

/*
 * A mapped page past a new end of the file (it shrank while it was read:
 * truncated, or rewritten in place) faults with SIGBUS.  That is bad input
 * like any other: one line on stderr and the command's error status (1,
 * `compare`'s 2), before any report is written.  The guard knows the
 * window mapped last (the files are read one at a time); a fault anywhere
 * else keeps SIGBUS's default action.
 */
static struct {
	const unsigned char *start;
	size_t len;
	char line[512];
	size_t line_len;
	int exit_status;
} shrink_guard = { .exit_status = 1 };

void recfile_set_fatal_status(int status)
{
	shrink_guard.exit_status = status;
}

static void on_sigbus(int sig, siginfo_t *info, void *ucontext)
{
	const unsigned char *addr = info->si_addr;

	if (shrink_guard.start && addr >= shrink_guard.start &&
	    addr < shrink_guard.start + shrink_guard.len) {
		/* Both async-signal-safe, unlike stdio and exit(). */
		(void)!write(STDERR_FILENO, shrink_guard.line, shrink_guard.line_len);
		_exit(shrink_guard.exit_status);
	}
	/* Returning faults again, now with the default action. */
	signal(SIGBUS, SIG_DFL);
}

static void guard_window(const struct recfile *rf)
{
	static bool installed;
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };
	char path[sizeof(shrink_guard.line) / 2];
	int n;

	if (!installed) {
		sigemptyset(&sa.sa_mask);
		installed = !sigaction(SIGBUS, &sa, NULL);
	}
	n = snprintf(shrink_guard.line, sizeof(shrink_guard.line),
		     "idlescope: error: %s: the file shrank while it was read\n",
		     escape_name(path, sizeof(path), rf->path, SIZE_MAX));
	shrink_guard.line_len = n < 0 ? 0 : (size_t)n < sizeof(shrink_guard.line) ?
				(size_t)n : sizeof(shrink_guard.line) - 1;
	shrink_guard.start = rf->window;
	shrink_guard.len = rf->window_len;
}

static void unmap_window(struct recfile *rf)
{
	if (rf->window) {
		if (shrink_guard.start == rf->window)
			shrink_guard.start = NULL;
		munmap((void *)rf->window, rf->window_len);
	}
	rf->window = NULL;
	rf->window_off = 0;
	rf->window_len = 0;
}

/*
 * Map the window that holds the record at rf->pos, from the page it
 * starts in (a record may straddle the old window's end).  Populated at
 * once: one call instead of a page fault every few pages.
 */
static int slide_window(struct recfile *rf)
{
	off_t off = rf->pos & ~((off_t)sysconf(_SC_PAGESIZE) - 1);
	size_t len = rf->data_end - off < (off_t)RECFILE_WINDOW_BYTES ?
		     (size_t)(rf->data_end - off) : RECFILE_WINDOW_BYTES;
	void *map;

	unmap_window(rf);
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(rf->f), off);
	if (map == MAP_FAILED)
		return fail(rf, "mapping the records: %s", strerror(errno));
	rf->window = map;
	rf->window_off = off;
	rf->window_len = len;
	guard_window(rf);
	return 0;
}

/* A record of zeros: enter_ns first, the rest only when that is 0. */
static bool all_zero(const struct idlescope_record *rec)
{
	static const struct idlescope_record zero;

	return !rec->enter_ns && !memcmp(rec, &zero, sizeof(zero));
}

/*
 * Count the periods a CPU's sequence number skipped (those before its
 * first record too: the BPF side numbers from 0).  One loader run numbers
 * each CPU's periods once, in the order they reach the file: a number
 * behind the next one expected is a period that comes twice (a data
 * section written twice, a record copied), and the file is refused rather
 * than counted twice: -1, with rf->error set.  (A CPU's first number may
 * be anything: one of 2^31 or more skips nothing.)
 */
static int count_seq(struct recfile *rf, const struct idlescope_record *rec)
{
	bool seen = rf->seq_seen_cpus & (1U << rec->cpu);
	__u32 expected = seen ? rf->next_seq[rec->cpu] : 0;
	__u32 gap = rec->seq - expected;

	if (gap >= 1U << 31 && seen)
		return fail(rf, "record %llu: cpu %u's period %u after its period %u: periods "
			    "repeated or out of order (a data section written twice?)",
			    (unsigned long long)rf->nr_read, rec->cpu, rec->seq, expected - 1);
	if (gap < 1U << 31)
		sat_inc(&rf->seq_lost, gap);
	rf->seq_seen_cpus |= 1U << rec->cpu;
	rf->next_seq[rec->cpu] = rec->seq + 1;
	return 0;
}

const struct idlescope_record *recfile_next(struct recfile *rf, enum recfile_status *status)
{
	const struct idlescope_record *rec;

	if (rf->data_end - rf->pos < (off_t)sizeof(*rec)) {
		*status = rf->pos == rf->data_end ? RECFILE_END : RECFILE_CUT_SHORT;
		return NULL;
	}
	if (rf->pos + (off_t)sizeof(*rec) > rf->window_off + (off_t)rf->window_len &&
	    slide_window(rf)) {
		*status = RECFILE_BAD;
		return NULL;
	}
	rec = (const struct idlescope_record *)(rf->window + (rf->pos - rf->window_off));
	rf->pos += sizeof(*rec);
	/* Killed between writing the trailer and setting the flag. */
	if (!rf->complete && !memcmp(rec, RECFILE_TRAILER_MAGIC, sizeof(rf->trailer.magic))) {
		*status = RECFILE_END;
		return NULL;
	}
	if (all_zero(rec)) {
		rf->zero_record = rf->nr_read + 1;
		rf->pos = rf->data_end;
		*status = RECFILE_END;
		return NULL;
	}
	rf->nr_read++;
	if (rec->cpu >= rf->hdr.nr_cpus) {
		fail(rf, "record %llu: cpu %u in a file of %u CPUs",
		     (unsigned long long)rf->nr_read, rec->cpu, rf->hdr.nr_cpus);
		*status = RECFILE_BAD;
		return NULL;
	}
	if (count_seq(rf, rec)) {
		*status = RECFILE_BAD;
		return NULL;
	}
	*status = RECFILE_RECORD;
	return rec;
}

int recfile_first_record(const struct recfile *rf, struct idlescope_record *rec)
{
	const off_t at = sizeof(rf->hdr);

	if (rf->data_end - at < (off_t)sizeof(*rec) ||
	    pread(fileno(rf->f), rec, sizeof(*rec), at) != (ssize_t)sizeof(*rec) || all_zero(rec))
		return -1;
	return 0;
}

enum recfile_status recfile_read(struct recfile *rf, struct idlescope_record *rec)
{
	enum recfile_status status;
	const struct idlescope_record *next = recfile_next(rf, &status);

	if (next)
		memcpy(rec, next, sizeof(*rec));
	return status;
}

void recfile_close(struct recfile *rf)
{
	unmap_window(rf);
	if (rf->f)
		fclose(rf->f);
	rf->f = NULL;
}
