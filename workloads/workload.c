// SPDX-License-Identifier: GPL-2.0
/*
 * The shared part of the idlescope workloads: main(), the skeleton every
 * program runs with its wl_pattern, the common options, the workload tag,
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
	.phase_us = -1,
};

volatile sig_atomic_t wl_exiting;
__u64 wl_end_ns;
struct rng wl_rng;
struct wl_timer_run wl_timer;

static const struct wl_pattern *const pattern = &wl_pattern;
static int tag_map_fd = -1;
static bool tag_set;

/* Common options ------------------------------------------------------- */

/*
 * The common options, in three parts: what a program does not take (-s and
 * -t without a tag, -c without pinning) is not in its --help either.
 */
static const struct argp_option run_opts[] = {	/* every program */
	{ "duration", 'd', "SECONDS", 0, "Run for SECONDS (default 10)", 0 },
};

static const struct argp_option tag_opts[] = {	/* all but irqfeed */
	{ "seed", 's', "SEED", 0, "Seed of the pattern's PRNG (default 1)", 0 },
	{ "tag", 't', "NAME", 0,
	  "Tag the run NAME (1-15 characters) instead of the default", 0 },
};

static const struct argp_option cpu_opts[] = {	/* pinnable patterns */
	{ "cpu", 'c', "CPU", 0, "Pin to CPU (default: not pinned)", 0 },
};

static const struct argp_option grid_opts[] = {	/* grid patterns */
	{ "phase", 'P', "USEC", 0,
	  "Put the grid USEC microseconds after whole periods of CLOCK_MONOTONIC "
	  "(default: drawn from the seed)", 0 },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_COMMON_OPTS	(ARRAY_SIZE(run_opts) + ARRAY_SIZE(tag_opts) + ARRAY_SIZE(cpu_opts) + \
			 ARRAY_SIZE(grid_opts))

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

static error_t common_parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'd':
		wl_env.duration_s = parse_long_arg(arg, "duration", 1, 86400, state);
		break;
	case 's':
		wl_env.seed = parse_seed_arg(arg, state);
		break;
	case 't':
		if (!valid_tag(arg))
			args_error(state,
				   "tag must be 1 to %d printable characters without spaces, not '%s'",
				   IDLESCOPE_WORKLOAD_LEN - 1, arg);
		strcpy(wl_env.tag, arg);
		wl_env.tag_given = true;
		break;
	case 'c':
		wl_env.cpu = parse_long_arg(arg, "CPU", 0, CPU_SETSIZE - 1, state);
		break;
	case 'P':
		wl_env.phase_us = parse_long_arg(arg, "phase", 0, WL_MAX_USEC, state);
		break;
	case ARGP_KEY_END:
		if (pattern->grid_period_us && wl_env.phase_us >= *pattern->grid_period_us)
			args_error(state, "phase (%ld us) must be below the period (%ld us)",
				   wl_env.phase_us, *pattern->grid_period_us);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t pattern_parse_arg(int key, char *arg, struct argp_state *state)
{
	if (arg_value_parse(pattern->values, key, arg, state))
		return 0;
	if (key == ARGP_KEY_END && pattern->check)
		pattern->check(state);
	return ARGP_ERR_UNKNOWN;
}

static size_t add_opts(struct argp_option *to, size_t n, const struct argp_option *from,
		       size_t nr_from)
{
	memcpy(to + n, from, nr_from * sizeof(*from));
	return n + nr_from;
}

/* The pattern's options, then the common ones that apply to it. */
static void parse_args(int argc, char **argv)
{
	struct argp_option pattern_opts[ARG_VALUES_MAX + 1];
	struct argp_option common_opts[MAX_COMMON_OPTS + 1] = {};
	struct argp common_argp = { .options = common_opts, .parser = common_parse_arg };
	struct argp_child children[] = {
		{ &common_argp, 0, "Common options:", 1 },
		{},
	};
	struct argp argp = {
		.options = pattern_opts,
		.parser = pattern_parse_arg,
		.doc = pattern->doc,
		.children = children,
	};
	size_t n = 0;

	arg_value_options(pattern->values, pattern_opts);
	n = add_opts(common_opts, n, run_opts, ARRAY_SIZE(run_opts));
	if (!pattern->untagged)
		n = add_opts(common_opts, n, tag_opts, ARRAY_SIZE(tag_opts));
	if (pattern->pinnable)
		n = add_opts(common_opts, n, cpu_opts, ARRAY_SIZE(cpu_opts));
	if (pattern->grid_period_us)
		n = add_opts(common_opts, n, grid_opts, ARRAY_SIZE(grid_opts));
	args_parse(&argp, argc, argv);
}

/* Tag ------------------------------------------------------------------ */

static void fmt_usec(char *buf, size_t size, long usec)
{
	if (usec > 0 && usec % 1000000 == 0)
		snprintf(buf, size, "%lds", usec / 1000000);
	else if (usec > 0 && usec % 1000 == 0)
		snprintf(buf, size, "%ldms", usec / 1000);
	else
		snprintf(buf, size, "%ldus", usec);
}

/*
 * The pattern's name followed by the compact form of its parameter, unless
 * -t was given.  A name that would not fit IDLESCOPE_WORKLOAD_LEN - 1
 * characters falls back to the pattern's name alone.
 */
static void default_tag(void)
{
	char param[32] = "";
	char name[64];

	if (wl_env.tag_given)
		return;
	if (pattern->tag_param_us && *pattern->tag_param_us > 0)
		fmt_usec(param, sizeof(param), *pattern->tag_param_us);
	snprintf(name, sizeof(name), "%s%s", pattern->name, param);
	if (strlen(name) >= IDLESCOPE_WORKLOAD_LEN)
		snprintf(name, sizeof(name), "%s", pattern->name);
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
		fprintf(stderr, "%s: %s (%s: %s): periods are not tagged\n", pattern->name,
			err == -ENOENT ? "no idlescope loader running" :
					 "cannot open the workload tag map",
			IDLESCOPE_TAG_PIN, strerror(-err));
		return;
	}
	tag_map_fd = err;
	err = tag_map_write(wl_env.tag);
	if (err < 0) {
		fprintf(stderr, "%s: cannot write tag '%s' (%s): periods are not tagged\n",
			pattern->name, wl_env.tag, strerror(-err));
		return;
	}
	tag_set = true;
}

/* Clear the tag (all-zero name) and close the map. */
static void tag_stop(void)
{
	int err;

	if (tag_map_fd < 0)
		return;
	if (tag_set) {
		err = tag_map_write("");
		if (err < 0)
			fprintf(stderr, "%s: cannot clear tag '%s' (%s)\n", pattern->name,
				wl_env.tag, strerror(-err));
	}
	close(tag_map_fd);
	tag_map_fd = -1;
}

void wl_summary(const char *fmt, ...)
{
	va_list args;

	printf("%s: ", pattern->name);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	if (!pattern->untagged)
		printf(", tag %s%s", wl_env.tag, tag_set ? "" : " (not set)");
	putchar('\n');
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

/*
 * Before anything may wait: SIGINT/SIGTERM handlers without SA_RESTART
 * (blocking calls return EINTR and loops see wl_exiting) and a timer slack
 * of 1 ns (exact deadlines).
 */
static void prepare(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/*
	 * The default 50 us timer slack lets the kernel move a wake-up that far
	 * to batch it with others; patterns ask for exact deadlines.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

bool wl_spin_us(long usec)
{
	__u64 end_ns = wl_now_ns() + usec * NSEC_PER_USEC;

	while (wl_now_ns() < end_ns)
		if (wl_exiting)
			return false;
	return true;
}

/* -c pinning, the tag, and wl_end_ns.  Returns 0 or -errno (reported). */
static int start(void)
{
	int err;

	if (wl_env.cpu >= 0) {
		err = wl_pin_cpu(wl_env.cpu);
		if (err)
			return err;
	}
	if (!pattern->untagged)
		tag_start();
	wl_end_ns = wl_now_ns() + wl_env.duration_s * NSEC_PER_SEC;
	return 0;
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
		if (err != EINTR) {
			fprintf(stderr, "%s: clock_nanosleep: %s\n", pattern->name,
				strerror(err));
			return -err;
		}
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

/*
 * The last point of a grid pattern's grid at or before now_ns, whence its
 * first deadline is one period on: the first grid point ahead.
 */
static __u64 grid_start(__u64 now_ns)
{
	__u64 period_ns = *pattern->grid_period_us * NSEC_PER_USEC;
	__u64 phase_ns = wl_env.phase_us * NSEC_PER_USEC;

	return now_ns - (now_ns + period_ns - phase_ns) % period_ns;
}

/*
 * The loop every timer pattern shares: next deadline, sleep until it, the
 * pattern's action, record the lateness; until the next deadline falls
 * after the end of the run or a signal arrives.  Returns 0 or -errno.
 */
static int run_timer(void)
{
	__u64 deadline_ns = wl_now_ns(), woken_ns;
	int err;

	if (pattern->grid_period_us)
		deadline_ns = grid_start(deadline_ns);

	for (;;) {
		deadline_ns = pattern->next_deadline(deadline_ns, wl_now_ns());
		if (deadline_ns > wl_end_ns)
			return 0;
		err = wl_sleep_until(deadline_ns);
		woken_ns = wl_now_ns();
		if (!err && pattern->wakeup)
			err = pattern->wakeup();
		if (err == -EINTR)
			return 0;
		if (err < 0)
			return err;
		if (err > 0)
			continue;
		/* an absolute sleep never returns early: lateness is >= 0 */
		duration_stats_add(&wl_timer.lateness, woken_ns - deadline_ns);
		wl_timer.wakeups++;
	}
}

const char *wl_timer_summary(void)
{
	static char buf[256];
	char lateness[128];
	char phase[32] = "";
	int len;

	if (pattern->grid_period_us)
		snprintf(phase, sizeof(phase), "phase %ld us, ", wl_env.phase_us);
	duration_stats_fmt(&wl_timer.lateness, lateness, sizeof(lateness));
	len = snprintf(buf, sizeof(buf), "%s%llu wakeups, lateness %s", phase,
		       (unsigned long long)wl_timer.wakeups, lateness);
	if (wl_timer.overruns && len > 0 && (size_t)len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, ", %llu overruns",
			 (unsigned long long)wl_timer.overruns);
	return buf;
}

int main(int argc, char **argv)
{
	int err;

	parse_args(argc, argv);		/* exits 64 on a bad option, after one line */
	default_tag();
	rng_seed(&wl_rng, wl_env.seed);
	/* the seed's first draw, before the pattern's own */
	if (pattern->grid_period_us && wl_env.phase_us < 0)
		wl_env.phase_us = rng_range(&wl_rng, 0, *pattern->grid_period_us - 1);
	prepare();

	err = pattern->open ? pattern->open() : 0;
	if (err)
		goto cleanup;
	err = start();
	if (err)
		goto cleanup;
	err = pattern->next_deadline ? run_timer() : pattern->run();
	tag_stop();		/* the summary is not the pattern's */
	if (err)
		goto cleanup;
	err = pattern->summary();

cleanup:
	tag_stop();
	if (pattern->close)
		pattern->close();
	duration_stats_free(&wl_timer.lateness);
	return err ? 1 : 0;
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
		fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", pattern->name, cpu,
			strerror(-err));
		return err;
	}
	return 0;
}
