/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - the kernel side of a live run: open the BPF skeleton, set its
 * configuration, leave out what this kernel cannot attach, load, attach,
 * poll the ring buffers, detach, clean up.  The live run (live/run.c) decides
 * what to do with the records and writes the reports.
 */
#ifndef __IDLESCOPE_LIVE_PROBES_H
#define __IDLESCOPE_LIVE_PROBES_H

#include <stdbool.h>
#include <bpf/libbpf.h>
#include "idlescope.h"

#define LIVE_MAX_SKIPPED	16
#define LIVE_REASON_LEN		96

struct live_opts {
	const char *btf_path;		/* kernel BTF; NULL: the running kernel's */
	long ringbuf_bytes;		/* each ring buffer's size, a power of two */
	bool no_predict;		/* do not read the governors' predictions */
	bool no_select_probes;		/* tracepoints only */
	bool select_probes_under_mttcg;	/* even in a CLOCK=host guest (attachcycles) */
	bool shared_ringbuf;		/* one ring buffer for all CPUs, not one each */
	bool wakeup_per_record;		/* wake the poller for every record (tests) */
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
	int nr_skipped;
	struct live_skipped skipped[LIVE_MAX_SKIPPED];
};

/* libbpf's messages: warnings and errors, and with @on its debug output. */
void live_set_verbose(bool on);
/*
 * Open and load the BPF object for this kernel, and set up the ring
 * buffer(s).  Errors are printed (one line) and returned as -errno.
 */
int live_load(struct live *lv, const struct live_opts *opts);
/*
 * Attach every loaded program.  Select probes that fail to attach (no
 * trampolines on this kernel) are all dropped: the run goes on with
 * tracepoints only, and lv->skipped says why.
 */
int live_attach(struct live *lv);
/*
 * Attach the loaded select probes (all or none: -errno), or detach them;
 * the tracepoints stay as they are.  tests/tools/attachcycles cycles them.
 */
int live_attach_select_probes(struct live *lv);
void live_detach_select_probes(struct live *lv);
/* Wait up to @timeout_ms for records, then take every one that waits. */
int live_poll(struct live *lv, int timeout_ms);
/* Detach everything, then take the records still in the buffers. */
int live_detach_drain(struct live *lv);
/* The BPF side's per-CPU counters, vals[possible CPUs]. */
int live_read_counters(const struct live *lv, struct idlescope_counters *vals);
/* The timer lateness histogram, summed over the CPUs (zero without it). */
int live_read_lateness(const struct live *lv, struct idlescope_lateness *sum);
void live_destroy(struct live *lv);

#endif /* __IDLESCOPE_LIVE_PROBES_H */
