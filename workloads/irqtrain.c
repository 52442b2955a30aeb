// SPDX-License-Identifier: GPL-2.0
/*
 * irqtrain - idle periods ended by regular device interrupts that are not
 * timers: bytes arriving on a serial port that the host feeds at a fixed
 * rate (irqfeed).
 *
 * Each byte QEMU's 16550A receives raises a receive interrupt in the guest;
 * the CPU wakes for it although no timer of its own was due, so the
 * governor's next-timer input overestimates the idle period and only
 * history can catch the rhythm: the "network with interrupt mitigation /
 * moving mouse" case.  Two port settings keep one interrupt per byte:
 *   - the receive FIFO trigger level goes to 1 byte (sysfs rx_trig_bytes).
 *     At Linux's 16550A default of 8, a lone byte is signalled only by the
 *     character timeout, which QEMU raises 4 character times after it;
 *   - 115200 baud, so that timeout (about 350 us) stays well below the feed
 *     period should the trigger level not be settable.
 * The port is raw (cfmakeraw, VMIN 1, VTIME 0): every byte reaches read()
 * untouched, nothing is echoed back.  The feeder sends a counter, so a gap
 * in the sequence shows a lost byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "workload.h"

#define RX_TRIGGER_BYTES	1

static struct env {
	const char *path;
} env = {
	.path = "/dev/ttyS1",
};

/* What the run saw. */
struct train {
	__u64 bytes;
	__u64 first_read_bytes;		/* arrived before first_ns: not in the rate */
	__u64 reads;			/* wake-ups of the reader */
	__u64 seq_gaps;			/* bytes that did not follow their predecessor */
	__u64 first_ns, last_ns;
	int last_byte;			/* -1 before the first */
	struct duration_stats interarrival;	/* between consecutive reads */
};

static struct train train = { .last_byte = -1 };
static int port_fd = -1;
static struct termios saved_tio;	/* the port's settings before the run */
static int saved_trigger = -1;		/* its receive trigger level, if set */

static const char argp_doc[] =
"Count bytes the host sends to a serial port at a fixed rate (irqfeed on the\n"
"host): idle periods ended by device interrupts, not timers.  Reports the\n"
"mean inter-arrival time.\n"
"\n"
"Default tag: irqtrain.\n"
"\n"
"EXAMPLES:\n"
"    irqtrain -d 5              # read /dev/ttyS1 for 5 s\n"
"    irqtrain -f /dev/ttyS2 -c 1\n";

static const struct arg_value values[] = {
	ARG_STR('f', "file", "PATH", "Serial port to read (default /dev/ttyS1)",
		"serial port path", &env.path, PATH_MAX - 1),
	{},
};

/* Raw 115200 8N1 without modem control; *saved gets the old settings. */
static int open_port(const char *path, struct termios *saved)
{
	struct termios tio;
	int fd, err;

	/* O_NONBLOCK: do not wait for carrier detect while opening */
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "irqtrain: cannot open %s: %s%s\n", path, strerror(-err),
			err == -ENOENT ? " (give QEMU a second serial port fed by irqfeed)" : "");
		return err;
	}
	if (tcgetattr(fd, saved)) {
		err = -errno;
		fprintf(stderr, "irqtrain: %s is not a terminal: %s\n", path, strerror(-err));
		goto fail;
	}
	tio = *saved;
	cfmakeraw(&tio);
	tio.c_cflag |= CLOCAL | CREAD;
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	cfsetispeed(&tio, B115200);
	cfsetospeed(&tio, B115200);
	if (tcsetattr(fd, TCSANOW, &tio) || fcntl(fd, F_SETFL, 0)) {
		err = -errno;
		fprintf(stderr, "irqtrain: cannot set %s raw: %s\n", path, strerror(-err));
		goto fail;
	}
	tcflush(fd, TCIFLUSH);		/* bytes from before the run are not its */
	return fd;
fail:
	close(fd);
	return err;
}

/*
 * Set the 8250 receive trigger level through sysfs; returns the previous
 * level (to restore), or -errno when the port has no such attribute.
 */
static int set_rx_trigger(const char *port, int bytes)
{
	char attr[256], val[16], *name, *copy;
	int fd, old = -1, err = 0;
	ssize_t n;

	copy = strdup(port);
	if (!copy)
		return -ENOMEM;
	name = basename(copy);
	snprintf(attr, sizeof(attr), "/sys/class/tty/%s/rx_trig_bytes", name);
	free(copy);

	fd = open(attr, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, val, sizeof(val) - 1);
	if (n > 0) {
		val[n] = '\0';
		old = atoi(val);
	}
	n = snprintf(val, sizeof(val), "%d\n", bytes);
	if (pwrite(fd, val, n, 0) != n)
		err = -errno;
	close(fd);
	return err ? err : old;
}

static void count_bytes(struct train *t, const unsigned char *buf, ssize_t n, __u64 now_ns)
{
	ssize_t i;

	if (t->reads) {
		duration_stats_add(&t->interarrival, now_ns - t->last_ns);
	} else {
		t->first_ns = now_ns;
		t->first_read_bytes = n;
	}
	t->last_ns = now_ns;
	t->reads++;
	t->bytes += n;
	for (i = 0; i < n; i++) {
		if (t->last_byte >= 0 && buf[i] != (unsigned char)(t->last_byte + 1))
			t->seq_gaps++;
		t->last_byte = buf[i];
	}
}

/* The run: read until it ends; returns 0 or -errno. */
static int read_train(void)
{
	struct pollfd pfd = { .fd = port_fd, .events = POLLIN };
	unsigned char buf[256];
	struct timespec left;
	__u64 now_ns;
	ssize_t n;
	int err;

	/* the one timer of the loop is the end of the run, far beyond any byte */
	while (!wl_exiting && (now_ns = wl_now_ns()) < wl_end_ns) {
		left.tv_sec = (wl_end_ns - now_ns) / NSEC_PER_SEC;
		left.tv_nsec = (wl_end_ns - now_ns) % NSEC_PER_SEC;
		err = ppoll(&pfd, 1, &left, NULL);
		if (err < 0 && errno == EINTR)
			continue;
		if (err < 0) {
			err = -errno;
			fprintf(stderr, "irqtrain: poll %s: %s\n", env.path, strerror(-err));
			return err;
		}
		if (!err)
			break;		/* the run is over */
		n = read(port_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n ? -errno : -EPIPE;
			fprintf(stderr, "irqtrain: read %s: %s\n", env.path,
				n ? strerror(-err) : "hung up");
			return err;
		}
		count_bytes(&train, buf, n, wl_now_ns());
	}
	return 0;
}

/* The port, raw, and its receive trigger level at one byte. */
static int open_train(void)
{
	port_fd = open_port(env.path, &saved_tio);
	if (port_fd < 0)
		return port_fd;
	saved_trigger = set_rx_trigger(env.path, RX_TRIGGER_BYTES);
	if (saved_trigger < 0)
		fprintf(stderr, "irqtrain: cannot set the receive trigger of %s to %d byte (%s): lone bytes interrupt after the character timeout\n",
			env.path, RX_TRIGGER_BYTES, strerror(-saved_trigger));
	return 0;
}

static int summary(void)
{
	char interarrival[160];
	double span_s;

	duration_stats_fmt(&train.interarrival, interarrival, sizeof(interarrival));
	span_s = (double)(train.last_ns - train.first_ns) / NSEC_PER_SEC;
	wl_summary("%s, %llu bytes in %llu reads, %.1f bytes/s, inter-arrival %s, %llu sequence gaps",
		   env.path, (unsigned long long)train.bytes, (unsigned long long)train.reads,
		   span_s > 0 ? (train.bytes - train.first_read_bytes) / span_s : 0.0,
		   interarrival, (unsigned long long)train.seq_gaps);
	if (!train.bytes) {
		fprintf(stderr, "irqtrain: no bytes arrived on %s: is irqfeed feeding it?\n",
			env.path);
		return -ENODATA;
	}
	return 0;
}

/* The port as it was. */
static void close_train(void)
{
	if (saved_trigger > 0)
		set_rx_trigger(env.path, saved_trigger);
	if (port_fd >= 0) {
		tcsetattr(port_fd, TCSANOW, &saved_tio);
		close(port_fd);
	}
	duration_stats_free(&train.interarrival);
}

const struct wl_pattern wl_pattern = {
	.name = "irqtrain",
	.doc = argp_doc,
	.values = values,
	.pinnable = true,
	.open = open_train,
	.run = read_train,
	.summary = summary,
	.close = close_train,
};
