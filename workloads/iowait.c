// SPDX-License-Identifier: GPL-2.0
/*
 * iowait - blocking O_DIRECT reads of random 4 KiB blocks of a disk.
 *
 * O_DIRECT bypasses the page cache, so every read goes to the device and
 * the task sleeps in io_schedule() until the completion interrupt: while it
 * waits, its CPU's nr_iowait is non-zero, the input the menu governors use
 * to choose shallower states (iowait bucket, performance multiplier).
 * Offsets are drawn from the seeded PRNG, so a seed is one fixed sequence
 * of blocks.  -g adds a sleep between reads, mixing timer-ended and
 * I/O-ended idle periods.  Read latency is measured per read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include "workload.h"

#define READ_SIZE	4096		/* bytes per read, and the buffer alignment */

static struct env {
	const char *path;
	long gap_us;
} env = {
	.path = "/dev/vda",
};

static int device_fd = -1;
static __u64 device_blocks;		/* whole READ_SIZE blocks on it */
static void *read_buf;
static struct duration_stats latency;

static const char argp_doc[] =
"Read random 4096-byte blocks of a disk with O_DIRECT, one at a time, so the\n"
"task waits in io_schedule() (nr_iowait > 0) while its CPU idles.\n"
"\n"
"Default tag: iowait.\n"
"\n"
"EXAMPLES:\n"
"    iowait -d 5                # random reads of /dev/vda for 5 s\n"
"    iowait -f /dev/vdb -g 1000 # another disk, 1 ms between reads\n";

static const struct arg_value values[] = {
	ARG_STR('f', "file", "PATH", "Block device (or file) to read (default /dev/vda)",
		"device path", &env.path, PATH_MAX - 1),
	ARG_NUM('g', "gap", "USEC", "Sleep USEC microseconds between reads (default 0)",
		"gap", &env.gap_us, 0, WL_MAX_USEC),
	{},
};

/* Open path for O_DIRECT reads; *blocks = whole READ_SIZE blocks in it. */
static int open_device(const char *path, __u64 *blocks)
{
	__u64 bytes;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "iowait: cannot open %s: %s%s\n", path, strerror(-err),
			err == -ENOENT ? " (attach a disk: -drive file=IMG,if=virtio,format=raw)" :
			err == -EINVAL ? " (no O_DIRECT support: use a block device)" : "");
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		fprintf(stderr, "iowait: cannot stat %s: %s\n", path, strerror(-err));
		goto fail;
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &bytes)) {
			err = -errno;
			fprintf(stderr, "iowait: cannot get the size of %s: %s\n", path,
				strerror(-err));
			goto fail;
		}
	} else if (S_ISREG(st.st_mode)) {
		bytes = st.st_size;
	} else {
		err = -EINVAL;
		fprintf(stderr, "iowait: %s is neither a block device nor a file\n", path);
		goto fail;
	}
	*blocks = bytes / READ_SIZE;
	if (!*blocks) {
		err = -EINVAL;
		fprintf(stderr, "iowait: %s is smaller than one %d-byte block\n", path,
			READ_SIZE);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return err;
}

/* The device, and a buffer aligned as O_DIRECT needs. */
static int open_io(void)
{
	int err;

	device_fd = open_device(env.path, &device_blocks);
	if (device_fd < 0)
		return device_fd;
	/* O_DIRECT needs a buffer aligned to the logical block size */
	err = -posix_memalign(&read_buf, READ_SIZE, READ_SIZE);
	if (err)
		fprintf(stderr, "iowait: cannot allocate the read buffer: %s\n", strerror(-err));
	return err;
}

static int run(void)
{
	__u64 block, start_ns;
	ssize_t n;
	int err;

	while (!wl_exiting && wl_now_ns() < wl_end_ns) {
		block = rng_range(&wl_rng, 0, device_blocks - 1);
		start_ns = wl_now_ns();
		n = pread(device_fd, read_buf, READ_SIZE, block * READ_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != READ_SIZE) {
			err = n < 0 ? -errno : -EIO;
			fprintf(stderr, "iowait: read of block %llu of %s: %s\n",
				(unsigned long long)block, env.path,
				n < 0 ? strerror(-err) : "short read");
			return err;
		}
		duration_stats_add(&latency, wl_now_ns() - start_ns);
		if (env.gap_us)
			wl_sleep_until(wl_now_ns() + env.gap_us * NSEC_PER_USEC);
	}
	return 0;
}

static int summary(void)
{
	char latency_summary[160];

	duration_stats_fmt(&latency, latency_summary, sizeof(latency_summary));
	wl_summary("%s, gap %ld us, %llu reads of %d B, read latency %s", env.path,
		   env.gap_us, (unsigned long long)latency.count, READ_SIZE, latency_summary);
	return 0;
}

static void close_io(void)
{
	if (device_fd >= 0)
		close(device_fd);
	free(read_buf);
	duration_stats_free(&latency);
}

const struct wl_pattern wl_pattern = {
	.name = "iowait",
	.doc = argp_doc,
	.values = values,
	.pinnable = true,
	.open = open_io,
	.run = run,
	.summary = summary,
	.close = close_io,
};
