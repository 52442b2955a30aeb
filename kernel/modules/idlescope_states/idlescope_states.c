// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope_states - synthetic idle states for governor experiments
 *
 * Why synthetic states
 * --------------------
 * An idle governor picks a state by comparing its prediction of the coming
 * idle period with each state's target residency (how long the CPU must stay
 * idle for the state to pay off) and exit latency (how long waking up from
 * it takes).  A virtual machine without real C-states gives the governor
 * nothing to choose from: with a single state the menu governor never even
 * runs its selection.  To study the quality of a prediction in such a guest
 * the governor needs a table of states whose numbers look like real hardware.
 *
 * What they do
 * ------------
 * This driver registers the polling state as state 0 and, after it, a table
 * of states that all do the same thing: halt the CPU until the next interrupt
 * (HLT; on a virtual CPU the host deschedules it).  Only the declared numbers
 * differ.  By default they are those of the Skylake client table of
 * intel_idle (skl_cstates in drivers/idle/intel_idle.c), with the names
 * intel_idle gives them, so the governor faces the same decisions it faces
 * on such a machine.
 *
 * The governor cannot tell the difference: it sees the declared numbers and
 * the measured residency, which, as on hardware, runs from the entry to the
 * return of the state and so includes the time spent waking up.
 *
 * The states= parameter, read once at load, replaces the table, e.g.
 * states=C1:2:2,C6:85:200.  Each entry is
 * NAME:EXIT_LATENCY_US:TARGET_RESIDENCY_US; at most CPUIDLE_STATE_MAX - 1
 * entries; names 1 to CPUIDLE_NAME_LEN - 1 printable characters without
 * spaces, unique, not POLL; decimal numbers up to 1 s; exit latency at most
 * the target residency; down the list, exit latencies strictly increase
 * and target residencies do not decrease.  Anything else fails the load
 * with -EINVAL and one message naming the entry.
 *
 * What the exit latency is for
 * ----------------------------
 * A halt wakes up almost at once whatever state it pretends to be, so a
 * state that is too deep would cost nothing, and a governor that learns
 * from the measured residency (the 2010 menu's correction factor learns
 * measured minus exit latency) would learn from a wake-up no hardware
 * has.  So by default (exit_delay=1) a state that has halted spends its
 * declared exit latency after waking, before handing the CPU back:
 * whatever the wake-up was for (the woken task, the rest of the idle
 * loop) waits as long as it would on hardware, and the residency the
 * governor measures includes the exit, as on hardware.  The exit counts
 * the guest's own clock (the TSC, which QEMU's virtual clock drives), so
 * under the emulator's virtual clock it lasts the declared time in guest
 * time, whatever the host does.  exit_delay=0 leaves the exit free, for
 * comparison; exit_spread=1 spends a share of it drawn from a spread shape
 * (below), the declared latency its worst case, for make bench to show
 * how much the results depend on the exit being exactly the declared one.
 *
 * How the exit is spent
 * ---------------------
 * Under the virtual clock guest time is instructions: a busy-wait of T
 * costs the emulator T's worth of instructions, as much as any work, and
 * the deep states' exits were most of what a mostly idle guest executed.
 * But when every vCPU halts, the emulator moves guest time straight to
 * the next timer at no cost.  So the exit halts too: it arms a per-CPU
 * hrtimer for its deadline, halts until that timer's interrupt (handling
 * any other interrupt that comes first and halting again), and spins only
 * the rest on the TSC.  The timer is armed early by its slack, how late
 * the last timers brought the CPU back after their expiry, so that the
 * spun rest, not the timer's own path, meets the deadline: an exit ends
 * no earlier than declared, and later only when something else held the
 * CPU past it.  The whole exit spins, as the first version of this driver
 * did, when the wait is short (below IDLESCOPE_EXIT_HALT_MIN_NS, a chosen
 * floor, or twice the slack), without high resolution timers, or while
 * another online CPU is not halted in these states: QEMU's single
 * emulation thread can run that vCPU past this one's timer, and the exit
 * would end late.
 *
 * Where that differs from a busy-wait with interrupts disabled: an
 * interrupt that comes during a halting exit is handled during it, where
 * hardware (and a spinning exit) would take it only once the exit is
 * over; its handler's work then overlaps the exit instead of following
 * it, and a wake-up it makes waits for the exit all the same.  Neither
 * way can the interrupt that ended the first halt wait for the exit: HLT
 * cannot wake on an interrupt that is masked.  The exit's own timer is
 * one more interrupt inside the idle period, after the one that ended the
 * halt: an observer that takes the first handler inside the period for
 * its wake-up must stop looking at the next interrupt (idlescope's BPF
 * side does, bpf/wakeup.bpf.h).
 *
 * The exit runs with RCU watching and preemption disabled, halting or
 * not, so unloading can wait for it with synchronize_rcu(); its timer is
 * never left queued once it returns.
 *
 * idlescope_exit_wait() is a function of its own, never inlined, so that a
 * tracer can time the exit from its entry to its return (idlescope's BPF
 * side does, fentry and fexit): it runs after every halt, waiting or not.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/context_tracking.h>
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/math64.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched/idle.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/stringify.h>
#include <linux/timex.h>

#include <asm/tsc.h>

#include "idlescope_states_table.h"

/* Bounds the declared numbers, among them the exit that exit_delay spends. */
#define IDLESCOPE_MAX_US		1000000

static char *states = IDLESCOPE_STATES_DEFAULT;
module_param(states, charp, 0444);
MODULE_PARM_DESC(states,
		 "Halt states after POLL, NAME:EXIT_US:TARGET_US[,...] (default: intel_idle Skylake client table)");

static bool exit_delay = true;
module_param(exit_delay, bool, 0644);
MODULE_PARM_DESC(exit_delay,
		 "Spend a state's exit latency after waking from it (default: on)");

static bool exit_spread;
module_param(exit_spread, bool, 0644);
MODULE_PARM_DESC(exit_spread,
		 "With exit_delay, spend a share of the declared exit latency drawn from a spread shape, the declared one its worst case (default: off)");

/*
 * exit_spread's shape: the share of the declared exit latency an exit
 * spends, as quantiles of its distribution, in 1/1024ths, at the
 * cumulative probabilities 0, 1/8, ..., 8/8, linear between them.  Its
 * median is half the declared latency and its tail reaches all of it,
 * the way wult's exit latency histograms of real C-states look: the
 * declared number is a worst case.  A sensitivity knob (make bench), not
 * a measurement of any machine.
 */
static const u16 idlescope_spread_share[] = {
	256, 358, 410, 461, 512, 563, 640, 768, 1024,
};

/* One CPU's xorshift state: the draws repeat from one boot to the next. */
static DEFINE_PER_CPU(u32, idlescope_spread_state);

static u64 idlescope_spread(u64 exit_latency_ns)
{
	u32 *state = this_cpu_ptr(&idlescope_spread_state);
	u32 x = *state ? *state : 2463534242U + smp_processor_id();
	u32 lo, frac;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	/* The top 3 bits pick the octile, the next 16 the place within it. */
	lo = x >> 29;
	frac = (x >> 13) & 0xffff;
	return div_u64(exit_latency_ns * ((u64)idlescope_spread_share[lo] * 65536 +
		       (u64)(idlescope_spread_share[lo + 1] - idlescope_spread_share[lo]) * frac),
		       1024 * 65536);
}

/*
 * No .owner: every registered cpuidle device holds a reference on its
 * driver's owner module, so with one this module could never be removed.
 * idlescope_exit() unregisters the devices before the code goes away.
 */
static struct cpuidle_driver idlescope_driver = {
	.name = KBUILD_MODNAME,
};

/*
 * An exit halts only when its wait is longer than this, a chosen floor:
 * a shorter spin saves the emulator little against the timer's own round
 * trip (arming it, its interrupt, the second halt), and the shallow
 * states keep the exact busy exit (docs/devices.md, "The exit spent
 * halted").
 */
#define IDLESCOPE_EXIT_HALT_MIN_NS	20000
/*
 * A CPU's first slack, and the most one exit can teach it: a timer later
 * than that was held up by something else (another vCPU holding the
 * emulation thread, other interrupts' work), which the next exit need not
 * meet.
 */
#define IDLESCOPE_EXIT_SLACK_NS		2000
#define IDLESCOPE_EXIT_SLACK_MAX_NS	20000

/**
 * struct idlescope_exit - one CPU's means to halt through an exit latency
 * @timer: ends the halt @slack_ns before the exit's deadline
 * @slack_ns: how long after its expiry the timer brings the CPU back, a
 *	running average (weight 1/8) over the halting exits
 */
struct idlescope_exit {
	struct hrtimer timer;
	u64 slack_ns;
};

static DEFINE_PER_CPU(struct idlescope_exit, idlescope_exits);

/* CPUs halted in idlescope_enter_halt(), for the wake-up or in the exit. */
static atomic_t idlescope_nr_halted = ATOMIC_INIT(0);

/* Nothing to do: idlescope_exit_halt() sees the timer dequeued. */
static enum hrtimer_restart idlescope_exit_timer(struct hrtimer *timer)
{
	return HRTIMER_NORESTART;
}

/**
 * idlescope_exit_halt() - halt through most of an exit
 * @ex: this CPU's exit timer and slack
 * @end: get_cycles() at the exit's deadline
 * @left_ns: the time from now to @end, more than twice the slack
 *
 * Halts until the timer armed @ex->slack_ns before @end has fired, or
 * until @end if the timer is late and another interrupt comes first; the
 * handlers of other interrupts run and the CPU halts again.  Then learns
 * the slack from how late the timer brought the CPU back.  Returns with
 * interrupts disabled, the timer dequeued, and @end maybe still ahead:
 * the caller spins the rest.
 */
static void idlescope_exit_halt(struct idlescope_exit *ex, u64 end, u64 left_ns)
{
	ktime_t expiry = ktime_add_ns(ktime_get(), left_ns - ex->slack_ns);
	u64 late_ns;

	hrtimer_start(&ex->timer, expiry, HRTIMER_MODE_ABS_PINNED_HARD);
	atomic_inc(&idlescope_nr_halted);
	/* Interrupts are off from each test to the halt: no wake-up is lost. */
	while (hrtimer_is_queued(&ex->timer) && (s64)(end - get_cycles()) > 0) {
		safe_halt();
		local_irq_disable();
	}
	atomic_dec(&idlescope_nr_halted);
	if (hrtimer_try_to_cancel(&ex->timer))
		return;

	late_ns = min_t(u64, ktime_to_ns(ktime_sub(ktime_get(), expiry)),
			IDLESCOPE_EXIT_SLACK_MAX_NS);
	ex->slack_ns = ex->slack_ns - ex->slack_ns / 8 + late_ns / 8;
}

/**
 * idlescope_exit_wait() - spend a state's exit latency, if exit_delay is on
 * @exit_latency_ns: the entered state's declared exit latency
 * @woke: get_cycles() as RCU watched again after the halt
 *
 * Returns when the latency has passed since @woke, at the calibrated TSC
 * rate, with interrupts disabled.  It halts through most of the wait (see
 * the top of this file for when), then spins the rest.  No cpu_relax() in
 * the spin: under QEMU's TCG a PAUSE ends the translated block and hands
 * the single emulation thread to the next vCPU, which on every iteration
 * would cost host time, not guest time.
 */
static noinline __noclone void idlescope_exit_wait(u64 exit_latency_ns, u64 woke)
{
	struct idlescope_exit *ex = this_cpu_ptr(&idlescope_exits);
	u64 end, left;

	if (!READ_ONCE(exit_delay) || !exit_latency_ns)
		return;
	if (READ_ONCE(exit_spread))
		exit_latency_ns = idlescope_spread(exit_latency_ns);
	end = woke + div_u64(exit_latency_ns * tsc_khz, NSEC_PER_MSEC);
	left = end - get_cycles();
	if ((s64)left > 0 && hrtimer_is_hres_active(&ex->timer) &&
	    atomic_read(&idlescope_nr_halted) >= num_online_cpus() - 1) {
		left = div_u64(left * NSEC_PER_MSEC, tsc_khz);
		if (left > max_t(u64, IDLESCOPE_EXIT_HALT_MIN_NS, 2 * ex->slack_ns))
			idlescope_exit_halt(ex, end, left);
	}
	while ((s64)(end - get_cycles()) > 0)
		barrier();
}

/*
 * Entered with interrupts disabled and, because the states carry
 * CPUIDLE_FLAG_RCU_IDLE, with RCU watching.  RCU is told that the CPU is
 * idle only around the first halt: before and after it, this code runs
 * with RCU watching and preemption disabled (the idle task's), a
 * read-side critical section even while the exit halts with interrupts
 * enabled, which is what lets unloading wait until no CPU is in here.
 * Returns with interrupts disabled; cpuidle_enter_state() enables them.
 */
static int idlescope_enter_halt(struct cpuidle_device *dev,
				struct cpuidle_driver *drv, int index)
{
	u64 woke;

	/*
	 * The idle loop sets TIF_POLLING_NRFLAG, telling wakers that setting
	 * TIF_NEED_RESCHED is enough.  A halted CPU needs the IPI: clear the
	 * flag, and do not halt if a wake-up came first.
	 */
	if (current_clr_polling_and_test())
		return index;

	atomic_inc(&idlescope_nr_halted);
	ct_idle_enter();
	raw_safe_halt();
	raw_local_irq_disable();
	ct_idle_exit();
	woke = get_cycles();
	atomic_dec(&idlescope_nr_halted);

	idlescope_exit_wait(drv->states[index].exit_latency_ns, woke);

	return index;
}

static __printf(3, 4) int __init
idlescope_bad_state(const char *entry, int entry_len, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("bad state '%.*s' in states=: %pV\n", entry_len, entry, &vaf);
	va_end(args);

	return -EINVAL;
}

/* Parse a decimal number of microseconds: NULL, or what is wrong with it. */
static const char * __init idlescope_parse_us(const char *field,
					      unsigned int *us)
{
	int ret = kstrtouint(field, 10, us);

	if (ret == -EINVAL)
		return "is not a number";
	if (ret || *us > IDLESCOPE_MAX_US)
		return "is above " __stringify(IDLESCOPE_MAX_US) " us";

	return NULL;
}

static bool __init idlescope_name_is_used(struct cpuidle_driver *drv,
					  const char *name)
{
	int i;

	for (i = 0; i < drv->state_count; i++)
		if (!strcmp(drv->states[i].name, name))
			return true;

	return false;
}

/*
 * Check one NAME:EXIT_US:TARGET_US entry, cut from states= at @entry, and
 * append it to @drv.  @text and @text_len locate the same entry, uncut, in
 * the parameter string for the error message.
 */
static int __init idlescope_add_state(struct cpuidle_driver *drv, char *entry,
				      const char *text, int text_len)
{
	unsigned int exit_latency_us, target_residency_us;
	char *name, *exit_field, *target_field;
	struct cpuidle_state *prev, *s;
	const char *c, *why;

	if (drv->state_count == CPUIDLE_STATE_MAX)
		return idlescope_bad_state(text, text_len,
					   "more than %d states",
					   CPUIDLE_STATE_MAX - 1);
	prev = &drv->states[drv->state_count - 1];
	s = &drv->states[drv->state_count];

	name = strsep(&entry, ":");
	exit_field = strsep(&entry, ":");
	target_field = strsep(&entry, ":");
	if (!target_field || entry)
		return idlescope_bad_state(text, text_len,
					   "expected NAME:EXIT_US:TARGET_US");

	if (!*name)
		return idlescope_bad_state(text, text_len, "name is empty");
	if (strlen(name) >= CPUIDLE_NAME_LEN)
		return idlescope_bad_state(text, text_len,
					   "name is longer than %d characters",
					   CPUIDLE_NAME_LEN - 1);
	for (c = name; *c; c++)
		if (!isgraph(*c))
			return idlescope_bad_state(text, text_len,
						   "name has a space or control character");
	if (idlescope_name_is_used(drv, name))
		return idlescope_bad_state(text, text_len,
					   "name is already used");

	why = idlescope_parse_us(exit_field, &exit_latency_us);
	if (why)
		return idlescope_bad_state(text, text_len, "exit latency %s",
					   why);
	why = idlescope_parse_us(target_field, &target_residency_us);
	if (why)
		return idlescope_bad_state(text, text_len,
					   "target residency %s", why);
	if (exit_latency_us > target_residency_us)
		return idlescope_bad_state(text, text_len,
					   "exit latency is above target residency");

	/*
	 * A deeper state takes longer to leave and as long or longer to pay
	 * off (intel_idle's tables repeat target residencies).  The first
	 * entry has nothing to be deeper than: POLL is not in the list.
	 */
	if (drv->state_count > 1) {
		if (exit_latency_us <= prev->exit_latency)
			return idlescope_bad_state(text, text_len,
						   "exit latency is not above %s's %u us",
						   prev->name, prev->exit_latency);
		if (target_residency_us < prev->target_residency)
			return idlescope_bad_state(text, text_len,
						   "target residency is below %s's %u us",
						   prev->name, prev->target_residency);
	}

	strscpy(s->name, name, sizeof(s->name));
	snprintf(s->desc, sizeof(s->desc), "HLT as %s", name);
	s->exit_latency = exit_latency_us;
	s->target_residency = target_residency_us;
	s->power_usage = -1;
	s->flags = CPUIDLE_FLAG_RCU_IDLE;
	s->enter = idlescope_enter_halt;
	drv->state_count++;

	return 0;
}

/* Fill @drv with POLL and the states= list; -EINVAL after one pr_err(). */
static int __init idlescope_build_table(struct cpuidle_driver *drv,
					const char *list)
{
	char *work, *rest, *entry;
	int ret = 0;

	cpuidle_poll_state_init(drv);
	drv->state_count = 1;

	work = kstrdup(list, GFP_KERNEL);
	if (!work)
		return -ENOMEM;

	rest = work;
	while ((entry = strsep(&rest, ","))) {
		ret = idlescope_add_state(drv, entry, list + (entry - work),
					  strlen(entry));
		if (ret)
			break;
	}

	kfree(work);
	return ret;
}

static int __init idlescope_init(void)
{
	struct cpuidle_driver *owner;
	int ret, cpu;

	ret = idlescope_build_table(&idlescope_driver, states);
	if (ret)
		return ret;

	owner = cpuidle_get_driver();
	if (owner) {
		pr_err("cpuidle driver slot taken by '%s'\n", owner->name);
		return -EBUSY;
	}

	for_each_possible_cpu(cpu) {
		struct idlescope_exit *ex = per_cpu_ptr(&idlescope_exits, cpu);

		hrtimer_init(&ex->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS_PINNED_HARD);
		ex->timer.function = idlescope_exit_timer;
		ex->slack_ns = IDLESCOPE_EXIT_SLACK_NS;
	}

	/*
	 * Only CPUs that exist get a device: cpuidle_register() fails on a
	 * possible CPU that is not present, having no sysfs directory yet.
	 */
	idlescope_driver.cpumask = (struct cpumask *)cpu_present_mask;
	ret = cpuidle_register(&idlescope_driver, NULL);
	if (ret) {
		pr_err("cannot register the cpuidle driver: %d\n", ret);
		return ret;
	}

	pr_info("registered %d states: POLL,%s; exit_delay %s, exit_spread %s\n",
		idlescope_driver.state_count, states, str_on_off(exit_delay),
		str_on_off(exit_spread));
	return 0;
}

static void __exit idlescope_exit(void)
{
	int cpu;

	cpuidle_unregister(&idlescope_driver);

	/*
	 * Unregistering set need_resched on every idle CPU, so none halts
	 * here again and the halted ones woke up: wait for those still
	 * spending an exit latency in this module's code.
	 */
	synchronize_rcu();

	/* An exit leaves its timer dequeued, and none is running any more. */
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&idlescope_exits, cpu)->timer);
}

module_init(idlescope_init);
module_exit(idlescope_exit);

MODULE_DESCRIPTION("Halt-based cpuidle states that declare the latencies of a real C-state table");
MODULE_LICENSE("GPL");
