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

static const char argp_doc[] =
"Read random 4096-byte blocks of a disk with O_DIRECT, one at a time, so the\n"
"task waits in io_schedule() (nr_iowait > 0) while its CPU idles.\n"
"\n"
"Default tag: iowait.\n"
"\n"
"EXAMPLES:\n"
"    iowait -d 5                # random reads of /dev/vda for 5 s\n"
"    iowait -f /dev/vdb -g 1000 # another disk, 1 ms between reads\n";

static const struct argp_option opts[] = {
	{ "file", 'f', "PATH", 0, "Block device (or file) to read (default /dev/vda)", 0 },
	{ "gap", 'g', "USEC", 0, "Sleep USEC microseconds between reads (default 0)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'f':
		if (!*arg)
			argp_error(state, "device path must not be empty");
		env.path = arg;
		break;
	case 'g':
		env.gap_us = parse_long_arg(arg, "gap", 0, WL_MAX_USEC, state);
		break;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

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

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &wl_argp, 0, "Common options:", 1 },
		{ &wl_cpu_argp, 0, NULL, 1 },
		{},
	};
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.doc = argp_doc,
		.children = children,
	};
	struct duration_stats latency = {};
	__u64 blocks = 0, block, start_ns;
	struct rng rng;
	char summary[160];
	void *buf = NULL;
	int fd = -1, err;
	ssize_t n;

	wl_prog = "iowait";
	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	wl_default_tag("iowait", -1);
	rng_seed(&rng, wl_env.seed);

	fd = open_device(env.path, &blocks);
	if (fd < 0) {
		err = fd;
		goto cleanup;
	}
	/* O_DIRECT needs a buffer aligned to the logical block size */
	err = -posix_memalign(&buf, READ_SIZE, READ_SIZE);
	if (err) {
		fprintf(stderr, "iowait: cannot allocate the read buffer: %s\n", strerror(-err));
		goto cleanup;
	}

	err = wl_start();
	if (err)
		goto cleanup;
	while (!wl_exiting && wl_now_ns() < wl_end_ns) {
		block = rng_range(&rng, 0, blocks - 1);
		start_ns = wl_now_ns();
		n = pread(fd, buf, READ_SIZE, block * READ_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != READ_SIZE) {
			err = n < 0 ? -errno : -EIO;
			fprintf(stderr, "iowait: read of block %llu of %s: %s\n",
				(unsigned long long)block, env.path,
				n < 0 ? strerror(-err) : "short read");
			break;
		}
		duration_stats_add(&latency, wl_now_ns() - start_ns);
		if (env.gap_us)
			wl_sleep_until(wl_now_ns() + env.gap_us * NSEC_PER_USEC);
	}
	wl_stop();
	if (err)
		goto cleanup;

	duration_stats_fmt(&latency, summary, sizeof(summary));
	printf("iowait: %s, gap %ld us, %llu reads of %d B, read latency %s, tag %s%s\n",
	       env.path, env.gap_us, (unsigned long long)latency.count, READ_SIZE,
	       summary, wl_env.tag, wl_tag_note());

cleanup:
	wl_stop();
	if (fd >= 0)
		close(fd);
	free(buf);
	duration_stats_free(&latency);
	return err ? 1 : 0;
}
