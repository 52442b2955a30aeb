/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - the kernel side of a live run: open the BPF skeleton, set its
 * configuration, leave out what this kernel cannot attach, load, attach,
 * poll the ring buffers, detach, clean up.  The live run (live/run.c) decides
 * what to do with the records and writes the reports.
 */
#ifndef __IDLESCOPE_LIVE_PROBES_H
#define __IDLESCOPE_LIVE_PROBES_H

#include <signal.h>
#include <stdbool.h>
#include <bpf/libbpf.h>
#include "idlescope.h"
#include "stats/summaries.h"

#define LIVE_MAX_SKIPPED	16
#define LIVE_REASON_LEN		96

/*
 * What a live run makes of its periods, X(ID, name) (-m NAME): the guest's
 * share of the work, from all of it to the least (docs/bpf.md).
 */
#define LIVE_MODES(X)							\
	X(FULL, full)	/* records, aggregated and replayed live, reports */	\
	X(LIGHT, light)	/* records moved out untouched; summaries in BPF */	\
	X(LEAN, lean)	/* summaries alone, from cpu_idle and cpu_idle_miss */

#define LIVE_MODE_ENUM(id, name)	LIVE_##id,
enum live_mode {
	LIVE_MODES(LIVE_MODE_ENUM)
	LIVE_NR_MODES,
};
#undef LIVE_MODE_ENUM

/**
 * live_mode_name() - the name -m takes for a mode
 * @mode: the mode
 *
 * Return: "full", "light" or "lean"; "?" for a value out of range.
 */
const char *live_mode_name(enum live_mode mode);

/**
 * live_mode_of() - the mode -m NAME asks for
 * @name: the option's value
 *
 * Return: the enum live_mode, or -1 for a name of no mode.
 */
int live_mode_of(const char *name);

struct live_opts {
	const char *btf_path;		/* kernel BTF; NULL: the running kernel's */
	long ringbuf_bytes;		/* each ring buffer's size, a power of two */
	bool no_predict;		/* do not read the governors' predictions */
	bool no_select_probes;		/* tracepoints only */
	/*
	 * Time the idle driver's exit (fentry/fexit on idlescope_states'
	 * idlescope_exit_wait()): the trampolines hold the module, which
	 * then cannot be unloaded while the loader runs.
	 */
	bool exit_timing;
	bool select_probes_under_mttcg;	/* even in a CLOCK=host guest (attachcycles) */
	bool shared_ringbuf;		/* one ring buffer for all CPUs, not one each */
	bool wakeup_per_record;		/* wake the poller for every record (tests) */
	enum live_mode mode;
	bool sum_records;		/* checksum the records sent (tests) */
	/* The exit an untimed period spent, per state: for the summaries. */
	__u64 untimed_exit_ns[IDLESCOPE_MAX_STATES];
	ring_buffer_sample_fn on_record;	/* called with each struct idlescope_record */
	void *ctx;			/* on_record's first argument */
};

/* A BPF program this run goes without, and why. */
struct live_skipped {
	char prog[32];
	char reason[LIVE_REASON_LEN];
};

struct live {
	struct idlescope_bpf *obj;
	struct ring_buffer *rb;		/* every ring buffer, one epoll */
	int nr_ringbufs;		/* per-CPU ring buffers; 0: the shared one */
	int ringbuf_fds[IDLESCOPE_MAX_CPUS];
	__u32 caps;			/* IDLESCOPE_CAP_* this run has */
	int nr_select_probes;		/* select probes attached */
	bool drain_on_poll;		/* live_poll() takes every record that waits */
	int nr_skipped;
	struct live_skipped skipped[LIVE_MAX_SKIPPED];
};

/**
 * live_set_verbose() - choose what libbpf prints
 * @on: everything, its debug output too
 *
 * Without @on, libbpf's warnings and errors, except where the loader's
 * own error line that follows says the same.
 */
void live_set_verbose(bool on);

/**
 * live_load() - open and load the BPF object for this kernel
 * @lv: set from zero
 * @opts: the run's BPF options
 *
 * Leaves out the programs whose attach point the kernel lacks, and the
 * select probes as a set when they are off or do not load; sets up the
 * ring buffer(s) and the kernel's capabilities in lv->caps.  Call
 * live_destroy() afterwards, whether it succeeded or not.
 *
 * Return: 0, or -errno with the error printed (one line).
 */
int live_load(struct live *lv, const struct live_opts *opts);

/**
 * live_attach() - attach every loaded program
 * @lv: loaded
 *
 * Select probes that fail to attach (no trampolines on this kernel) are
 * all dropped: the run goes on with tracepoints only, and lv->skipped
 * says why.  Sets what was attached in lv->caps and prints it.
 *
 * Return: 0, or -errno with the error printed when another program does
 * not attach.
 */
int live_attach(struct live *lv);

/**
 * live_attach_select_probes() - attach the loaded select probes
 * @lv: loaded
 *
 * All or none; the tracepoints stay as they are.
 * tests/tools/attachcycles cycles them with live_detach_select_probes().
 *
 * Return: 0, or -errno with none attached.
 */
int live_attach_select_probes(struct live *lv);

/**
 * live_detach_select_probes() - detach the select probes
 * @lv: loaded
 *
 * The tracepoints stay as they are.
 */
void live_detach_select_probes(struct live *lv);

/**
 * live_poll() - wait, and take the records that are due
 * @lv: attached
 * @timeout_ms: how long to wait for records
 * @wait_mask: the signal mask during the wait (NULL: the thread's own), so
 *	that a caller that blocks its signals gets them only here, and never
 *	between testing its flags and starting to wait
 *
 * Waits @timeout_ms or until the BPF side wakes the loader: for every
 * record when opts->wakeup_per_record asks it to; in a light run, when a
 * ring buffer is half full.  After a wake-up, and after every wait of a
 * full run (or one woken per record), takes every record that waits; a
 * light run leaves them for live_drain() otherwise.  Each record goes to
 * opts->on_record.
 *
 * Return: how many records were taken (0 or more), or a negative errno
 * (-EINTR on a signal).
 */
int live_poll(struct live *lv, int timeout_ms, const sigset_t *wait_mask);

/**
 * live_drain() - take every record that waits, now
 * @lv: attached
 *
 * Return: the number of records taken, or a negative errno.
 */
int live_drain(struct live *lv);

/**
 * live_detach_drain() - detach everything (the tracepoints first, then the
 * select probes, as live_attach() in reverse), then take the records left
 * @lv: attached
 *
 * Return: the number of records taken, or a negative errno.
 */
int live_detach_drain(struct live *lv);

/**
 * live_read_counters() - the BPF side's per-CPU counters
 * @lv: loaded
 * @vals: vals[possible CPUs]
 *
 * Return: 0 or -errno.
 */
int live_read_counters(const struct live *lv, struct idlescope_counters *vals);

/**
 * live_read_lateness() - the timer lateness histogram, summed over the CPUs
 * @lv: loaded
 * @sum: the sum; zero without the lateness probe, or on error
 *
 * Return: 0, -EINVAL for more possible CPUs than IDLESCOPE_MAX_CPUS, or
 * -errno.
 */
int live_read_lateness(const struct live *lv, struct idlescope_lateness *sum);

/**
 * live_read_summaries() - the BPF side's summaries and counters
 * @lv: loaded, in a mode that keeps summaries
 * @nr_cpus: the possible CPUs
 * @set: the summaries set to the BPF side's (its entries overwritten,
 *	its counters' records and checksums too)
 *
 * Return: 0, -EINVAL for more CPUs than IDLESCOPE_MAX_CPUS, -ENOMEM or
 * -errno.
 */
int live_read_summaries(const struct live *lv, int nr_cpus, struct summaries *set);

/**
 * live_destroy() - detach, unload and close everything of a live run
 * @lv: as live_load() left it, whether it succeeded or not
 */
void live_destroy(struct live *lv);

#endif /* __IDLESCOPE_LIVE_PROBES_H */
