// SPDX-License-Identifier: GPL-2.0
/*
 * irqfeed - the host side of irqtrain: write one byte every -p microseconds
 * into the chardev behind the guest's second serial port.
 *
 * Runs on the host, not in the guest.  The bytes are a counter (0, 1, ...
 * 255, 0, ...) so irqtrain can tell a lost byte from a late one.  Deadlines
 * are absolute on CLOCK_MONOTONIC; a write that blocks past the next slot
 * skips the slots missed rather than sending a burst, because a burst would
 * arrive in the guest as one interrupt and break the train.
 *
 * Two ways to reach QEMU:
 *   -u SOCKET  connect to a listening UNIX stream socket, e.g. QEMU's
 *              -chardev socket,id=irq,path=SOCKET,server=on,wait=off
 *              -serial chardev:irq (after the console's -serial);
 *   -f PATH    open a FIFO or tty for writing, e.g. PATH.in of
 *              -chardev pipe,id=irq,path=PATH (mkfifo PATH.in PATH.out).
 * Both wait up to 10 s for the other side to appear.
 *
 * With -w FILE, slots pass without a byte while FILE does not exist: a guest
 * that only opens the serial port for irqtrain creates FILE in its 9p share
 * for the run.  Bytes sent to a closed port would pile up in QEMU's socket
 * and arrive as one burst when irqtrain opens it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "workload.h"

#define CONNECT_WAIT_NS		(10 * NSEC_PER_SEC)
#define CONNECT_RETRY_NS	(100 * 1000 * NSEC_PER_USEC)

static struct env {
	long period_us;
	const char *path;		/* -f */
	const char *socket_path;	/* -u */
	const char *gate_path;		/* -w */
} env = {
	.period_us = 1000,
};

static const char *target;		/* -u's or -f's path */
static int target_fd = -1;
static unsigned char next_byte;		/* the counter irqtrain checks */

static const char argp_doc[] =
"Host side of irqtrain: write one byte every -p microseconds to a FIFO or tty\n"
"(-f) or a UNIX stream socket (-u) that QEMU connects to the guest's serial\n"
"port.  Waits up to 10 s for the other side.\n"
"\n"
"EXAMPLES:\n"
"    irqfeed -u build/irq.sock -d 30          # 1000 bytes/s for 30 s\n"
"    irqfeed -f build/irq.in -p 5000          # a FIFO, 200 bytes/s\n"
"    irqfeed -u build/irq.sock -w out/feed.on # only while out/feed.on exists\n";

#define SOCKET_PATH_MAX	(sizeof(((struct sockaddr_un *)0)->sun_path) - 1)

static const struct arg_value values[] = {
	ARG_NUM('p', "period", "USEC", "Write a byte every USEC microseconds (default 1000)",
		"period", &env.period_us, 1, WL_MAX_USEC),
	ARG_STR('f', "file", "PATH", "Write to the FIFO or tty PATH", "path", &env.path,
		PATH_MAX - 1),
	ARG_STR('u', "unix", "SOCKET", "Connect to the UNIX stream socket SOCKET",
		"socket path", &env.socket_path, SOCKET_PATH_MAX),
	ARG_STR('w', "while", "FILE", "Send only while FILE exists", "gate file path",
		&env.gate_path, PATH_MAX - 1),
	{},
};

static void check(struct argp_state *state)
{
	if (!env.path == !env.socket_path)
		args_error(state, "give exactly one of -f PATH and -u SOCKET");
}

/* Is err one that waiting can cure (the other side not there yet)? */
static bool not_there_yet(int err)
{
	return err == ENOENT || err == ECONNREFUSED || err == ENXIO;
}

static int connect_socket(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	__u64 give_up_ns = wl_now_ns() + CONNECT_WAIT_NS;
	int fd, err;

	strcpy(addr.sun_path, path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = -errno;
			fprintf(stderr, "irqfeed: socket: %s\n", strerror(-err));
			return err;
		}
		if (!connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
			return fd;
		err = -errno;
		close(fd);
		if (!not_there_yet(-err) || wl_now_ns() >= give_up_ns || wl_exiting)
			break;
		wl_sleep_until(wl_now_ns() + CONNECT_RETRY_NS);
	}
	fprintf(stderr, "irqfeed: cannot connect to %s: %s\n", path, strerror(-err));
	return err;
}

static int open_path(const char *path)
{
	__u64 give_up_ns = wl_now_ns() + CONNECT_WAIT_NS;
	int fd, err;

	/* O_NONBLOCK: a FIFO without reader fails with ENXIO instead of blocking */
	for (;;) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0)
			break;
		err = -errno;
		if (!not_there_yet(-err) || wl_now_ns() >= give_up_ns || wl_exiting) {
			fprintf(stderr, "irqfeed: cannot open %s: %s\n", path, strerror(-err));
			return err;
		}
		wl_sleep_until(wl_now_ns() + CONNECT_RETRY_NS);
	}
	if (fcntl(fd, F_SETFL, 0)) {	/* from now on writes may block */
		err = -errno;
		fprintf(stderr, "irqfeed: fcntl %s: %s\n", path, strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

/* The other side: QEMU's socket or FIFO. */
static int open_target(void)
{
	signal(SIGPIPE, SIG_IGN);	/* a closed peer is an EPIPE to report */
	target = env.socket_path ? env.socket_path : env.path;
	target_fd = env.socket_path ? connect_socket(env.socket_path) : open_path(env.path);
	return target_fd < 0 ? target_fd : 0;
}

static __u64 next_deadline(__u64 deadline_ns, __u64 now_ns)
{
	wl_timer.overruns += wl_next_period(&deadline_ns, env.period_us * NSEC_PER_USEC,
					    now_ns);
	return deadline_ns;
}

/* One byte per slot, while the gate is open; 1: slot passed without one. */
static int send_byte(void)
{
	ssize_t n;
	int err;

	if (env.gate_path && access(env.gate_path, F_OK))
		return 1;
	n = write(target_fd, &next_byte, 1);
	if (n < 0 && errno == EINTR)
		return -EINTR;
	if (n != 1) {
		err = n < 0 ? -errno : -EIO;
		fprintf(stderr, "irqfeed: write to %s: %s\n", target,
			err == -EPIPE ? "the other side closed" : strerror(-err));
		return err;
	}
	next_byte++;
	return 0;
}

static int summary(void)
{
	char lateness[128];

	/* wakeups counts bytes written, overruns slots skipped */
	duration_stats_fmt(&wl_timer.lateness, lateness, sizeof(lateness));
	wl_summary("%s, period %ld us, %llu bytes, %llu slots skipped, lateness %s",
		   target, env.period_us, (unsigned long long)wl_timer.wakeups,
		   (unsigned long long)wl_timer.overruns, lateness);
	return 0;
}

static void close_target(void)
{
	if (target_fd >= 0)
		close(target_fd);
}

const struct wl_pattern wl_pattern = {
	.name = "irqfeed",
	.doc = argp_doc,
	.values = values,
	.check = check,
	.untagged = true,
	.open = open_target,
	.next_deadline = next_deadline,
	.wakeup = send_byte,
	.summary = summary,
	.close = close_target,
};
