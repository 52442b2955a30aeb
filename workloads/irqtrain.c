// SPDX-License-Identifier: GPL-2.0
/*
 * irqtrain - idle periods ended by device interrupts that are not timers.
 *
 * The CPU wakes for an interrupt although no timer of its own was due, so
 * the governor's next-timer input overestimates the idle period and only
 * history can catch the rhythm: the "network with interrupt mitigation /
 * moving mouse" case.  Two sources:
 *
 *  - /dev/hpet (the default): a comparator of the HPET that the kernel
 *    leaves free, programmed through the hpet character device to raise
 *    its interrupt -r times a second (periodic mode: the comparator
 *    re-arms itself, so the rate is exact), or, with -i, at the times of
 *    a schedule drawn from the seed (gaps exponential, mean 1/rate).
 *    QEMU's HPET counts the guest's virtual clock, so under CLOCK=virtual
 *    the interrupts come at guest times: an idle period they end lasts
 *    what the train says.  No guest timer stands for them: the hpet
 *    driver's handler only wakes the reader.
 *
 *    The irregular train does not let the driver re-arm the comparator
 *    with the next gap, as its one-shot mode would: the driver re-arms
 *    from the interrupt with whatever gap the reader set last, so a
 *    reader slower than a short gap repeats that gap (short gaps count
 *    more than once), and it writes the comparator before it clears the
 *    interrupt's status, so a comparator that expires in between (a gap
 *    shorter than the handler takes in guest time, which a busy other
 *    vCPU stretches) loses its interrupt and the train stops
 *    (docs/devices.md).  The reader arms each event itself instead, at
 *    its scheduled time, and leaves the driver a re-arm gap of a second
 *    that only a reader a second late would see.
 *
 *  - a serial port (a tty, e.g. /dev/ttyS1) that the host's irqfeed feeds
 *    a byte at a time.  Its bytes arrive at host times: under the virtual
 *    clock, whose guest time jumps to the next timer when every CPU is
 *    idle, a byte cannot end an idle period early, so this source is for
 *    the host clock and for comparison.  Two port settings keep one
 *    interrupt per byte: the receive FIFO trigger level goes to 1 byte
 *    (sysfs rx_trig_bytes; at Linux's 16550A default of 8, a lone byte is
 *    signalled only by the character timeout, which QEMU raises 4
 *    character times after it), and 115200 baud, so that timeout (about
 *    350 us) stays well below the feed period should the trigger level not
 *    be settable.  The port is raw (cfmakeraw, VMIN 1, VTIME 0); the feeder
 *    sends a counter, so a gap in the sequence shows a lost byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/hpet.h>
#include "workload.h"

#define RX_TRIGGER_BYTES	1
#define MIN_GAP_US		50	/* -i: shortest gap drawn */
#define MIN_LEAD_US		200	/* -i: shortest time from arming to the event */
#define MAX_GAP_US		1000000	/* -i: longest gap: HPET_IRQFREQ's 1 Hz */
#define GUARD_HZ		1	/* -i: the driver's own re-arm, never reached */
#define RESYNC_GAPS		20	/* -i: mean gaps behind the schedule that restart it */
#define MAX_RATE_HZ		20000

static struct env {
	const char *path;
	long rate_hz;
	bool irregular;
} env = {
	.path = "/dev/hpet",
	.rate_hz = 1000,
};

/* What the run saw: interrupts (HPET) or bytes (serial). */
struct train {
	__u64 events;
	__u64 first_read_events;	/* arrived before first_ns: not in the rate */
	__u64 reads;			/* wake-ups of the reader */
	__u64 seq_gaps;			/* serial: bytes that did not follow their predecessor */
	__u64 first_ns, last_ns;
	int last_byte;			/* serial: -1 before the first */
	struct duration_stats interarrival;	/* between consecutive reads */
};

/*
 * The irregular train's schedule: event times in guest time (wl_now_ns),
 * each the previous plus a gap drawn from the seed, so that arming late
 * delays one event and not the ones after it.  A reader RESYNC_GAPS mean
 * gaps behind (the guest stalled) restarts the schedule from now rather
 * than fire the backlog MIN_LEAD_US apart.
 */
struct schedule {
	__u64 next_ns;			/* the event armed now */
	__u64 armed;			/* events armed, the first included */
	__u64 late;			/* armed less than MIN_LEAD_US before their time */
	__u64 resyncs;			/* restarts of the schedule */
	__u64 arm_ns;			/* what the last arming took, in guest time */
	__u64 first_ns, last_ns;	/* scheduled times of the first and last read events */
};

static struct train train = { .last_byte = -1 };
static struct schedule sched;
static int port_fd = -1;
static bool is_serial;
static struct termios saved_tio;	/* the port's settings before the run */
static int saved_trigger = -1;		/* its receive trigger level, if set */

static const char argp_doc[] =
"Count device interrupts that are not timers: an HPET comparator raising its\n"
"interrupt at -r Hz (/dev/hpet, timed by the guest's clock), or bytes the\n"
"host's irqfeed sends to a serial port (a tty, timed by the host).  Reports\n"
"the rate in guest time and the inter-arrival time.\n"
"\n"
"Default tag: irqtrain.\n"
"\n"
"EXAMPLES:\n"
"    irqtrain -d 5              # 1000 HPET interrupts a second for 5 s\n"
"    irqtrain -r 250 -i -c 1    # irregular gaps, 4 ms on average\n"
"    irqtrain -f /dev/ttyS1     # bytes from the host's irqfeed\n";

static const struct arg_value values[] = {
	ARG_STR('f', "file", "PATH", "hpet device or serial port to read (default /dev/hpet)",
		"device path", &env.path, PATH_MAX - 1),
	ARG_NUM('r', "rate", "HZ", "HPET: interrupts per second (default 1000)",
		"rate", &env.rate_hz, 1, MAX_RATE_HZ),
	ARG_FLAG('i', "irregular", "HPET: gaps drawn from the seed, exponential with mean 1/rate (50 us to 1 s)",
		 &env.irregular),
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

/* -i: the next gap, exponential with mean 1/rate, within the comparator's reach. */
static __u64 draw_gap_ns(void)
{
	double gap_us = rng_exp(&wl_rng, 1e6 / env.rate_hz);

	return (__u64)(fmin(fmax(gap_us, MIN_GAP_US), MAX_GAP_US) * NSEC_PER_USEC);
}

static int hpet_ioctl(int fd, unsigned long cmd, unsigned long arg, const char *what)
{
	int err;

	if (!ioctl(fd, cmd, arg))
		return 0;
	err = -errno;
	fprintf(stderr, "irqtrain: %s on %s: %s%s\n", what, env.path, strerror(-err),
		err == -EIO ? " (the comparator has no interrupt: QEMU's hpet-intcap)" : "");
	return err;
}

/*
 * -i: arm the comparator for the scheduled event, one-shot, from now.
 * HPET_IRQFREQ takes whole Hz: the lead, as the nearest rate; the driver
 * turns it into comparator ticks (10 ns on QEMU's HPET).  The driver's
 * handler then re-arms by GUARD_HZ's second, which the reader disarms
 * before it comes; an event that came before the reader set GUARD_HZ
 * would be repeated, so no event is armed nearer than MIN_LEAD_US plus
 * twice what the last arming took (the icount shift stretches it): one
 * whose time is nearer or past (the reader woke late) comes then.
 */
static int arm_scheduled(int fd)
{
	__u64 now_ns = wl_now_ns(), lead_ns = MIN_LEAD_US * NSEC_PER_USEC + 2 * sched.arm_ns;
	unsigned long hz;
	int err;

	if (now_ns > sched.next_ns + RESYNC_GAPS * NSEC_PER_SEC / env.rate_hz) {
		sched.next_ns = now_ns;
		sched.resyncs++;
	}
	if (sched.next_ns > now_ns + lead_ns)
		lead_ns = sched.next_ns - now_ns;
	else
		sched.late++;
	hz = lround(fmin(fmax((double)NSEC_PER_SEC / lead_ns, 1.0), MAX_RATE_HZ));
	err = hpet_ioctl(fd, HPET_IE_OFF, 0, "HPET_IE_OFF");
	if (!err)
		err = hpet_ioctl(fd, HPET_IRQFREQ, hz, "HPET_IRQFREQ");
	if (!err)
		err = hpet_ioctl(fd, HPET_IE_ON, 0, "HPET_IE_ON");
	if (!err)
		err = hpet_ioctl(fd, HPET_IRQFREQ, GUARD_HZ, "HPET_IRQFREQ");
	sched.arm_ns = wl_now_ns() - now_ns;
	sched.armed++;
	return err;
}

/*
 * Deliver the comparator's interrupt to the CPU the reader is pinned to,
 * so that an event wakes that CPU and not, through the other, an IPI (the
 * IOAPIC's default is CPU 0).  The interrupt line is the one
 * /proc/interrupts names hpetN for comparator N; a comparator of another
 * train shares it (docs/devices.md), so two pinned trains route both to
 * the CPU of the later.  Failing only costs the routing.
 */
static void route_irq(int fd, int cpu)
{
	char want[32], line[256], path[64];
	struct hpet_info info;
	bool routed = false;
	int irq = -1;
	FILE *f;

	if (ioctl(fd, HPET_INFO, &info))
		return;
	snprintf(want, sizeof(want), " hpet%hu\n", info.hi_timer);
	f = fopen("/proc/interrupts", "re");
	while (f && irq < 0 && fgets(line, sizeof(line), f))
		if (strstr(line, want) && sscanf(line, " %d:", &irq) != 1)
			irq = -1;
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
	f = irq >= 0 ? fopen(path, "we") : NULL;
	if (f) {
		routed = fprintf(f, "%d\n", cpu) > 0;
		routed = !fclose(f) && routed;
	}
	if (!routed)
		fprintf(stderr, "irqtrain: cannot route the interrupt of %s to CPU %d (%s): another CPU takes it\n",
			env.path, cpu, irq < 0 ? "no hpet line in /proc/interrupts" : path);
}

/*
 * The comparator the hpet driver hands out, interrupting at the rate:
 * periodic (HPET_EPI) for a regular train, so the hardware re-arms it by
 * exactly one period; armed event by event for an irregular one.
 */
static int open_hpet(const char *path)
{
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "irqtrain: cannot open %s: %s%s\n", path, strerror(-err),
			err == -ENOENT ? " (a kernel with CONFIG_HPET and QEMU's HPET)" :
			err == -EBUSY ? " (no HPET comparator left)" : "");
		return err;
	}
	if (env.irregular) {
		sched.next_ns = wl_now_ns() + draw_gap_ns();
		err = arm_scheduled(fd);
	} else {
		err = hpet_ioctl(fd, HPET_IRQFREQ, env.rate_hz, "HPET_IRQFREQ");
		if (!err)
			err = hpet_ioctl(fd, HPET_EPI, 0, "HPET_EPI");
		if (!err)
			err = hpet_ioctl(fd, HPET_IE_ON, 0, "HPET_IE_ON");
	}
	if (!err && wl_env.cpu >= 0)
		route_irq(fd, wl_env.cpu);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* One wake-up of the reader: @n events arrived by @now_ns. */
static void count_read(struct train *t, __u64 n, __u64 now_ns)
{
	if (t->reads) {
		duration_stats_add(&t->interarrival, now_ns - t->last_ns);
	} else {
		t->first_ns = now_ns;
		t->first_read_events = n;
	}
	t->last_ns = now_ns;
	t->reads++;
	t->events += n;
}

static void check_sequence(struct train *t, const unsigned char *buf, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++) {
		if (t->last_byte >= 0 && buf[i] != (unsigned char)(t->last_byte + 1))
			t->seq_gaps++;
		t->last_byte = buf[i];
	}
}

/*
 * What one read() brought: bytes of the port, or the hpet driver's count
 * of interrupts since the last read; for an irregular train, the next gap.
 * Returns the events, or -errno (said).
 */
static long take_events(__u64 now_ns)
{
	unsigned char buf[256];
	unsigned long count;
	ssize_t n;
	int err;

	n = is_serial ? read(port_fd, buf, sizeof(buf)) : read(port_fd, &count, sizeof(count));
	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0 || (!is_serial && n != sizeof(count))) {
		fprintf(stderr, "irqtrain: read %s: %s\n", env.path,
			n < 0 ? strerror(errno) : "short read");
		return n < 0 ? -errno : -EPIPE;
	}
	if (is_serial) {
		check_sequence(&train, buf, n);
		count = n;
	} else if (env.irregular) {
		if (!train.reads)
			sched.first_ns = sched.next_ns;
		sched.last_ns = sched.next_ns;
		sched.next_ns += draw_gap_ns();
		err = arm_scheduled(port_fd);
		if (err)
			return err;
	}
	count_read(&train, count, now_ns);
	return count;
}

/* The run: read until it ends; returns 0 or -errno. */
static int read_train(void)
{
	struct pollfd pfd = { .fd = port_fd, .events = POLLIN };
	struct timespec left;
	__u64 now_ns;
	long n;
	int err;

	/* the one timer of the loop is the end of the run, far beyond any event */
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
		n = take_events(wl_now_ns());
		if (n < 0)
			return n;
	}
	return 0;
}

/* A terminal is a serial port the host feeds; anything else an hpet device. */
static int open_train(void)
{
	int fd = open(env.path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0) {
		is_serial = isatty(fd);
		close(fd);
	}
	if (!is_serial) {
		port_fd = open_hpet(env.path);
		return port_fd < 0 ? port_fd : 0;
	}
	port_fd = open_port(env.path, &saved_tio);
	if (port_fd < 0)
		return port_fd;
	saved_trigger = set_rx_trigger(env.path, RX_TRIGGER_BYTES);
	if (saved_trigger < 0)
		fprintf(stderr, "irqtrain: cannot set the receive trigger of %s to %d byte (%s): lone bytes interrupt after the character timeout\n",
			env.path, RX_TRIGGER_BYTES, strerror(-saved_trigger));
	return 0;
}

/*
 * -i: the schedule's own rate over the events read (each read is one
 * event armed, unless the driver's guard re-arm came first), which is
 * what the train should have delivered: the seed's draws, not -r.
 */
static void format_schedule(char *buf, size_t size)
{
	double span_s = (double)(sched.last_ns - sched.first_ns) / NSEC_PER_SEC;
	double rate_hz = span_s > 0 ? (train.reads - 1) / span_s : 0.0;

	snprintf(buf, size, ", schedule %.1f Hz (%+.2f%%), %llu armed, %llu late, %llu resyncs",
		 rate_hz, 100.0 * (rate_hz - env.rate_hz) / env.rate_hz,
		 (unsigned long long)sched.armed, (unsigned long long)sched.late,
		 (unsigned long long)sched.resyncs);
}

static int summary(void)
{
	char interarrival[160], schedule[160] = "";
	double span_s, rate_hz;

	duration_stats_fmt(&train.interarrival, interarrival, sizeof(interarrival));
	span_s = (double)(train.last_ns - train.first_ns) / NSEC_PER_SEC;
	rate_hz = span_s > 0 ? (train.events - train.first_read_events) / span_s : 0.0;
	if (!is_serial && env.irregular)
		format_schedule(schedule, sizeof(schedule));
	if (is_serial)
		wl_summary("%s, events host, %llu bytes in %llu reads, %.1f bytes/s, inter-arrival %s, %llu sequence gaps",
			   env.path, (unsigned long long)train.events,
			   (unsigned long long)train.reads, rate_hz, interarrival,
			   (unsigned long long)train.seq_gaps);
	else
		wl_summary("%s, events device, %s, %llu interrupts in %llu reads, %.1f Hz of %ld Hz (%+.2f%%)%s, inter-arrival %s",
			   env.path, env.irregular ? "irregular" : "regular",
			   (unsigned long long)train.events, (unsigned long long)train.reads,
			   rate_hz, env.rate_hz, 100.0 * (rate_hz - env.rate_hz) / env.rate_hz,
			   schedule, interarrival);
	if (!train.events) {
		fprintf(stderr, "irqtrain: nothing arrived on %s%s\n", env.path,
			is_serial ? ": is irqfeed feeding it?" : "");
		return -ENODATA;
	}
	return 0;
}

/* The device as it was. */
static void close_train(void)
{
	if (saved_trigger > 0)
		set_rx_trigger(env.path, saved_trigger);
	if (port_fd >= 0) {
		if (is_serial)
			tcsetattr(port_fd, TCSANOW, &saved_tio);
		close(port_fd);	/* the hpet driver frees the comparator */
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
