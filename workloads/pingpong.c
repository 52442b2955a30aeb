// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong - two threads on two CPUs wake each other through a pipe pair.
 *
 * The main thread (CPU A) writes a byte to the ping pipe and blocks reading
 * the pong pipe; the partner thread (CPU B) blocks reading the ping pipe,
 * optionally sleeps -g microseconds ("think"), and writes the byte back.
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
	bool one_cpu_ok;
} env;

struct partner {
	int cpu;
	int ping_rd;			/* reads the main thread's ping */
	int pong_wr;			/* writes the reply */
	int err;			/* negative errno, 0 = ended by EOF */
};

static const char argp_doc[] =
"Two threads pinned to the first two usable CPUs (normally 0 and 1) wake\n"
"each other through a pipe pair; prints round trips per second.\n"
"\n"
"Default tag: pingpong, or pingpong<GAP> with -g, e.g. pingpong100us.\n"
"\n"
"EXAMPLES:\n"
"    pingpong -d 5              # back-to-back round trips for 5 s\n"
"    pingpong -g 500            # the partner thinks 500 us before replying\n";

static const struct argp_option opts[] = {
	{ "gap", 'g', "USEC", 0,
	  "Partner sleeps USEC microseconds before each reply (default 0)", 0 },
	{ "one-cpu-ok", 'n', NULL, 0,
	  "With fewer than 2 usable CPUs, run both threads on one instead of failing", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'g':
		env.gap_us = parse_long_arg(arg, "gap", 0, WL_MAX_USEC, state);
		break;
	case 'n':
		env.one_cpu_ok = true;
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

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
		if (write(p->pong_wr, &byte, 1) != 1) {
			p->err = -errno;
			fprintf(stderr, "pingpong: partner write: %s\n", strerror(-p->err));
			return NULL;
		}
	}
}

/* Ping, wait for the pong, until the run ends.  Returns 0 or -errno. */
static int ping_loop(int ping_wr, int pong_rd, struct duration_stats *rtt, __u64 *round_trips)
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
		duration_stats_add(rtt, now_ns - sent_ns);
		(*round_trips)++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &wl_argp, 0, "Common options:", 1 },
		{},
	};
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
		.children = children,
	};
	int ping[2] = { -1, -1 }, pong[2] = { -1, -1 };
	struct partner partner = {};
	bool partner_started = false;
	struct duration_stats rtt = {};
	__u64 round_trips = 0, start_ns = 0, elapsed_ns;
	sigset_t block, old;
	char summary[160];
	int cpus[2], nr_cpus;
	pthread_t tid;
	int err;

	wl_prog = "pingpong";
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	wl_default_tag("pingpong", env.gap_us ? env.gap_us : -1);

	nr_cpus = wl_usable_cpus(cpus, 2);
	if (nr_cpus < 1) {
		fprintf(stderr, "pingpong: cannot read the CPU affinity: %s\n", strerror(errno));
		return 1;
	}
	if (nr_cpus < 2) {
		if (!env.one_cpu_ok) {
			fprintf(stderr,
				"pingpong: needs 2 usable CPUs, found 1 (-n runs both threads on CPU %d)\n",
				cpus[0]);
			return 1;
		}
		fprintf(stderr, "pingpong: one usable CPU: both threads on CPU %d\n", cpus[0]);
		cpus[1] = cpus[0];
	}

	if (pipe2(ping, O_CLOEXEC) || pipe2(pong, O_CLOEXEC)) {
		err = -errno;
		fprintf(stderr, "pingpong: pipe: %s\n", strerror(-err));
		goto cleanup;
	}

	err = wl_start();
	if (err)
		goto cleanup;
	err = wl_pin_cpu(cpus[0]);
	if (err)
		goto cleanup;

	partner.cpu = cpus[1];
	partner.ping_rd = ping[0];
	partner.pong_wr = pong[1];
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);	/* the partner inherits it */
	err = -pthread_create(&tid, NULL, partner_main, &partner);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		fprintf(stderr, "pingpong: pthread_create: %s\n", strerror(-err));
		goto cleanup;
	}
	partner_started = true;

	start_ns = wl_now_ns();
	err = ping_loop(ping[1], pong[0], &rtt, &round_trips);
	elapsed_ns = wl_now_ns() - start_ns;
	wl_stop();

	close(ping[1]);			/* the partner reads EOF and returns */
	ping[1] = -1;
	pthread_join(tid, NULL);
	partner_started = false;
	if (!err)
		err = partner.err;
	if (err)
		goto cleanup;

	duration_stats_fmt(&rtt, summary, sizeof(summary));
	printf("pingpong: CPUs %d and %d, gap %ld us, %llu round trips in %.3f s, %.0f round trips/s, round trip %s, tag %s%s\n",
	       cpus[0], cpus[1], env.gap_us, (unsigned long long)round_trips,
	       (double)elapsed_ns / NSEC_PER_SEC,
	       elapsed_ns ? round_trips * (double)NSEC_PER_SEC / elapsed_ns : 0.0,
	       summary, wl_env.tag, wl_tag_note());

cleanup:
	wl_stop();
	if (ping[1] >= 0)
		close(ping[1]);
	if (partner_started)
		pthread_join(tid, NULL);
	if (ping[0] >= 0)
		close(ping[0]);
	if (pong[0] >= 0)
		close(pong[0]);
	if (pong[1] >= 0)
		close(pong[1]);
	duration_stats_free(&rtt);
	return err ? 1 : 0;
}
