/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recfile.h - the raw record file of `idlescope -r FILE`, version 4.
 *
 * A header (what the records need to be understood off-line: the state
 * table, CPU count, kernel release and HZ, the cpuidle driver, the clock
 * mode the guest ran under, what the kernel let the BPF side observe),
 * then the data section: struct idlescope_record after struct
 * idlescope_record, exactly as the ring buffer delivered them, then, when
 * the loader ended cleanly, a trailer: what the live report knew that the
 * records do not say (duration, the BPF side's per-CPU counters, the
 * timer lateness, ...), so that `idlescope report FILE` prints the live
 * report again, byte for byte.
 *
 * A clean close writes the trailer, then the data section's size, then
 * RECFILE_F_COMPLETE into the header, in that order: a file with the flag
 * is exactly header + data_size + trailer.  Without it the loader was
 * killed: readers take every whole record up to the end of the file and
 * say the last one was cut short if it was.  (Version 2 used a record
 * count of 0 for "killed", which made a clean file with no records read
 * its trailer as records.)
 *
 * The layout is that of the machine that wrote it (x86-64 guest and host).
 */
#ifndef __IDLESCOPE_RECFILE_H
#define __IDLESCOPE_RECFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "idlescope.h"

#define RECFILE_MAGIC		"IDLSCOPE"
#define RECFILE_TRAILER_MAGIC	"IDLSCEND"
#define RECFILE_VERSION		4
#define RECFILE_MAX_SKIPPED	32
#define RECFILE_NAME_LEN	32
#define RECFILE_REASON_LEN	128
#define RECFILE_RELEASE_LEN	72
#define RECFILE_DRIVER_LEN	32
#define RECFILE_CLOCK_MODE_LEN	16
#define RECFILE_CLOCK_ARGS_LEN	128
#define RECFILE_BOOT_ID_LEN	40
#define RECFILE_MAX_NAMES	64

/*
 * recfile_header.exit_cost: whether the idle states spent their declared
 * exit latency on exit (idlescope_states' exit_delay), or a share of it
 * drawn from a spread shape (exit_spread), as the guest's /sys/module said
 * at the start.
 */
enum recfile_exit_cost {
	RECFILE_EXIT_COST_UNKNOWN,	/* no idlescope_states module */
	RECFILE_EXIT_COST_OFF,
	RECFILE_EXIT_COST_ON,
	RECFILE_EXIT_COST_SPREAD,	/* spent, at most the declared latency */
	RECFILE_NR_EXIT_COST,
};

/**
 * recfile_exit_cost_name() - the name a report gives an exit cost
 * @exit_cost: recfile_header.exit_cost, as read from a file (untrusted)
 *
 * Return: "on", "off", "spread" or "unknown"; "unknown" for a value out of
 * range too, so a newer file's value prints rather than crashes.
 */
const char *recfile_exit_cost_name(unsigned int exit_cost);

/* recfile_header.flags */
#define RECFILE_F_COMPLETE	(1U << 0)	/* closed cleanly: data_size, trailer valid */
#define RECFILE_F_ALL		RECFILE_F_COMPLETE

struct recfile_header {
	char magic[8];			/* RECFILE_MAGIC, not NUL-terminated */
	__u32 version;			/* RECFILE_VERSION */
	__u32 header_size;		/* sizeof(struct recfile_header) */
	__u32 record_size;		/* sizeof(struct idlescope_record) */
	__u32 trailer_size;		/* sizeof(struct recfile_trailer) */
	__u32 nr_cpus;			/* 1..IDLESCOPE_MAX_CPUS; every record's cpu below */
	__u32 nr_states;
	__u32 hz;			/* the kernel's CONFIG_HZ, 0: unknown */
	__u32 capabilities;		/* IDLESCOPE_CAP_* */
	__u64 data_size;		/* bytes of records, set on a clean close */
	__u32 flags;			/* RECFILE_F_*, COMPLETE written last */
	__u32 guest_insn_ps;		/* guest ps per instruction at the start, 0: unknown */
	__u32 exit_cost;		/* enum recfile_exit_cost */
	/*
	 * Where this governor's run stood among the runs of its boot, from 1
	 * (the suite turns the order with the boot's seed); 0: unknown.
	 */
	__u32 run_position;
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	/* NUL-terminated strings, NUL-padded */
	char kernel_release[RECFILE_RELEASE_LEN];
	char cpuidle_driver[RECFILE_DRIVER_LEN];	/* "" when none */
	char clock_mode[RECFILE_CLOCK_MODE_LEN];	/* "virtual", "host", "" unknown */
	char clock_args[RECFILE_CLOCK_ARGS_LEN];	/* QEMU's accel/icount arguments */
	/*
	 * The measured kernel's /proc/sys/kernel/random/boot_id, "" unknown:
	 * a report groups its files by boot, the unit of replication.
	 */
	char boot_id[RECFILE_BOOT_ID_LEN];
};

struct recfile_skipped {
	char prog[RECFILE_NAME_LEN];		/* BPF program not attached */
	char reason[RECFILE_REASON_LEN];
};

/*
 * A name a record's number stands for (stats/wakeup.h): an hrtimer
 * function's address or an IRQ, as the live run
 * resolved it in the guest.  "" when it found none.
 */
#define RECFILE_NAME_FUNCTION	1
#define RECFILE_NAME_IRQ	2

struct recfile_name {
	__u64 value;
	__u32 kind;			/* RECFILE_NAME_* */
	__u32 pad;
	char name[RECFILE_NAME_LEN];	/* NUL-terminated */
};

struct recfile_trailer {
	char magic[8];			/* RECFILE_TRAILER_MAGIC */
	__s64 start_time;		/* wall clock at start, s since the epoch */
	double duration_s;		/* finite, >= 0 */
	__u64 ringbuf_size_bytes;
	__u64 sysfs_usage_delta;	/* stateN/usage growth, all CPUs */
	__u64 records_produced[IDLESCOPE_MAX_CPUS];
	__u64 dropped_records[IDLESCOPE_MAX_CPUS];
	__u32 nr_skipped;		/* entries of skipped[] used */
	__u32 nr_ringbufs;		/* ring buffers the records came through */
	struct recfile_skipped skipped[RECFILE_MAX_SKIPPED];
	struct idlescope_lateness lateness;	/* all CPUs; count 0: not measured */
	__u64 sysfs_above_delta;	/* stateN/above growth, all CPUs */
	__u64 sysfs_below_delta;	/* stateN/below growth, all CPUs */
	__u32 guest_insn_ps_end;	/* guest ps per instruction at the end, 0: unknown */
	__u32 nr_names;			/* entries of names[] used */
	struct recfile_name names[RECFILE_MAX_NAMES];
};

/**
 * recfile_header_init() - start a header for this build's layout
 * @hdr: the header to fill
 *
 * Zeroes @hdr, then sets the magic, RECFILE_VERSION and the three sizes
 * (header, record, trailer) a reader checks the file against.  The caller
 * fills in the rest (states, CPUs, kernel, ...) before recfile_create().
 */
void recfile_header_init(struct recfile_header *hdr);

/**
 * recfile_create() - create (or truncate) a record file and write its header
 * @path: the file
 * @hdr: its header, from recfile_header_init() and filled in
 *
 * The caller then appends the records as they come and ends with
 * recfile_finish(); a file never finished reads as a killed run.
 *
 * Return: the stream positioned at the first record, or NULL with errno
 * set (EIO when the header could not be written; the file is then closed).
 */
FILE *recfile_create(const char *path, const struct recfile_header *hdr);

/**
 * recfile_finish() - close a record file cleanly
 * @f: from recfile_create(), the records written after the header
 * @trailer: what the live report knew that the records do not say
 * @nr_records: how many records were written
 *
 * Appends @trailer, then sets the header's data_size, then
 * RECFILE_F_COMPLETE, in that order, so a file with the flag always has
 * its size and trailer; a failure part way leaves a file that reads as a
 * killed run, not a wrong one.  @f is closed either way.
 *
 * Return: 0, or -errno (-EOVERFLOW if the records' size does not fit in
 * 64 bits, -EIO if a write failed without errno).
 */
int recfile_finish(FILE *f, const struct recfile_trailer *trailer, __u64 nr_records);

/*
 * An open record file being read.  The records are read in place through
 * a window of the file mapped RECFILE_WINDOW_BYTES at a time (copying
 * them out of the page cache with read() was a tenth of a replay); the
 * window slides along the file, so memory stays flat at any size.
 */
#define RECFILE_WINDOW_BYTES	(1U << 20)

struct recfile {
	FILE *f;
	struct recfile_header hdr;
	bool complete;			/* RECFILE_F_COMPLETE: trailer is valid */
	struct recfile_trailer trailer;
	__u64 nr_read;
	off_t pos;			/* file offset of the next record */
	off_t data_end;			/* end of the records (of the file if killed) */
	const unsigned char *window;	/* mapped [window_off, +window_len), or NULL */
	off_t window_off;
	size_t window_len;
	/*
	 * The records' per-CPU sequence numbers: the BPF side numbers every
	 * period it completes, so a gap is periods lost before the file (a
	 * full ring buffer), counted here even when no trailer says so.
	 */
	__u32 next_seq[IDLESCOPE_MAX_CPUS];
	__u32 seq_seen_cpus;		/* bit per CPU: a record of it was read */
	__u64 seq_lost;			/* periods missing from the sequence */
	__u64 zero_record;		/* an all-zero record ended the data: its number */
	dev_t dev;			/* to refuse the same file given twice */
	ino_t ino;
	char error[320];		/* "PATH: what is wrong", one line */
	const char *path;
};

/**
 * recfile_open() - open and check a record file
 * @rf: filled; rf->path keeps @path (not copied)
 * @path: the file
 *
 * Checks what a reader relies on before it reads a record: a regular file
 * (a FIFO would block), header fields in range and consistent with each
 * other and with the file's size, and for a complete file the trailer's
 * counters against nr_cpus.  On success the records are read with
 * recfile_next() and @rf is released with recfile_close().
 *
 * Return: 0, or -1 with a one-line reason in rf->error ("not an idlescope
 * record file", "record file version 2 is older than this idlescope
 * (3)...") and nothing left open.
 */
int recfile_open(struct recfile *rf, const char *path);

enum recfile_status {
	RECFILE_RECORD,			/* *rec is the next record */
	RECFILE_END,			/* no more records (or a record of zeros:
					 * rf->zero_record says which) */
	RECFILE_CUT_SHORT,		/* a cut-short last record, ignored: the end */
	RECFILE_BAD,			/* a record contradicts the header, or the
					 * records before it: rf->error */
};

/**
 * recfile_next() - the next record, read in place
 * @rf: from recfile_open()
 * @status: set to what was found: RECFILE_RECORD with a record, else which
 *	end (RECFILE_END, RECFILE_CUT_SHORT, RECFILE_BAD with rf->error)
 *
 * No copy: the record lies in the mapped window, valid until the next
 * call or recfile_close().  A record of nothing but zeros is no idle
 * period (a file extended or preallocated past its records, a
 * zero-filled tail): it ends the data, and rf->zero_record is its number
 * (1 for the first record).  Gaps in the per-CPU sequence numbers are
 * counted in rf->seq_lost.
 *
 * Return: the record, or NULL at the end.
 */
const struct idlescope_record *recfile_next(struct recfile *rf, enum recfile_status *status);
/**
 * recfile_first_record() - read the file's first record, whatever was read
 * @rf: from recfile_open()
 * @rec: the record's copy
 *
 * Read beside the window (recfile_next() is not moved): the first record
 * tells a copy of a file from another file of the same boot.
 *
 * Return: 0, or -1 when the file has no whole first record (or it is all
 * zeros).
 */
int recfile_first_record(const struct recfile *rf, struct idlescope_record *rec);

/**
 * recfile_read() - recfile_next() into a copy
 * @rf: from recfile_open()
 * @rec: the copy, written only when a record was read
 *
 * For callers that keep the record past the next read.
 *
 * Return: as recfile_next()'s *status: RECFILE_RECORD when @rec was
 * written, else which end.
 */
enum recfile_status recfile_read(struct recfile *rf, struct idlescope_record *rec);

/**
 * recfile_close() - release what recfile_open() took
 * @rf: the file; closing it twice is harmless
 *
 * Unmaps the window and closes the stream; the records recfile_next()
 * returned are gone.
 */
void recfile_close(struct recfile *rf);

/**
 * recfile_set_fatal_status() - the exit status when a file shrinks
 * @status: the status; 1 unless set (`compare` sets its own, 2)
 *
 * A file truncated or rewritten while it is read faults with SIGBUS in its
 * mapped window.  That is bad input like any other: the handler writes
 * one line on stderr and _exit()s with @status, before any report is
 * written.
 */
void recfile_set_fatal_status(int status);

#endif /* __IDLESCOPE_RECFILE_H */
