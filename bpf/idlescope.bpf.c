// SPDX-License-Identifier: GPL-2.0
/*
 * idlescope.bpf.c - watch cpuidle governors from the outside.
 *
 * An idle period on a CPU goes: the current governor's select picks a state
 * (and, for the menu family, predicts how long the CPU will sleep, leaving
 * the prediction and its inputs in its per-CPU data), cpu_idle fires with
 * the state index, the CPU sleeps, cpu_idle fires with PWR_EVENT_EXIT, and
 * cpu_idle_miss may fire when the state was too deep or too shallow for the
 * sleep that happened.
 *
 * So the cpu_idle entry reads what select just decided: which governor is
 * current, and from its per-CPU data the prediction and the inputs it used,
 * the residency its update learnt from and its count of selects (see
 * note_selects()); from the CPU's cpuidle device the rest of what the
 * governor learnt about the previous period (the poll time limit).  The exit
 * times the period and turns it into a record; cpu_idle_miss marks it.
 * Since the miss comes after the exit, a record is sent through the ring
 * buffer when the next period on that CPU begins.
 *
 * What ended each period comes from the interrupt handlers' tracepoints
 * that run inside it (wakeup.bpf.h); the exit hands it to the record.
 *
 * Two kinds of attach point: the tracepoints (tp_btf), on every kernel with
 * cpuidle, and the select probes (fexit on each governor's select and on
 * cpuidle_governor_latency_req(), which every select calls first), which
 * add what only select knows: the state it returned, stop_tick, the PM QoS
 * limit it used, the chosen state's parameters, the tick as it found it
 * (tick.bpf.h), and selects that entered no state.  With them goes a probe
 * on teo's reflect, whose time span no record could hold otherwise; they
 * are in select.bpf.h.  They ride on BPF trampolines, which a kernel may
 * lack: the loader then runs the tracepoints alone and says so.  Attaching them under
 * QEMU's multi-threaded TCG froze guests (stale translated code after
 * text_poke_bp(), docs/bpf.md), so in a CLOCK=host guest the loader leaves
 * them off.
 *
 * The governor data is read through weak ksyms with CO-RE guards, so a
 * kernel without the observation patch (or without the 2010 governors)
 * still loads this object: stock menu's prediction is then rebuilt by the
 * loader from the data select computed it from (read_menu_data()), other
 * predictions are marked unknown.  libbpf
 * resolves a missing weak ksym to the constant 0, and the verifier only
 * accepts bpf_this_cpu_ptr() of a real per-CPU variable: the `if (!&sym)`
 * test before it is what lets the verifier drop that call as dead code on
 * such a kernel (Debian's stock one has no menu2010_devices at all).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "idlescope.h"
#include "governors.bpf.h"
#include "wakeup.bpf.h"
#include "summary.bpf.h"
#include "cpu_state.bpf.h"
#include "select.bpf.h"

#define PWR_EVENT_EXIT	((unsigned int)-1)

/* Set by the loader before load: read the governors' predictions at all. */
const volatile bool observe_predictions = true;
/*
 * Send a record of each period through the ring buffers (off: a lean run,
 * summaries alone, summary.bpf.h).  A lean run also reads no more than the
 * summaries need: the state, the prediction, the residency and the tag.
 */
const volatile bool emit_records = true;
const volatile bool lean = false;
/* Checksum the records sent (counters.record_sum), for the tests. */
const volatile bool sum_records = false;
/*
 * The records are drained in batches, on the loader's own interval: waking
 * it per record would make every idle period end in another wake-up of the
 * loader's CPU, the observer creating the idle periods it observes.  The
 * tests may ask for a wake-up per record.
 */
const volatile bool wakeup_every_record = false;
/*
 * A light run drains when asked, between workloads (its loader's CPU work
 * on one CPU is time the other CPU's workload loses in the fixed clock,
 * docs/clock.md), and when a buffer holds this much: then the BPF side
 * wakes it, at most once every WAKEUP_CHECK_RECORDS records.  0: never.
 */
const volatile __u64 wakeup_at_bytes = 0;
#define WAKEUP_CHECK_RECORDS	64
/*
 * The records go either through one ring buffer per CPU (cpu_records, the
 * CPU's own buffer chosen at output time, so producers never share a
 * buffer's lock and head) or through the one shared buffer (records).
 * The loader creates the per-CPU buffers and picks the mode: per CPU by
 * default, since the shared buffer's lock and wake-ups slow the observed
 * workload (docs/bpf.md has the measurements).
 */
const volatile bool per_cpu_ringbufs = false;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, IDLESCOPE_RINGBUF_DEFAULT);	/* loader resizes */
} records SEC(".maps");

struct cpu_ringbuf {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, IDLESCOPE_RINGBUF_DEFAULT);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, IDLESCOPE_MAX_CPUS);
	__type(key, __u32);
	__array(values, struct cpu_ringbuf);
} cpu_records SEC(".maps");


/* How late user space's sleeps wake up, per CPU: the report sums the CPUs. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idlescope_lateness);
} lateness SEC(".maps");

/* The current workload tag, pinned by the loader, written by workloads. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idlescope_tag);
} workload SEC(".maps");


/*
 * cpuidle_enter_state() points idle_state at the state it enters; default
 * idle does not.  nr_switches counts context switches: unchanged from one
 * idle exit to the next entry, no task ran in between.
 */
struct rq___idlescope {
	struct cpuidle_state *idle_state;
	u64 nr_switches;
} __attribute__((preserve_access_index));

extern struct cpuidle_device *cpuidle_devices __ksym;
extern const struct rq___idlescope runqueues __ksym;

/* The expiry function of every sleeping task's hrtimer (nanosleep, poll, ...). */
extern const void hrtimer_wakeup __ksym __weak;


/*
 * The select probes' view of the select that chose this period: its return
 * value, the PM QoS limit, the chosen state's parameters and stop_tick.
 * Their count of selects since the last entry stands where the governor
 * keeps none (a kernel without the observation patch): where it does,
 * note_selects() overrides it with the governor's own.
 */
static __always_inline void take_selection(struct cpu_state *cs,
					   struct idlescope_record *rec)
{
	struct selection *sel = &cs->sel;

	if (!sel->nr_selects)
		return;
	rec->chosen_state = sel->chosen_state;
	rec->latency_req_ns = sel->latency_req_ns;
	rec->exit_latency_ns = sel->exit_latency_ns;
	rec->target_residency_ns = sel->target_residency_ns;
	rec->delta_tick_ns = sel->delta_tick_ns;
	rec->flags |= sel->flags;
	rec->lost_selects = sel->nr_selects - 1;
	/*
	 * A select that entered no state zeroed dev->last_residency_ns after
	 * its update had learnt from it: the previous period keeps what that
	 * update read (note_selects() does so from the observation patch, a
	 * stock kernel has only this).
	 */
	if (sel->nr_selects > 1 && cs->has_pending &&
	    (pending_rec(cs)->flags & IDLESCOPE_F_REFLECTED))
		pending_rec(cs)->kernel_residency_ns = sel->update_residency_ns;
}

/*
 * The head of struct cpuidle_device that the idle entry reads: its bit
 * fields up to last_residency_ns (32 bytes on 6.1; the verifier refuses
 * the object on a kernel where last_residency_ns lies beyond).
 */
#define DEV_HEAD_BYTES	32

/* What the idle entry needs of the CPU's cpuidle device. */
struct dev_view {
	__u64 last_residency_ns;
	bool poll_time_limit;
};

/*
 * The device as the governor left it, and whether it is enabled; from the
 * select probe when one ran before this entry, else read here.
 */
static __always_inline bool read_device(const struct cpu_state *cs, struct dev_view *dv)
{
	struct cpuidle_device **devp;
	struct cpuidle_device *dev;
	/*
	 * dev is a plain number to the verifier (it was read from a per-CPU
	 * pointer, not given by BTF): its fields take a probe read, so one
	 * read brings the head of the device, bit fields to
	 * last_residency_ns, and the fields are taken from that copy.
	 */
	__u64 head[DEV_HEAD_BYTES / sizeof(__u64)];
	const struct cpuidle_device *h = (const void *)head;

	/* A select ran: the device is enabled and as the probe saw it. */
	if (cs->sel.nr_selects) {
		dv->last_residency_ns = cs->sel.last_residency_ns;
		dv->poll_time_limit = cs->sel.poll_time_limit;
		return true;
	}
	devp = bpf_this_cpu_ptr(&cpuidle_devices);
	dev = devp ? *devp : NULL;
	if (!dev || bpf_probe_read_kernel(head, sizeof(head), dev) ||
	    !BPF_CORE_READ_BITFIELD(h, enabled))
		return false;
	dv->last_residency_ns = h->last_residency_ns;
	dv->poll_time_limit = BPF_CORE_READ_BITFIELD(h, poll_time_limit);
	return true;
}

/*
 * What select decided for the period beginning now.  The cpuidle device
 * still describes the previous period, whose record is pending: what the
 * governor just learnt from (dev->last_residency_ns, dev->poll_time_limit)
 * belongs to that record.
 */
static __always_inline void read_selection(struct cpu_state *cs, unsigned int state)
{
	struct idlescope_record *rec = current_rec(cs);
	struct idlescope_record *pending = pending_rec(cs);
	const struct rq___idlescope *rq = bpf_this_cpu_ptr(&runqueues);
	struct dev_view dv;
	struct gov_read g;

	__builtin_memset(rec, 0, sizeof(*rec));
	rec->predicted_ns = IDLESCOPE_UNKNOWN_NS;
	rec->tick_adjusted_ns = IDLESCOPE_UNKNOWN_NS;
	rec->latency_req_ns = IDLESCOPE_LATENCY_REQ_UNKNOWN;
	rec->state = state;
	rec->chosen_state = -1;
	/*
	 * No governor chose this period when there is no enabled cpuidle
	 * device, or when idle went through default_idle_call() (as it does
	 * while a governor switch has cpuidle paused): only
	 * cpuidle_enter_state() sets the runqueue's idle state.
	 */
	if (!rq || !rq->idle_state || !read_device(cs, &dv))
		return;
	/* Only a period a governor chose is reflected back to it. */
	if (cs->has_pending && (pending->flags & IDLESCOPE_F_SELECTED)) {
		pending->kernel_residency_ns = dv.last_residency_ns;
		pending->flags |= IDLESCOPE_F_REFLECTED;
		if (dv.poll_time_limit)
			pending->flags |= IDLESCOPE_F_POLL_LIMIT;
	}

	rec->governor = cs->sel.nr_selects ? cs->sel.governor : current_governor();
	if (rec->governor == IDLESCOPE_GOV_NONE)
		return;
	rec->flags = IDLESCOPE_F_SELECTED;
	rec->chosen_state = state;
	take_selection(cs, rec);
	g.rec = rec;
	g.prev = cs->has_pending ? pending_rec(cs) : NULL;
	g.nr_selects = &cs->nr_selects;
	g.probed_selects = cs->sel.nr_selects;
	g.observe_predictions = observe_predictions;
	g.teo_reflect_read = cs->teo_reflect_read;
	switch (rec->governor) {
	case IDLESCOPE_GOV_MENU:
	case IDLESCOPE_GOV_MENU615:
		read_menu(&g);
		break;
	case IDLESCOPE_GOV_MENU2010:
	case IDLESCOPE_GOV_MENU2010FIX:
	case IDLESCOPE_GOV_MENU2010RPD:
	case IDLESCOPE_GOV_MENU2010MF2:
		read_menu2010(&g);
		break;
	case IDLESCOPE_GOV_TEO:
		read_teo(&g);
		break;
	case IDLESCOPE_GOV_TEO70:
		read_teo70(&g);
		break;
	}
	/*
	 * The observation patch stores U64_MAX, which is IDLESCOPE_UNKNOWN_NS,
	 * when select returned before predicting; 0 is a prediction of 0 ns.
	 */
	if ((rec->flags & IDLESCOPE_F_PREDICTED) &&
	    rec->predicted_ns == IDLESCOPE_UNKNOWN_NS)
		rec->flags &= ~IDLESCOPE_F_PREDICTED;
}

/*
 * A lean run's entry: the state entered and the prediction of the governor
 * that chose it, nothing else read or cleared; what the summaries need.
 */
static __always_inline void read_lean(struct cpu_state *cs, unsigned int state)
{
	const struct rq___idlescope *rq = bpf_this_cpu_ptr(&runqueues);
	struct idlescope_record *rec = current_rec(cs);

	rec->state = state;
	rec->flags = 0;
	rec->governor = IDLESCOPE_GOV_NONE;
	/* As read_selection(): default idle had no governor choose it. */
	if (!rq || !rq->idle_state)
		return;
	rec->governor = current_governor();
	if (observe_predictions && read_prediction(rec->governor, &rec->predicted_ns) &&
	    rec->predicted_ns != IDLESCOPE_UNKNOWN_NS)
		rec->flags = IDLESCOPE_F_SELECTED | IDLESCOPE_F_PREDICTED;
}

/*
 * Write one record into @ringbuf: reserved there and copied in by words,
 * which the JIT makes plain moves, where bpf_ringbuf_output()'s memcpy is
 * the kernel's (a string move, that TCG emulates a byte at a time).
 * 0, or -1 when the buffer is full.
 */
static __always_inline long output(void *ringbuf, const struct idlescope_record *rec)
{
	const __u64 *src = (const __u64 *)rec;
	__u64 flags = BPF_RB_NO_WAKEUP;
	__u64 *dst;
	__u32 i;

	dst = bpf_ringbuf_reserve(ringbuf, sizeof(*rec), 0);
	if (!dst)
		return -1;
#pragma unroll
	for (i = 0; i < sizeof(*rec) / sizeof(__u64); i++)
		dst[i] = src[i];
	if (wakeup_every_record)
		flags = 0;
	else if (wakeup_at_bytes && rec->seq % WAKEUP_CHECK_RECORDS == 0 &&
		 bpf_ringbuf_query(ringbuf, BPF_RB_AVAIL_DATA) >= wakeup_at_bytes)
		flags = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(dst, flags);
	return 0;
}

/* Send the completed period of this CPU, if any, to user space. */
static __always_inline void flush_pending(struct cpu_state *cs,
					  struct idlescope_counters *cnt, __u32 cpu)
{
	void *ringbuf;
	long err = -1;		/* no buffer for this CPU: a drop */

	if (!cs->has_pending)
		return;
	cs->has_pending = false;
	if (keep_summary)
		summarize(&cs->summary, pending_rec(cs));
	if (!emit_records)
		return;
	if (per_cpu_ringbufs) {
		ringbuf = bpf_map_lookup_elem(&cpu_records, &cpu);
		if (ringbuf)
			err = output(ringbuf, pending_rec(cs));
	} else {
		err = output(&records, pending_rec(cs));
	}
	if (err) {
		cnt->dropped++;
		return;
	}
	cnt->records++;
	if (sum_records)
		cnt->record_sum += idlescope_record_sum(pending_rec(cs));
}

/* CPUIDLE_FLAG_POLLING of linux/cpuidle.h, a #define absent from BTF. */
#define IDLESCOPE_CPUIDLE_FLAG_POLLING	(1U << 0)

/* Whether the state being entered polls (cpuidle_enter_state() set it). */
static __always_inline bool entered_state_polls(void)
{
	const struct rq___idlescope *rq = bpf_this_cpu_ptr(&runqueues);

	return rq && rq->idle_state &&
	       (rq->idle_state->flags & IDLESCOPE_CPUIDLE_FLAG_POLLING);
}

/* This CPU's context switches so far. */
static __always_inline __u64 nr_switches(void)
{
	const struct rq___idlescope *rq = bpf_this_cpu_ptr(&runqueues);

	return rq ? rq->nr_switches : 0;
}

static __always_inline void idle_enter(struct cpu_state *cs,
				       struct idlescope_counters *cnt,
				       unsigned int state, unsigned int cpu)
{
	cnt->entries++;
	if (lean) {
		read_lean(cs, state);
	} else {
		read_selection(cs, state);
		/* Straight back from the last period: the idle loop ran nothing else. */
		if (cs->has_pending && nr_switches() == cs->switches_at_exit)
			current_rec(cs)->flags |= IDLESCOPE_F_IDLE_CONTINUED;
		/* A select belongs to the entry that follows it, or to none. */
		cs->sel.nr_selects = 0;
		/* So does the reflect of the period before it. */
		cs->teo_reflect_read = false;
	}
	flush_pending(cs, cnt, cpu);
	current_rec(cs)->cpu = cpu;
	current_rec(cs)->enter_ns = bpf_ktime_get_ns();
	cs->in_idle = true;
	if (!lean)
		wake_begin(entered_state_polls());
}

static __always_inline void idle_exit(struct cpu_state *cs,
				      struct idlescope_counters *cnt)
{
	struct idlescope_record *rec = current_rec(cs);
	struct idlescope_tag *tag;
	__u32 zero = 0, i;
	__u64 now_ns;

	cnt->exits++;
	if (!cs->in_idle) {
		/* An exit without its entry: we attached mid-period. */
		cnt->unpaired++;
		return;
	}
	cs->in_idle = false;

	now_ns = bpf_ktime_get_ns();
	rec->residency_ns = now_ns - rec->enter_ns;
	if (!lean)
		wake_end(rec, now_ns);
	rec->seq = cs->seq++;
	tag = bpf_map_lookup_elem(&workload, &zero);
	/* Both are 4-byte aligned: word copies, not the byte ones of memcpy. */
	if (tag) {
		__u32 *dst = (__u32 *)rec->workload;
		const __u32 *src = (const __u32 *)tag->name;

#pragma unroll
		for (i = 0; i < sizeof(rec->workload) / sizeof(__u32); i++)
			dst[i] = src[i];
	}
	cs->cur ^= 1;
	cs->has_pending = true;
	if (!lean)
		cs->switches_at_exit = nr_switches();
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(cpu_idle, unsigned int state, unsigned int cpu)
{
	struct cpu_state *cs = this_cpu_state();
	struct idlescope_counters *cnt = this_cpu_counters();

	if (!cs || !cnt)
		return 0;
	if (state == PWR_EVENT_EXIT)
		idle_exit(cs, cnt);
	else
		idle_enter(cs, cnt, state, cpu);
	return 0;
}

SEC("tp_btf/cpu_idle_miss")
int BPF_PROG(cpu_idle_miss, unsigned int cpu, unsigned int state, bool below)
{
	struct cpu_state *cs = this_cpu_state();

	if (!cs || !cs->has_pending)
		return 0;
	pending_rec(cs)->flags |= below ? IDLESCOPE_F_MISS_BELOW : IDLESCOPE_F_MISS_ABOVE;
	return 0;
}

/*
 * Every expired hrtimer may be what ended an idle period (wakeup.bpf.h).
 * Timer lateness: how long after its (soft) expiry time a sleeping task's
 * hrtimer fires.  In the host clock mode the guest's idle ends when the
 * host's threads run, which shows here first; the report states it.
 */
SEC("tp_btf/hrtimer_expire_entry")
int BPF_PROG(hrtimer_expire_entry, struct hrtimer *timer, ktime_t *now)
{
	struct idlescope_record *rec;
	struct idlescope_lateness *lat;
	struct cpu_state *cs;
	const void *fn;
	__s64 now_ns = 0, soft_ns;
	__u64 late_ns;
	__u32 zero = 0;
	bool watching;

	cs = this_cpu_state();
	fn = (const void *)timer->function;
	note_hrtimer_wake(fn);
	watching = cs && cs->in_idle && wake_watching();
	if (watching && is_tick_fn(fn))
		current_rec(cs)->flags |= IDLESCOPE_F_TICK_ENDED;
	if (!&hrtimer_wakeup || fn != &hrtimer_wakeup)
		return 0;
	bpf_probe_read_kernel(&now_ns, sizeof(now_ns), now);
	soft_ns = timer->_softexpires;
	lat = bpf_map_lookup_elem(&lateness, &zero);
	if (!lat || now_ns < soft_ns)
		return 0;
	late_ns = now_ns - soft_ns;
	lat->count++;
	lat->sum_ns += late_ns;
	if (late_ns > lat->max_ns)
		lat->max_ns = late_ns;
	lat->hist[idlescope_lateness_slot(late_ns) & (IDLESCOPE_LATENESS_SLOTS - 1)]++;
	/* The timer that ends an idle period fires before its exit. */
	if (watching) {
		rec = current_rec(cs);
		rec->sleep_late_ns = late_ns < ~0U ? late_ns : ~0U;
		rec->flags |= IDLESCOPE_F_SLEEP_WOKE;
	}
	return 0;
}

/*
 * A timer_list timer expiring in the period (in the timer softirq at the
 * exit of the interrupt that woke the CPU): the tick's hrtimer, when it
 * fired, fired for it, and the period was not the tick's alone.
 */
SEC("tp_btf/timer_expire_entry")
int BPF_PROG(timer_expire_entry, struct timer_list *timer, unsigned long baseclk)
{
	struct cpu_state *cs = this_cpu_state();

	if (cs && cs->in_idle && wake_watching())
		current_rec(cs)->flags |= IDLESCOPE_F_TIMER_LIST;
	return 0;
}

/*
 * The idle driver's exit (kernel/modules/idlescope_states): from the entry
 * of idlescope_exit_wait(), called as its halt returns, to its return.
 * Trampolines like the select probes; not loaded without the module.
 */
SEC("fentry/idlescope_exit_wait")
int BPF_PROG(exit_wait_entry, u64 exit_latency_ns, u64 woke)
{
	__u64 now_ns = bpf_ktime_get_ns();	/* first: the program's own time is not the exit's */
	struct cpu_state *cs = this_cpu_state();

	if (cs)
		cs->exit_start_ns = now_ns;
	return 0;
}

SEC("fexit/idlescope_exit_wait")
int BPF_PROG(exit_wait_exit, u64 exit_latency_ns, u64 woke)
{
	__u64 now_ns = bpf_ktime_get_ns();
	struct cpu_state *cs = this_cpu_state();
	struct idlescope_record *rec;
	__u64 exit_ns;

	if (!cs || !cs->exit_start_ns)
		return 0;
	exit_ns = now_ns - cs->exit_start_ns;
	cs->exit_start_ns = 0;
	if (!cs->in_idle)
		return 0;
	rec = current_rec(cs);
	rec->exit_ns = exit_ns < ~0U ? exit_ns : ~0U;
	rec->flags |= IDLESCOPE_F_EXIT_TIMED;
	return 0;
}


char LICENSE[] SEC("license") = "GPL";
