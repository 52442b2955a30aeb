// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong - two threads on two CPUs wake each other through a pipe pair.
 *
 * The main thread (CPU A) writes a byte to the ping pipe and blocks reading
 * the pong pipe; the partner thread (CPU B) blocks reading the ping pipe,
 * optionally sleeps -g microseconds ("think"), and writes the byte back.
 * With -w each side also works (spins) -w microseconds on each token before
 * passing it on, the "work per token" of Doug Smythies' ping-pong tests:
 * the other CPU's idle period then lasts that work plus the hand-over.
 * Each side's idle period ends with a cross-CPU wake-up (an IPI) whose time
 * no timer on that CPU announces: the next-timer input of the governor is
 * useless here, which is the case history-based prediction exists for.
 * Round trips per second at the end make the same run an overhead benchmark
 * (with and without the loader attached).
 *
 * SIGINT/SIGTERM are blocked in the partner, so they interrupt the main
 * thread's read; closing the ping pipe then ends the partner, reading EOF
 * or thinking (the think sleep polls the ping pipe).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "workload.h"

static struct env {
	long gap_us;
	long work_us;
	bool one_cpu_ok;
} env;

struct partner {
	int cpu;
	int ping_rd;			/* reads the main thread's ping */
	int pong_wr;			/* writes the reply */
	int err;			/* negative errno, 0 = ended by EOF */
};

/* The run: main thread on cpus[0], partner on cpus[1]. */
static int cpus[2];
static int ping[2] = { -1, -1 }, pong[2] = { -1, -1 };
static struct partner partner;
static pthread_t partner_tid;
static bool partner_started;
static struct duration_stats rtt;
static __u64 round_trips, elapsed_ns;

static const char argp_doc[] =
"Two threads pinned to the first two usable CPUs (normally 0 and 1) wake\n"
"each other through a pipe pair; prints round trips per second.\n"
"\n"
"Default tag: pingpong, or pingpong<GAP> with -g, e.g. pingpong100us.\n"
"\n"
"EXAMPLES:\n"
"    pingpong -d 5              # back-to-back round trips for 5 s\n"
"    pingpong -g 500            # the partner thinks 500 us before replying\n"
"    pingpong -w 200            # each side works 200 us per token\n";

static const struct arg_value values[] = {
	ARG_NUM('g', "gap", "USEC",
		"Partner sleeps USEC microseconds before each reply (default 0)",
		"gap", &env.gap_us, 0, WL_MAX_USEC),
	ARG_NUM('w', "work", "USEC",
		"Each side spins USEC microseconds per token before passing it on (default 0)",
		"work", &env.work_us, 0, WL_MAX_USEC),
	ARG_FLAG('n', "one-cpu-ok",
		 "With fewer than 2 usable CPUs, run both threads on one instead of failing",
		 &env.one_cpu_ok),
	{},
};

/*
 * Sleep -g microseconds before replying.  The wait is a poll of the ping
 * pipe, quiet while the main thread waits for the pong, so the main thread
 * closing it at the end of the run cuts the sleep short.  Returns true then.
 */
static bool think(int ping_rd)
{
	struct pollfd pfd = { .fd = ping_rd, .events = POLLIN };
	struct timespec gap = {
		.tv_sec = env.gap_us / 1000000,
		.tv_nsec = env.gap_us % 1000000 * NSEC_PER_USEC,
	};

	return ppoll(&pfd, 1, &gap, NULL) > 0;
}

/* The work on a token: spin -w microseconds (the end of the run cuts it short). */
static void work(void)
{
	if (env.work_us)
		wl_spin_us(env.work_us);
}

static void *partner_main(void *arg)
{
	struct partner *p = arg;
	char byte;
	ssize_t n;

	p->err = wl_pin_cpu(p->cpu);
	if (p->err)
		return NULL;
	for (;;) {
		n = read(p->ping_rd, &byte, 1);
		if (n == 0)
			return NULL;	/* main thread closed the ping pipe */
		if (n < 0) {
			if (errno == EINTR)
				continue;
			p->err = -errno;
			fprintf(stderr, "pingpong: partner read: %s\n", strerror(-p->err));
			return NULL;
		}
		if (env.gap_us && think(p->ping_rd))
			return NULL;	/* ping pipe closed while thinking */
		work();
		if (write(p->pong_wr, &byte, 1) != 1) {
			p->err = -errno;
			fprintf(stderr, "pingpong: partner write: %s\n", strerror(-p->err));
			return NULL;
		}
	}
}

/* Ping, wait for the pong, until the run ends.  Returns 0 or -errno. */
static int ping_loop(int ping_wr, int pong_rd)
{
	__u64 sent_ns, now_ns;
	char byte = 'p';
	ssize_t n;
	int err;

	for (now_ns = wl_now_ns(); now_ns < wl_end_ns && !wl_exiting; ) {
		sent_ns = now_ns;
		if (write(ping_wr, &byte, 1) != 1) {
			err = -errno;
			fprintf(stderr, "pingpong: write: %s\n", strerror(-err));
			return err;
		}
		n = read(pong_rd, &byte, 1);
		if (n < 0 && errno == EINTR)
			return 0;	/* SIGINT/SIGTERM: wl_exiting is set */
		if (n != 1) {
			err = n ? -errno : -EPIPE;
			fprintf(stderr, "pingpong: read: %s\n",
				n ? strerror(-err) : "partner ended");
			return err;
		}
		now_ns = wl_now_ns();
		duration_stats_add(&rtt, now_ns - sent_ns);
		round_trips++;
		work();
		now_ns = wl_now_ns();
	}
	return 0;
}

/* The two CPUs and the pipe pair. */
static int open_pipes(void)
{
	int nr_cpus, err;

	nr_cpus = wl_usable_cpus(cpus, 2);
	if (nr_cpus < 1) {
		fprintf(stderr, "pingpong: cannot read the CPU affinity: %s\n", strerror(errno));
		return -EINVAL;
	}
	if (nr_cpus < 2) {
		if (!env.one_cpu_ok) {
			fprintf(stderr,
				"pingpong: needs 2 usable CPUs, found 1 (-n runs both threads on CPU %d)\n",
				cpus[0]);
			return -EINVAL;
		}
		fprintf(stderr, "pingpong: one usable CPU: both threads on CPU %d\n", cpus[0]);
		cpus[1] = cpus[0];
	}

	if (pipe2(ping, O_CLOEXEC) || pipe2(pong, O_CLOEXEC)) {
		err = -errno;
		fprintf(stderr, "pingpong: pipe: %s\n", strerror(-err));
		return err;
	}
	return 0;
}

/* Close the ping pipe: the partner reads EOF (or stops thinking) and ends. */
static void end_partner(void)
{
	if (ping[1] >= 0)
		close(ping[1]);
	ping[1] = -1;
	if (partner_started)
		pthread_join(partner_tid, NULL);
	partner_started = false;
}

static int run(void)
{
	sigset_t block, old;
	__u64 start_ns;
	int err;

	err = wl_pin_cpu(cpus[0]);
	if (err)
		return err;

	partner.cpu = cpus[1];
	partner.ping_rd = ping[0];
	partner.pong_wr = pong[1];
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);	/* the partner inherits it */
	err = -pthread_create(&partner_tid, NULL, partner_main, &partner);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		fprintf(stderr, "pingpong: pthread_create: %s\n", strerror(-err));
		return err;
	}
	partner_started = true;

	start_ns = wl_now_ns();
	err = ping_loop(ping[1], pong[0]);
	elapsed_ns = wl_now_ns() - start_ns;
	end_partner();
	return err ? err : partner.err;
}

static int summary(void)
{
	char rtt_summary[160];

	duration_stats_fmt(&rtt, rtt_summary, sizeof(rtt_summary));
	wl_summary("CPUs %d and %d, gap %ld us, work %ld us, %llu round trips in %.3f s, %.0f round trips/s, round trip %s",
		   cpus[0], cpus[1], env.gap_us, env.work_us, (unsigned long long)round_trips,
		   (double)elapsed_ns / NSEC_PER_SEC,
		   elapsed_ns ? round_trips * (double)NSEC_PER_SEC / elapsed_ns : 0.0,
		   rtt_summary);
	return 0;
}

static void close_pipes(void)
{
	int i;

	end_partner();
	for (i = 0; i < 2; i++) {
		if (ping[i] >= 0)
			close(ping[i]);
		if (pong[i] >= 0)
			close(pong[i]);
	}
	duration_stats_free(&rtt);
}

const struct wl_pattern wl_pattern = {
	.name = "pingpong",
	.doc = argp_doc,
	.values = values,
	.tag_param_us = &env.gap_us,
	.open = open_pipes,
	.run = run,
	.summary = summary,
	.close = close_pipes,
};
