// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - open, load, attach and poll bpf/idlescope.bpf.c for a live run.
 *
 * The same object has to run on our patched kernel and on a distribution
 * kernel: a program whose attach point the kernel's BTF lacks is not
 * loaded (and the run says so), and the select probes (fexit trampolines)
 * are given up as a set when they cannot be loaded or attached, leaving
 * the tracepoint-only path, which needs nothing but cpu_idle.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "stats/lateness.h"
#include "live/probes.h"
#include "live/sysfs.h"
#include "idlescope.skel.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
/* The synthetic idle states' module, whose exit the exit probes time. */
#define STATES_MODULE_BTF	"/sys/kernel/btf/idlescope_states"

static bool verbose;
/* Set while libbpf's own complaint would only repeat the loader's error line. */
static bool libbpf_quiet;

static int libbpf_print_fn(enum libbpf_print_level level, const char *format, va_list args)
{
	if ((level == LIBBPF_DEBUG || libbpf_quiet) && !verbose)
		return 0;
	return vfprintf(stderr, format, args);
}

void live_set_verbose(bool on)
{
	verbose = on;
	libbpf_set_print(libbpf_print_fn);
}

static void add_skipped(struct live *lv, const struct bpf_program *prog, const char *reason)
{
	struct live_skipped *s;

	if (lv->nr_skipped >= LIVE_MAX_SKIPPED)
		return;
	s = &lv->skipped[lv->nr_skipped++];
	snprintf(s->prog, sizeof(s->prog), "%s", bpf_program__name(prog));
	snprintf(s->reason, sizeof(s->reason), "%s", reason);
}

/*
 * The trampolines: fexit on each governor's select, on the PM QoS limit
 * and on teo's and teo70's reflect, fentry and fexit on the idle driver's
 * exit.  They
 * load, attach and are given up together.
 */
static bool is_select_probe(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);

	return !strncmp(sec, "fexit/", 6) || !strncmp(sec, "fentry/", 7);
}

/* A function of the kernel, or of the idle-states module if it is loaded. */
static bool function_exists(const struct btf *vmlinux, const char *name)
{
	struct btf *module;
	bool found;

	if (btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0)
		return true;
	module = btf__parse_split(STATES_MODULE_BTF, (struct btf *)vmlinux);
	if (!module)
		return false;
	found = btf__find_by_name_kind(module, name, BTF_KIND_FUNC) > 0;
	btf__free(module);
	return found;
}

/* The select probes proper, one per governor's select (the count printed). */
static bool is_governor_select(const struct live *lv, const struct bpf_program *prog)
{
	return is_select_probe(prog) && prog != lv->obj->progs.latency_req_exit &&
	       prog != lv->obj->progs.teo_reflect_exit &&
	       prog != lv->obj->progs.teo70_reflect_exit &&
	       prog != lv->obj->progs.exit_wait_entry && prog != lv->obj->progs.exit_wait_exit;
}

/*
 * Switch off the programs whose attach point this kernel lacks (no
 * cpu_idle_miss before 6.0, no menu2010_select on a stock kernel), so the
 * rest still loads; and the select probes when @select_off_reason says
 * why they are off.  Without cpu_idle
 * there are no idle periods at all: -ENOENT.
 */
static int disable_missing_targets(struct live *lv, const struct btf *vmlinux,
				   const char *select_off_reason, const struct live_opts *opts)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, lv->obj->obj) {
		const char *sec = bpf_program__section_name(prog);
		const char *target = strchr(sec, '/');
		bool exit_timing = opts->exit_timing;
		char tp_type[128];
		bool found;

		if (!target)
			continue;
		target++;
		/* A lean run's summaries need the idle periods and the misses. */
		if (opts->mode == LIVE_LEAN && prog != lv->obj->progs.cpu_idle &&
		    prog != lv->obj->progs.cpu_idle_miss) {
			bpf_program__set_autoload(prog, false);
			add_skipped(lv, prog, "lean: cpu_idle and cpu_idle_miss only (-m lean)");
			continue;
		}
		if (!exit_timing && (prog == lv->obj->progs.exit_wait_entry ||
				     prog == lv->obj->progs.exit_wait_exit)) {
			bpf_program__set_autoload(prog, false);
			add_skipped(lv, prog, "exit timing off (--exit-timing): it pins the module");
			continue;
		}
		if (select_off_reason && is_select_probe(prog)) {
			bpf_program__set_autoload(prog, false);
			add_skipped(lv, prog, select_off_reason);
			continue;
		}
		if (!strncmp(sec, "tp_btf/", 7)) {
			snprintf(tp_type, sizeof(tp_type), "btf_trace_%s", target);
			found = btf__find_by_name_kind(vmlinux, tp_type, BTF_KIND_TYPEDEF) > 0;
		} else {
			found = function_exists(vmlinux, target);
		}
		if (found)
			continue;
		if (prog == lv->obj->progs.cpu_idle) {
			fprintf(stderr, "idlescope: error: attach target %s not in kernel BTF\n",
				target);
			return -ENOENT;
		}
		printf("idlescope: skipping %s: %s not in kernel BTF\n",
		       bpf_program__name(prog), target);
		bpf_program__set_autoload(prog, false);
		add_skipped(lv, prog, "attach target not in kernel or idlescope_states BTF");
	}
	return 0;
}

static int open_object(struct live *lv, const struct live_opts *opts,
		       const struct btf *vmlinux, const char *select_off_reason)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	int err;

	lv->nr_skipped = 0;
	open_opts.btf_custom_path = opts->btf_path;
	lv->obj = idlescope_bpf__open_opts(&open_opts);
	if (!lv->obj) {
		err = -errno;
		fprintf(stderr, "idlescope: error: opening BPF object: %s\n", strerror(-err));
		return err;
	}
	lv->obj->rodata->observe_predictions = !opts->no_predict;
	lv->obj->rodata->wakeup_every_record = opts->wakeup_per_record;
	/* A light run drains when asked, or when a buffer is half full. */
	if (opts->mode == LIVE_LIGHT)
		lv->obj->rodata->wakeup_at_bytes = opts->ringbuf_bytes / 2;
	lv->drain_on_poll = opts->mode == LIVE_FULL || opts->wakeup_per_record;
	lv->obj->rodata->per_cpu_ringbufs = lv->nr_ringbufs > 0;
	lv->obj->rodata->emit_records = opts->mode != LIVE_LEAN;
	lv->obj->rodata->keep_summary = opts->mode != LIVE_FULL;
	lv->obj->rodata->lean = opts->mode == LIVE_LEAN;
	lv->obj->rodata->sum_records = opts->sum_records;
	memcpy((void *)lv->obj->rodata->untimed_exit_ns, opts->untimed_exit_ns,
	       sizeof(opts->untimed_exit_ns));
	/* The kind not in use keeps the smallest size, one page. */
	err = bpf_map__set_max_entries(lv->obj->maps.records, lv->nr_ringbufs ?
				       sysconf(_SC_PAGESIZE) : opts->ringbuf_bytes);
	if (!err && lv->nr_ringbufs)
		err = bpf_map__set_inner_map_fd(lv->obj->maps.cpu_records, lv->ringbuf_fds[0]);
	if (err) {
		fprintf(stderr, "idlescope: error: sizing the ring buffers: %s\n", strerror(-err));
		return err;
	}
	err = disable_missing_targets(lv, vmlinux, select_off_reason, opts);
	/* Without these three, most wake-ups would show as unknown. */
	lv->obj->rodata->observe_wakeups =
		bpf_program__autoload(lv->obj->progs.irq_handler_entry) &&
		bpf_program__autoload(lv->obj->progs.local_timer_entry) &&
		bpf_program__autoload(lv->obj->progs.hrtimer_expire_entry);
	return err;
}

static bool any_select_probe_loaded(const struct live *lv)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, lv->obj->obj) {
		if (is_select_probe(prog) && bpf_program__autoload(prog))
			return true;
	}
	return false;
}

/*
 * A guest of vm/run.sh under multi-threaded TCG (idlescope.clock=host on
 * its command line): attaching and detaching fexit programs there froze
 * the guest every time (bpf/idlescope.bpf.c), so the select probes stay
 * off.
 */
static bool under_mttcg(void)
{
	char cmdline[4096];

	return !sysfs_read_line("/proc/cmdline", cmdline, sizeof(cmdline)) &&
	       strstr(cmdline, "idlescope.clock=host");
}

/*
 * Load with the select probes; a kernel that refuses them (no trampolines
 * for this architecture or config) still gets the tracepoint-only object.
 */
static int load_object(struct live *lv, const struct live_opts *opts, const struct btf *vmlinux)
{
	char reason[LIVE_REASON_LEN];
	const char *off = NULL;
	int err;

	if (opts->no_select_probes)
		off = "select probes off (--no-select-probes)";
	else if (!opts->select_probes_under_mttcg && under_mttcg())
		off = "select probes off: fexit attach/detach freezes multi-threaded TCG";
	err = open_object(lv, opts, vmlinux, off);
	if (err)
		return err;
	err = idlescope_bpf__load(lv->obj);
	if (!err || !any_select_probe_loaded(lv)) {
		if (err)
			fprintf(stderr, "idlescope: error: loading BPF object: %s\n",
				strerror(-err));
		return err;
	}
	printf("idlescope: select probes do not load (%s): tracepoints only\n",
	       strerror(-err));
	snprintf(reason, sizeof(reason), "select probes do not load: %s", strerror(-err));
	idlescope_bpf__destroy(lv->obj);
	err = open_object(lv, opts, vmlinux, reason);
	if (err)
		return err;
	err = idlescope_bpf__load(lv->obj);
	if (err)
		fprintf(stderr, "idlescope: error: loading BPF object: %s\n", strerror(-err));
	return err;
}

/* One ring buffer per possible CPU, for the BPF side's cpu_records. */
static int create_cpu_ringbufs(struct live *lv, long size_bytes)
{
	int nr_cpus = libbpf_num_possible_cpus();
	int fd, err;

	if (nr_cpus < 0 || nr_cpus > IDLESCOPE_MAX_CPUS) {
		fprintf(stderr, "idlescope: error: %d possible CPUs, at most %d supported\n",
			nr_cpus, IDLESCOPE_MAX_CPUS);
		return -EINVAL;
	}
	while (lv->nr_ringbufs < nr_cpus) {
		fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "idlescope_cpu", 0, 0, size_bytes, NULL);
		if (fd < 0) {
			err = -errno;
			fprintf(stderr, "idlescope: error: creating the ring buffer of CPU %d: %s\n",
				lv->nr_ringbufs, strerror(-err));
			return err;
		}
		lv->ringbuf_fds[lv->nr_ringbufs++] = fd;
	}
	return 0;
}

/* The loader's side of the ring buffers: all polled through one epoll. */
static int open_ringbufs(struct live *lv, const struct live_opts *opts)
{
	int outer_fd = bpf_map__fd(lv->obj->maps.cpu_records);
	int cpu, err = 0;

	if (!lv->nr_ringbufs) {
		lv->rb = ring_buffer__new(bpf_map__fd(lv->obj->maps.records), opts->on_record,
					  opts->ctx, NULL);
		if (!lv->rb)
			err = -errno;
	}
	for (cpu = 0; cpu < lv->nr_ringbufs && !err; cpu++) {
		if (bpf_map_update_elem(outer_fd, &cpu, &lv->ringbuf_fds[cpu], BPF_ANY))
			err = -errno;
		else if (!cpu && !(lv->rb = ring_buffer__new(lv->ringbuf_fds[cpu],
							    opts->on_record, opts->ctx, NULL)))
			err = -errno;
		else if (cpu)
			err = ring_buffer__add(lv->rb, lv->ringbuf_fds[cpu], opts->on_record,
					       opts->ctx);
	}
	if (err)
		fprintf(stderr, "idlescope: error: setting up the ring buffers: %s\n",
			strerror(-err));
	return err;
}

/* Whether @btf's struct @name exists, and has @member if one is given. */
static bool btf_has(const struct btf *btf, const char *name, const char *member)
{
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	if (id <= 0)
		return false;
	if (!member)
		return true;
	t = btf__type_by_id(btf, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member))
			return true;
	return false;
}

/*
 * What the kernel itself offers, whatever is attached: the observation
 * fields of kernel/patches 0004 and the 2010 governors.
 */
static __u32 kernel_capabilities(const struct btf *vmlinux)
{
	__u32 caps = 0;

	if (btf_has(vmlinux, "menu_device", "predicted_ns"))
		caps |= IDLESCOPE_CAP_OBSERVATION;
	if (btf_has(vmlinux, "menu2010_device", NULL))
		caps |= IDLESCOPE_CAP_GOV2010;
	return caps;
}

int live_load(struct live *lv, const struct live_opts *opts)
{
	struct btf *vmlinux;
	int err;

	memset(lv, 0, sizeof(*lv));
	if (!opts->shared_ringbuf) {
		/* A lean run sends no records: a page each. */
		err = create_cpu_ringbufs(lv, opts->mode == LIVE_LEAN ? sysconf(_SC_PAGESIZE) :
					  opts->ringbuf_bytes);
		if (err)
			return err;
	}
	if (!opts->btf_path && access(VMLINUX_BTF, R_OK)) {
		fprintf(stderr, "idlescope: error: kernel has no BTF (%s: %s); "
			"build it with CONFIG_DEBUG_INFO_BTF=y\n", VMLINUX_BTF, strerror(errno));
		return -ENOENT;
	}
	libbpf_quiet = true;
	vmlinux = opts->btf_path ? btf__parse(opts->btf_path, NULL) : btf__load_vmlinux_btf();
	err = -errno;
	libbpf_quiet = false;
	if (!vmlinux) {
		fprintf(stderr, "idlescope: error: no kernel BTF in %s: %s\n",
			opts->btf_path ? opts->btf_path : VMLINUX_BTF, strerror(-err));
		return err;
	}
	err = load_object(lv, opts, vmlinux);
	if (!err)
		lv->caps |= kernel_capabilities(vmlinux);
	btf__free(vmlinux);
	if (err)
		return err;
	return open_ringbufs(lv, opts);
}

/* Detach the programs that are (@select) or are not select probes. */
static void detach_progs(struct live *lv, bool select)
{
	const struct bpf_object_skeleton *skel = lv->obj->skeleton;
	int i;

	for (i = 0; i < skel->prog_cnt; i++) {
		if (is_select_probe(*skel->progs[i].prog) != select)
			continue;
		bpf_link__destroy(*skel->progs[i].link);
		*skel->progs[i].link = NULL;
	}
	if (select)
		lv->nr_select_probes = 0;
}

void live_detach_select_probes(struct live *lv)
{
	detach_progs(lv, true);
}

/* Attach the loaded programs that are (@select) or are not select probes. */
static int attach_progs(struct live *lv, bool select)
{
	const struct bpf_object_skeleton *skel = lv->obj->skeleton;
	int i, err;

	for (i = 0; i < skel->prog_cnt; i++) {
		struct bpf_program *prog = *skel->progs[i].prog;
		struct bpf_link **link = skel->progs[i].link;

		if (!bpf_program__autoload(prog) || is_select_probe(prog) != select || *link)
			continue;
		*link = bpf_program__attach(prog);
		if (!*link) {
			err = -errno;
			if (!select)
				fprintf(stderr, "idlescope: error: attaching %s: %s\n",
					bpf_program__name(prog), strerror(-err));
			return err;
		}
		lv->nr_select_probes += select && is_governor_select(lv, prog);
	}
	return 0;
}

int live_attach_select_probes(struct live *lv)
{
	int err = attach_progs(lv, true);

	if (err)
		live_detach_select_probes(lv);
	return err;
}

int live_attach(struct live *lv)
{
	char reason[LIVE_REASON_LEN] = "";
	int i, err;

	/*
	 * Select probes first: then every period the tracepoints see was
	 * chosen by a select the probes saw.
	 */
	err = live_attach_select_probes(lv);
	if (err) {
		snprintf(reason, sizeof(reason), "select probes do not attach: %s",
			 strerror(-err));
		for (i = 0; i < lv->obj->skeleton->prog_cnt; i++) {
			struct bpf_program *prog = *lv->obj->skeleton->progs[i].prog;

			if (is_select_probe(prog) && bpf_program__autoload(prog))
				add_skipped(lv, prog, reason);
		}
	}
	err = attach_progs(lv, false);
	if (err)
		return err;
	lv->caps &= ~(IDLESCOPE_CAP_SELECT_PROBES | IDLESCOPE_CAP_MISS_TP |
		      IDLESCOPE_CAP_LATENESS | IDLESCOPE_CAP_WAKEUP);
	if (lv->nr_select_probes)
		lv->caps |= IDLESCOPE_CAP_SELECT_PROBES;
	if (lv->obj->links.cpu_idle_miss)
		lv->caps |= IDLESCOPE_CAP_MISS_TP;
	if (lv->obj->links.hrtimer_expire_entry)
		lv->caps |= IDLESCOPE_CAP_LATENESS;
	if (lv->obj->rodata->observe_wakeups)
		lv->caps |= IDLESCOPE_CAP_WAKEUP;
	if (lv->nr_select_probes)
		printf("idlescope: select probes on %d governors' select\n", lv->nr_select_probes);
	else
		printf("idlescope: tracepoints only, no select probes%s%s\n",
		       reason[0] ? ": " : "", reason);
	return 0;
}

int live_poll(struct live *lv, int timeout_ms, const sigset_t *wait_mask)
{
	/*
	 * A full run's BPF side wakes nobody: the wait is the drain's
	 * interval.  A light run's wakes the wait when a buffer is half full;
	 * the ring buffers' epoll is level-triggered, so a wake-up is taken
	 * here, with every record that waits.
	 */
	struct epoll_event event;
	int n = epoll_pwait(ring_buffer__epoll_fd(lv->rb), &event, 1, timeout_ms, wait_mask);

	if (n < 0)
		return -errno;
	if (n > 0 || lv->drain_on_poll)
		return live_drain(lv);
	return 0;
}

int live_drain(struct live *lv)
{
	return ring_buffer__consume(lv->rb);
}

int live_detach_drain(struct live *lv)
{
	/*
	 * The reverse of live_attach(): the tracepoints first, so that every
	 * period they record to the end was chosen by a select the probes
	 * saw, whatever order the object lists its programs in.
	 */
	detach_progs(lv, false);
	detach_progs(lv, true);
	return live_drain(lv);
}

int live_read_counters(const struct live *lv, struct idlescope_counters *vals)
{
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(lv->obj->maps.counters), &zero, vals))
		return -errno;
	return 0;
}

int live_read_lateness(const struct live *lv, struct idlescope_lateness *sum)
{
	struct idlescope_lateness vals[IDLESCOPE_MAX_CPUS];
	int nr_cpus = libbpf_num_possible_cpus();
	__u32 zero = 0;

	memset(sum, 0, sizeof(*sum));
	if (nr_cpus < 0 || nr_cpus > IDLESCOPE_MAX_CPUS)
		return -EINVAL;
	if (bpf_map_lookup_elem(bpf_map__fd(lv->obj->maps.lateness), &zero, vals))
		return -errno;
	lateness_sum_cpus(sum, vals, nr_cpus);
	return 0;
}

int live_read_summaries(const struct live *lv, int nr_cpus, struct summaries *set)
{
	struct idlescope_summary_names names[IDLESCOPE_MAX_CPUS];
	struct idlescope_summary vals[IDLESCOPE_MAX_CPUS];
	struct idlescope_counters counters[IDLESCOPE_MAX_CPUS];
	int names_fd = bpf_map__fd(lv->obj->maps.summary_names);
	int fd = bpf_map__fd(lv->obj->maps.summaries);
	struct idlescope_summary *s;
	const char *name;
	__u32 zero = 0, slot;
	int cpu;

	if (nr_cpus < 0 || nr_cpus > IDLESCOPE_MAX_CPUS)
		return -EINVAL;
	if (bpf_map_lookup_elem(names_fd, &zero, names) ||
	    bpf_map_lookup_elem(bpf_map__fd(lv->obj->maps.counters), &zero, counters))
		return -errno;
	for (slot = 0; slot < IDLESCOPE_SUMMARY_SLOTS; slot++) {
		if (bpf_map_lookup_elem(fd, &slot, vals))
			return -errno;
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			if (slot < names[cpu].nr && slot < IDLESCOPE_SUMMARY_SLOTS - 1)
				name = names[cpu].names[slot].name;
			else if (slot == IDLESCOPE_SUMMARY_SLOTS - 1 && vals[cpu].periods)
				name = SUMMARIES_OTHER;
			else
				continue;
			s = summaries_get(set, name, cpu);
			if (!s)
				return -ENOMEM;
			*s = vals[cpu];
		}
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		set->records[cpu] = counters[cpu].records;
		set->record_sum[cpu] = counters[cpu].record_sum;
	}
	set->nr_cpus = nr_cpus;
	set->has_record_sum = lv->obj->rodata->sum_records;
	return 0;
}

void live_destroy(struct live *lv)
{
	ring_buffer__free(lv->rb);
	idlescope_bpf__destroy(lv->obj);
	while (lv->nr_ringbufs > 0)
		close(lv->ringbuf_fds[--lv->nr_ringbufs]);
	lv->rb = NULL;
	lv->obj = NULL;
}
