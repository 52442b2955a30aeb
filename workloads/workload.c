// SPDX-License-Identifier: GPL-2.0
/*
 * The shared part of the idlescope workloads: options, the workload tag,
 * deadlines and pinning (see workload.h).
 *
 * The tag is written with the bpf(2) syscall directly rather than through
 * libbpf, so the workloads stay tiny static binaries with no dependency on
 * the loader: BPF_OBJ_GET opens the map the loader pinned, and
 * BPF_MAP_UPDATE_ELEM stores a struct idlescope_tag at key 0.  Opening a
 * pinned path only looks it up; when no loader runs, the lookup fails with
 * ENOENT and nothing is created.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include "workload.h"

const char *argp_program_version = "idlescope-workloads 0.1";

struct wl_env wl_env = {
	.duration_s = WL_DEFAULT_DURATION_S,
	.seed = WL_DEFAULT_SEED,
	.cpu = -1,
};

const char *wl_prog = "workload";
volatile sig_atomic_t wl_exiting;
__u64 wl_end_ns;

static int tag_map_fd = -1;
static bool tag_set;

/* Common options ------------------------------------------------------- */

static const struct argp_option wl_opts[] = {
	{ "duration", 'd', "SECONDS", 0, "Run for SECONDS (default 10)", 0 },
	{ "seed", 's', "SEED", 0, "Seed of the pattern's PRNG (default 1)", 0 },
	{ "tag", 't', "NAME", 0,
	  "Tag the run NAME (1-15 characters) instead of the default", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Show this help", 0 },
	{},
};

static const struct argp_option wl_cpu_opts[] = {
	{ "cpu", 'c', "CPU", 0, "Pin to CPU (default: not pinned)", 0 },
	{},
};

static bool valid_tag(const char *name)
{
	size_t len = strlen(name);
	size_t i;

	if (len == 0 || len >= IDLESCOPE_WORKLOAD_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (name[i] <= ' ' || name[i] > '~')
			return false;
	return true;
}

static error_t wl_parse_arg(int key, char *arg, struct argp_state *state)
{
	unsigned long long seed;
	char *end;

	switch (key) {
	case 'd':
		wl_env.duration_s = parse_long_arg(arg, "duration", 1, 86400, state);
		break;
	case 's':
		errno = 0;
		seed = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-')
			argp_error(state, "seed must be an unsigned integer, not '%s'", arg);
		wl_env.seed = seed;
		break;
	case 't':
		if (!valid_tag(arg))
			argp_error(state,
				   "tag must be 1 to %d printable characters without spaces, not '%s'",
				   IDLESCOPE_WORKLOAD_LEN - 1, arg);
		strcpy(wl_env.tag, arg);
		wl_env.tag_given = true;
		break;
	case 'h':
		argp_state_help(state, stderr, ARGP_HELP_STD_HELP);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t wl_cpu_parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != 'c')
		return ARGP_ERR_UNKNOWN;
	wl_env.cpu = parse_long_arg(arg, "CPU", 0, CPU_SETSIZE - 1, state);
	return 0;
}

const struct argp wl_argp = {
	.options = wl_opts,
	.parser = wl_parse_arg,
};

const struct argp wl_cpu_argp = {
	.options = wl_cpu_opts,
	.parser = wl_cpu_parse_arg,
};

/* Tag ------------------------------------------------------------------ */

void wl_fmt_usec(char *buf, size_t size, long usec)
{
	if (usec > 0 && usec % 1000000 == 0)
		snprintf(buf, size, "%lds", usec / 1000000);
	else if (usec > 0 && usec % 1000 == 0)
		snprintf(buf, size, "%ldms", usec / 1000);
	else
		snprintf(buf, size, "%ldus", usec);
}

void wl_default_tag(const char *base, long usec)
{
	char param[32] = "";
	char name[64];

	if (wl_env.tag_given)
		return;
	if (usec >= 0)
		wl_fmt_usec(param, sizeof(param), usec);
	snprintf(name, sizeof(name), "%s%s", base, param);
	if (strlen(name) >= IDLESCOPE_WORKLOAD_LEN)
		snprintf(name, sizeof(name), "%s", base);
	snprintf(wl_env.tag, sizeof(wl_env.tag), "%s", name);
}

static long sys_bpf(enum bpf_cmd cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int tag_map_open(void)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)IDLESCOPE_TAG_PIN;
	fd = sys_bpf(BPF_OBJ_GET, &attr);
	return fd < 0 ? -errno : fd;
}

static int tag_map_write(const char *name)
{
	struct idlescope_tag tag;
	union bpf_attr attr;
	__u32 key = 0;

	memset(&tag, 0, sizeof(tag));
	strncpy(tag.name, name, sizeof(tag.name) - 1);
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = tag_map_fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)&tag;
	attr.flags = BPF_ANY;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) < 0 ? -errno : 0;
}

static void tag_start(void)
{
	int err;

	err = tag_map_open();
	if (err < 0) {
		fprintf(stderr, "%s: %s (%s: %s): periods are not tagged\n", wl_prog,
			err == -ENOENT ? "no idlescope loader running" :
					 "cannot open the workload tag map",
			IDLESCOPE_TAG_PIN, strerror(-err));
		return;
	}
	tag_map_fd = err;
	err = tag_map_write(wl_env.tag);
	if (err < 0) {
		fprintf(stderr, "%s: cannot write tag '%s' (%s): periods are not tagged\n",
			wl_prog, wl_env.tag, strerror(-err));
		return;
	}
	tag_set = true;
}

bool wl_tagged(void)
{
	return tag_set;
}

const char *wl_tag_note(void)
{
	return tag_set ? "" : " (not set)";
}

/* Run ------------------------------------------------------------------ */

static void sig_handler(int sig)
{
	(void)sig;
	wl_exiting = 1;
}

__u64 wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void wl_prepare(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;	/* no SA_RESTART: sleeps return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/*
	 * The default 50 us timer slack lets the kernel move a wake-up that far
	 * to batch it with others; patterns ask for exact deadlines.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

int wl_start(void)
{
	int err;

	wl_prepare();
	if (wl_env.cpu >= 0) {
		err = wl_pin_cpu(wl_env.cpu);
		if (err)
			return err;
	}
	tag_start();
	wl_end_ns = wl_now_ns() + wl_env.duration_s * NSEC_PER_SEC;
	return 0;
}

void wl_stop(void)
{
	int err;

	if (tag_map_fd < 0)
		return;
	if (tag_set) {
		err = tag_map_write("");
		if (err < 0)
			fprintf(stderr, "%s: cannot clear tag '%s' (%s)\n", wl_prog,
				wl_env.tag, strerror(-err));
	}
	close(tag_map_fd);
	tag_map_fd = -1;
}

int wl_sleep_until(__u64 deadline_ns)
{
	struct timespec ts = {
		.tv_sec = deadline_ns / NSEC_PER_SEC,
		.tv_nsec = deadline_ns % NSEC_PER_SEC,
	};
	int err;

	for (;;) {
		if (wl_exiting)
			return -EINTR;
		/* clock_nanosleep returns the error instead of setting errno */
		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (!err)
			return 0;
		if (err != EINTR)
			return -err;
	}
}

__u64 wl_next_period(__u64 *deadline_ns, __u64 period_ns, __u64 now_ns)
{
	__u64 skipped = 0;

	*deadline_ns += period_ns;
	if (*deadline_ns <= now_ns) {
		skipped = (now_ns - *deadline_ns) / period_ns + 1;
		*deadline_ns += skipped * period_ns;
	}
	return skipped;
}

bool wl_next_gap(__u64 *deadline_ns, __u64 gap_ns, __u64 now_ns)
{
	if (*deadline_ns + gap_ns <= now_ns) {
		*deadline_ns = now_ns + gap_ns;
		return true;
	}
	*deadline_ns += gap_ns;
	return false;
}

int wl_run_timer(wl_next_deadline_fn next, void *ctx, struct wl_timer_run *run)
{
	__u64 deadline_ns = wl_now_ns();
	int err;

	for (;;) {
		deadline_ns = next(run, ctx, deadline_ns, wl_now_ns());
		if (deadline_ns > wl_end_ns)
			return 0;
		err = wl_sleep_until(deadline_ns);
		if (err == -EINTR)
			return 0;
		if (err) {
			fprintf(stderr, "%s: clock_nanosleep: %s\n", wl_prog, strerror(-err));
			return err;
		}
		/* an absolute sleep never returns early: lateness is >= 0 */
		duration_stats_add(&run->lateness, wl_now_ns() - deadline_ns);
		run->wakeups++;
	}
}

void wl_timer_fmt(struct wl_timer_run *run, char *buf, size_t size)
{
	char lateness[128];
	int len;

	duration_stats_fmt(&run->lateness, lateness, sizeof(lateness));
	len = snprintf(buf, size, "%llu wakeups, lateness %s",
		       (unsigned long long)run->wakeups, lateness);
	if (run->overruns && len > 0 && (size_t)len < size)
		snprintf(buf + len, size - len, ", %llu overruns",
			 (unsigned long long)run->overruns);
}

/* CPUs ----------------------------------------------------------------- */

int wl_usable_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

int wl_pin_cpu(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		err = -errno;
		fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", wl_prog, cpu,
			strerror(-err));
		return err;
	}
	return 0;
}

int wl_run_pattern(wl_next_deadline_fn next, void *ctx, char *summary, size_t size)
{
	struct wl_timer_run run = {};
	int err;

	err = wl_start();
	if (!err)
		err = wl_run_timer(next, ctx, &run);
	wl_stop();
	if (!err)
		wl_timer_fmt(&run, summary, size);
	duration_stats_free(&run.lateness);
	return err;
}
