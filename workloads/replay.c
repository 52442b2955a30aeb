// SPDX-License-Identifier: GPL-2.0
/*
 * replay - play a sleep trace back: the idle periods of a recorded run,
 * made again (docs/trace-format.md; `idlescope extract` writes the trace).
 *
 * A thread per CPU of the trace, pinned to it, alternates between running
 * and sleeping as the trace says, on one schedule: the trace's times from
 * a start put at the recording's phase against the tick (so a tick that
 * ended or split a sleep does so again).  A run spins until the next
 * sleep's start less half the CPU's shortest run (a recorded run spans the
 * kernel's path from the idle exit to the task and back into idle, which
 * the replay pays anyway; half of it comes after the spin).  Keeping to
 * the schedule, rather than to the runs' lengths, keeps the sleeps' lengths
 * whatever the replay's own instructions cost.  How a sleep ends is what a
 * governor sees, so each ends the way it did:
 *   timer	a CLOCK_MONOTONIC sleep to its end on the schedule;
 *   tick	the same, to the tick's expiry before that end;
 *   ipi,	another CPU's thread wakes it (a futex) at its recorded end:
 *   polled	the thread of the CPU that was running then, or, when none
 *		was, the one that went to sleep last before, just before it
 *		does (the sender idled while its IPI travelled);
 *   device	a timer too: no guest-time device source is used yet
 *		(with the virtual clock a host-timed one cannot end a sleep
 *		early in guest time, docs/clock.md), said in the summary;
 *   unknown	a timer.
 * A thread waiting for another CPU's wake-up waits without a timeout, as
 * a task blocked on a pipe does (a timeout would be a timer the governor
 * sees coming); a watchdog ends a wait that made no progress for
 * WATCHDOG_NS, counted.  A thread behind the schedule does not move it:
 * it runs on without spinning and without the timer sleeps already due,
 * and the runs that follow, which the recording spent waiting for other
 * work, give the time back (how far behind it fell is in the summary).
 *
 * The trace's CPU numbers are this machine's; the run ends with the trace
 * or at -d, whichever is first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "trace.h"
#include "workload.h"

/* How long before the first sleep the threads start, to be pinned by then. */
#define START_DELAY_NS		(50 * 1000000ULL)
#define WATCHDOG_NS		(200 * 1000000ULL)

static struct env {
	const char *path;
} env;

/* A wake-up one CPU's thread gives another's during one of its runs. */
struct duty {
	size_t run;			/* the giver's run (before its sleep @run) */
	__u64 offset_ns;		/* into that run */
	int target;			/* the CPU woken */
	__u32 seq;			/* the target's sleep index + 1 */
};

struct cpu_plan {
	int cpu;
	size_t nr;			/* sleeps */
	const struct trace_sleep **sleeps;
	size_t nr_duties;
	struct duty *duties;		/* by run, then offset */
	pthread_t tid;
	bool started;
	bool finished;			/* its thread is done */
	int err;
	__u32 waiting_for;		/* the seq its thread waits for, 0: none */
	__u64 path_ns;			/* shortest run: the kernel's own path */
	/* the summary's counts */
	__u64 timer_sleeps, woken, timeouts, devices, done;
	__u64 behind_ns;		/* the most it fell behind the schedule */
};

static struct trace trace;
static struct cpu_plan plans[TRACE_MAX_CPUS];
static __u32 woken_seq[TRACE_MAX_CPUS];		/* futex words */
static __u64 t0_ns, elapsed_ns;

static const char argp_doc[] =
"Play back a sleep trace of `idlescope extract`: per CPU of the trace, a\n"
"thread pinned to it runs and sleeps as recorded, each sleep ended as it\n"
"was (a timer, another CPU's wake-up; devices by a timer).\n"
"\n"
"Default tag: replay.\n"
"\n"
"EXAMPLES:\n"
"    idlescope extract run.rec -w pingpong -o pp.trace\n"
"    replay -f pp.trace -d 10    # the worst stretch of pingpong, again\n";

static const struct arg_value values[] = {
	ARG_STR('f', "file", "TRACE", "The trace to play (idlescope extract -o)",
		"trace path", &env.path, PATH_MAX - 1),
	{},
};

static __u64 sleep_end(const struct trace_sleep *s)
{
	return s->start_ns + s->length_ns;
}

static bool woken_by_cpu(const struct trace_sleep *s)
{
	return s->kind == TRACE_IPI || s->kind == TRACE_POLLED;
}

/* Run @j of @p: from the end of sleep j - 1 (the start: 0) to sleep j (or on). */
static void run_bounds(const struct cpu_plan *p, size_t j, __u64 *from, __u64 *to)
{
	*from = j ? sleep_end(p->sleeps[j - 1]) : 0;
	*to = j < p->nr ? p->sleeps[j]->start_ns : ~0ULL;
}

/* The run of @p around @t, or that ended last before it; false: none. */
static bool run_at(const struct cpu_plan *p, __u64 t, size_t *run, __u64 *offset, __u64 *ended)
{
	size_t lo = 0, hi = p->nr, mid;
	__u64 from, to;

	/* The first sleep starting after t: run lo is then the one around or before it. */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (p->sleeps[mid]->start_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	run_bounds(p, lo, &from, &to);
	if (from <= t) {
		*run = lo;
		*offset = t - from;
		*ended = ~0ULL;	/* running at t */
		return true;
	}
	if (!lo)
		return false;
	run_bounds(p, lo - 1, &from, &to);
	*run = lo - 1;
	*offset = to - from;
	*ended = to;
	return true;
}

static int add_duty(struct cpu_plan *p, const struct duty *d)
{
	struct duty *grown;

	if (!(p->nr_duties & (p->nr_duties + 1))) {
		grown = realloc(p->duties, 2 * (p->nr_duties + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		p->duties = grown;
	}
	p->duties[p->nr_duties++] = *d;
	return 0;
}

/* The giver of sleep @i of @c's wake-up: 1 when there is no other CPU. */
static int assign_waker(int c, size_t i)
{
	__u64 t = sleep_end(plans[c].sleeps[i]), offset, ended, best_ended = 0;
	struct duty best = { .target = c, .seq = i + 1 };
	int w, giver = -1;
	size_t run;

	for (w = 0; w < trace.nr_cpus; w++) {
		if (w == c || !run_at(&plans[w], t, &run, &offset, &ended))
			continue;
		if (ended == ~0ULL || giver < 0 || ended > best_ended) {
			giver = w;
			best.run = run;
			best.offset_ns = offset;
			best_ended = ended;
			if (ended == ~0ULL)
				break;
		}
	}
	return giver < 0 ? 1 : add_duty(&plans[giver], &best);
}

/* The shortest run between two sleeps of @p (0 with fewer than two). */
static __u64 shortest_run(const struct cpu_plan *p)
{
	__u64 from, to, shortest = ~0ULL;
	size_t j;

	for (j = 1; j < p->nr; j++) {
		run_bounds(p, j, &from, &to);
		if (to - from < shortest)
			shortest = to - from;
	}
	return shortest == ~0ULL ? 0 : shortest;
}

static int by_run(const void *a, const void *b)
{
	const struct duty *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return x->offset_ns < y->offset_ns ? -1 : x->offset_ns > y->offset_ns;
}

/* Each CPU's sleeps in order, and who wakes whom when. */
static int make_plans(void)
{
	size_t i, k;
	int c, err = 0;

	for (c = 0; c < trace.nr_cpus; c++) {
		plans[c].cpu = c;
		plans[c].sleeps = calloc(trace.nr + 1, sizeof(*plans[c].sleeps));
		if (!plans[c].sleeps)
			return -ENOMEM;
	}
	for (i = 0; i < trace.nr; i++) {
		c = trace.sleeps[i].cpu;
		plans[c].sleeps[plans[c].nr++] = &trace.sleeps[i];
	}
	for (c = 0; c < trace.nr_cpus && !err; c++)
		for (k = 0; k < plans[c].nr && !err; k++)
			if (woken_by_cpu(plans[c].sleeps[k]))
				err = assign_waker(c, k) < 0 ? -ENOMEM : 0;
	for (c = 0; c < trace.nr_cpus; c++) {
		if (plans[c].nr_duties)
			qsort(plans[c].duties, plans[c].nr_duties, sizeof(struct duty), by_run);
		plans[c].path_ns = shortest_run(&plans[c]);
	}
	return err;
}

static void check_args(struct argp_state *state)
{
	if (!env.path)
		args_error(state, "-f TRACE is needed");
}

static int open_trace(void)
{
	int cpus[TRACE_MAX_CPUS], nr_usable, err;
	char why[160];
	FILE *f;

	f = fopen(env.path, "r");
	if (!f) {
		err = -errno;
		fprintf(stderr, "replay: %s: %s\n", env.path, strerror(-err));
		return err;
	}
	err = trace_read(f, &trace, why, sizeof(why));
	fclose(f);
	if (err) {
		fprintf(stderr, "replay: %s: %s\n", env.path, why);
		return err;
	}
	nr_usable = wl_usable_cpus(cpus, TRACE_MAX_CPUS);
	if (nr_usable < trace.nr_cpus) {
		fprintf(stderr, "replay: %s: the trace has %d CPUs, %d are usable here\n",
			env.path, trace.nr_cpus, nr_usable);
		return -EINVAL;
	}
	err = make_plans();
	if (err)
		fprintf(stderr, "replay: %s\n", strerror(-err));
	return err;
}

static void give(const struct duty *d)
{
	__u32 old = __atomic_load_n(&woken_seq[d->target], __ATOMIC_RELAXED);

	while (old < d->seq &&
	       !__atomic_compare_exchange_n(&woken_seq[d->target], &old, d->seq, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	syscall(SYS_futex, &woken_seq[d->target], FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* CLOCK_MONOTONIC of the trace's time @t on the schedule. */
static __u64 sched_ns(__u64 t)
{
	return t0_ns + t;
}

/*
 * Behind the schedule at trace time @t at @now: only noted.  Moving the
 * schedule on (by whole ticks, to keep its phase against the tick, as the
 * replay did) left the other thread ahead by the rest of a tick: it spun
 * that away while this one waited for its wake-up, an idle period the
 * recording did not have; with the exit cost on, the long idle periods
 * made menu choose the deepest state, whose exit put the thread behind
 * again, and the replay stayed there.  Left behind, a thread catches up in
 * the runs the recording spent on other work, as pingpong's threads would.
 */
static void note_behind(struct cpu_plan *p, __u64 t, __u64 now)
{
	if (now > sched_ns(t) && now - sched_ns(t) > p->behind_ns)
		p->behind_ns = now - sched_ns(t);
}

/*
 * Run @j, from trace time @from to @to, having read the clock at @now:
 * spin until the schedule's @to less @early_ns, giving the run's wake-ups
 * at their times (at the end, those of a sender that slept when its
 * wake-up arrived).  A run already late reads the clock no more: the
 * hand-over from a wake-up to the next sleep is the replay's own cost,
 * which a recording of back-to-back wake-ups leaves no time for.
 */
static void run_for(struct cpu_plan *p, size_t j, __u64 from, __u64 to, __u64 early_ns,
		    size_t *next, __u64 now)
{
	for (;;) {
		while (*next < p->nr_duties && p->duties[*next].run == j &&
		       now >= sched_ns(from + p->duties[*next].offset_ns))
			give(&p->duties[(*next)++]);
		if (to == ~0ULL || now + early_ns >= sched_ns(to) || wl_exiting)
			break;
		now = wl_now_ns();
	}
	while (*next < p->nr_duties && p->duties[*next].run == j)
		give(&p->duties[(*next)++]);
}

/* Wait for another CPU's wake-up of sleep @i (or the watchdog's). */
static void wait_woken(struct cpu_plan *p, size_t i)
{
	__u32 seen;

	__atomic_store_n(&p->waiting_for, i + 1, __ATOMIC_RELEASE);
	while ((seen = __atomic_load_n(&woken_seq[p->cpu], __ATOMIC_ACQUIRE)) < i + 1 &&
	       !wl_exiting)
		syscall(SYS_futex, &woken_seq[p->cpu], FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
	__atomic_store_n(&p->waiting_for, 0, __ATOMIC_RELEASE);
}

/*
 * Every WATCHDOG_NS, end the wait of a thread still waiting for the same
 * wake-up as the time before: its giver never came (a replay is not the
 * recording).  Until every thread is done.
 */
static void watchdog(void)
{
	__u32 last[TRACE_MAX_CPUS] = {}, now;
	struct duty d;
	bool running = true;
	int c;

	while (running && !wl_exiting) {
		if (wl_sleep_until(wl_now_ns() + WATCHDOG_NS))
			break;
		running = false;
		for (c = 0; c < trace.nr_cpus; c++) {
			running |= !__atomic_load_n(&plans[c].finished, __ATOMIC_ACQUIRE);
			now = __atomic_load_n(&plans[c].waiting_for, __ATOMIC_ACQUIRE);
			if (now && now == last[c]) {
				d.target = c;
				d.seq = now;
				__atomic_fetch_add(&plans[c].timeouts, 1, __ATOMIC_RELAXED);
				give(&d);
			}
			last[c] = now;
		}
	}
	/* A signal: wake every waiter to see wl_exiting. */
	for (c = 0; c < trace.nr_cpus; c++) {
		d.target = c;
		d.seq = ~0U;
		if (wl_exiting)
			give(&d);
	}
}

static void sleep_one(struct cpu_plan *p, size_t i)
{
	const struct trace_sleep *s = p->sleeps[i];
	__u64 deadline;

	/* With one CPU in the trace, nobody else can wake it: a timer. */
	if (woken_by_cpu(s) && trace.nr_cpus > 1) {
		wait_woken(p, i);
		p->woken++;
		return;
	}
	p->timer_sleeps++;
	p->devices += s->kind == TRACE_DEVICE;
	deadline = sched_ns(sleep_end(s));
	/*
	 * The tick's wake-up comes a handler's path after its expiry, on the
	 * tick's grid (the schedule keeps the recording's phase): a timer at
	 * the trace's wake-up would expire after this kernel's own tick, which
	 * ends the idle period first with nothing to run, and then end a
	 * second, short one that the recording did not have.  Expiring with
	 * the tick, it ends the same one.
	 */
	if (s->kind == TRACE_TICK && trace.tick_ns)
		deadline -= deadline % trace.tick_ns;
	if (wl_now_ns() < deadline)
		wl_sleep_until(deadline);
}

static void *cpu_main(void *arg)
{
	struct cpu_plan *p = arg;
	__u64 from, to, now;
	size_t j, next = 0;

	p->err = wl_pin_cpu(p->cpu);
	for (j = 0; !p->err && !wl_exiting; j++) {
		now = wl_now_ns();
		if (now >= wl_end_ns)
			break;
		run_bounds(p, j, &from, &to);
		if (j < p->nr)
			note_behind(p, to, now);
		run_for(p, j, from, to, p->path_ns / 2, &next, now);
		if (j == p->nr)
			break;
		sleep_one(p, j);
		p->done++;
	}
	__atomic_store_n(&p->finished, true, __ATOMIC_RELEASE);
	return NULL;
}

/* A start in the future with the recording's phase against the tick. */
static __u64 start_time(void)
{
	__u64 t = wl_now_ns() + START_DELAY_NS, tick = trace.tick_ns;

	if (!tick)
		return t;
	return t - t % tick + trace.origin_ns % tick + tick;
}

static int run(void)
{
	sigset_t block, old;
	__u64 start_ns;
	int c, err = 0;

	t0_ns = start_time();
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (c = 0; c < trace.nr_cpus && !err; c++) {
		err = -pthread_create(&plans[c].tid, NULL, cpu_main, &plans[c]);
		plans[c].started = !err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		fprintf(stderr, "replay: pthread_create: %s\n", strerror(-err));
	start_ns = wl_now_ns();
	if (!err)
		watchdog();
	for (c = 0; c < trace.nr_cpus; c++) {
		if (!plans[c].started)
			continue;
		pthread_join(plans[c].tid, NULL);
		if (!err)
			err = plans[c].err;
	}
	elapsed_ns = wl_now_ns() - start_ns;
	return err;
}

static int summary(void)
{
	__u64 done = 0, timers = 0, woken = 0, timeouts = 0, devices = 0, behind = 0;
	int c;

	for (c = 0; c < trace.nr_cpus; c++) {
		done += plans[c].done;
		timers += plans[c].timer_sleeps;
		behind = plans[c].behind_ns > behind ? plans[c].behind_ns : behind;
		woken += plans[c].woken;
		timeouts += plans[c].timeouts;
		devices += plans[c].devices;
	}
	wl_summary("%s: %llu of %zu sleeps on %d CPUs in %.3f s; timers %llu (%llu devices), "
		   "woken by another CPU %llu (%llu by the watchdog); at most %.3f ms behind "
		   "the schedule",
		   env.path, (unsigned long long)done, trace.nr, trace.nr_cpus,
		   (double)elapsed_ns / NSEC_PER_SEC, (unsigned long long)timers,
		   (unsigned long long)devices,
		   (unsigned long long)woken, (unsigned long long)timeouts,
		   (double)behind / 1000000);
	return 0;
}

static void close_trace(void)
{
	int c;

	for (c = 0; c < TRACE_MAX_CPUS; c++) {
		free(plans[c].sleeps);
		free(plans[c].duties);
	}
	trace_free(&trace);
}

const struct wl_pattern wl_pattern = {
	.name = "replay",
	.doc = argp_doc,
	.values = values,
	.check = check_args,
	.open = open_trace,
	.run = run,
	.summary = summary,
	.close = close_trace,
};
