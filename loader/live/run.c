// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the live run: switch to the governor asked for (after
 * attach, from a fresh start), consume one record per idle period from
 * the ring buffer for -d seconds, aggregated live per (workload,
 * governor, CPU) and redrawn every -i seconds as a dashboard, and write
 * the reports at the end (also after SIGINT/SIGTERM).  live/probes.c holds the
 * BPF side.  A light run (-m light) only writes the records to the record
 * file, and a lean one keeps none: their dashboard and files come from the
 * BPF side's summaries (live/light.c), so that the guest being measured
 * does no work per record.
 *
 * Workloads name themselves by writing the tag map the run pins at
 * IDLESCOPE_TAG_PIN; `idlescope tag NAME` does that from a shell.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "live/run.h"
#include "live/dashboard.h"
#include "live/insnrate.h"
#include "stats/lateness.h"
#include "runinfo/mode.h"
#include "pipeline.h"
#include "recfile.h"
#include "output/dir.h"
#include "report/set.h"
#include "runinfo/runinfo.h"
#include "live/sysfs.h"
#include "live/system.h"
#include "live/symbols.h"
#include "live/light.h"
#include "stats/period.h"
#include "stats/why.h"
#include "idlescope.skel.h"

/*
 * The drain's interval: the BPF side wakes nobody, and a ring buffer of
 * the default size holds seconds of the busiest pattern's records.
 */
#define POLL_TIMEOUT_MS	100

/* One live run, from its options to its reports. */
struct run {
	const struct live_cmd_opts *opts;
	struct live lv;
	struct pipeline pl;		/* aggregate + shadow replay: a full run's */
	struct summaries summaries;	/* the BPF side's: a light or lean run's */
	struct run_meta meta;
	int nr_cpus;
	int nr_states;
	struct idlescope_state states[IDLESCOPE_MAX_STATES];
	FILE *recf;			/* -r */
	int rec_error;
	int agg_error;			/* first agg_add() error, reported once */
	__u64 received;
	__u64 received_at_last_draw;
	__u64 entries_at_last_draw;	/* the BPF side's, all CPUs */
	struct sysfs_counts sysfs_at_start;	/* after the switch */
	struct timespec start;
	__u32 insn_ps_start;		/* the guest's speed before the run */
	char saved_governor[64];	/* restored at exit ("": none) */
	char other_governor[64];
	bool pinned;
};

static volatile sig_atomic_t exiting;
static volatile sig_atomic_t drain_requested;

static void sig_handler(int sig)
{
	exiting = 1;
}

/* SIGUSR1: a light run's drain, asked for between workloads. */
static void drain_handler(int sig)
{
	drain_requested = 1;
}

static int write_tag(int map_fd, const char *name)
{
	struct idlescope_tag tag = {};
	__u32 zero = 0;

	if (name)
		strncpy(tag.name, name, sizeof(tag.name) - 1);
	if (bpf_map_update_elem(map_fd, &zero, &tag, BPF_ANY))
		return -errno;
	return 0;
}

int live_retag(const char *name)
{
	int fd, err;

	fd = bpf_obj_get(IDLESCOPE_TAG_PIN);
	if (fd < 0) {
		fprintf(stderr, "idlescope: error: no running loader (%s: %s)\n",
			IDLESCOPE_TAG_PIN, strerror(errno));
		return 1;
	}
	err = write_tag(fd, name);
	close(fd);
	if (err) {
		fprintf(stderr, "idlescope: error: writing tag: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

static FILE *create_record_file(const struct run *run)
{
	const char *path = run->opts->record_path;
	struct recfile_header hdr;
	FILE *f;

	runinfo_header(&hdr, &run->meta, run->states, run->nr_states, run->nr_cpus);
	f = recfile_create(path, &hdr);
	if (!f)
		fprintf(stderr, "idlescope: error: creating %s: %s\n", path, strerror(errno));
	return f;
}

/*
 * The record file's first error, said once (later writes are skipped), as
 * errno has it right after the call that failed; @err is what the run ends
 * with.
 */
static void record_file_failed(struct run *run, int err)
{
	const char *why = strerror(errno);

	run->rec_error = err;
	fprintf(stderr, "idlescope: error: writing %s: %s\n", run->opts->record_path, why);
}

/* One record into the record file, if there is one and it has not failed. */
static void write_record(struct run *run, const void *data)
{
	if (run->recf && !run->rec_error &&
	    fwrite(data, sizeof(struct idlescope_record), 1, run->recf) != 1)
		record_file_failed(run, -EIO);
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct run *run = ctx;
	int err;

	if (size < sizeof(struct idlescope_record))
		return 0;
	run->received++;
	write_record(run, data);
	err = pipeline_add(&run->pl, data);
	if (err && !run->agg_error) {
		run->agg_error = err;
		fprintf(stderr, "idlescope: warning: record not aggregated: %s "
			"(counted in the report)\n", strerror(-err));
	}
	return 0;
}

/* A light run's record: into the file, nothing else. */
static int handle_record_light(void *ctx, void *data, size_t size)
{
	struct run *run = ctx;

	if (size < sizeof(struct idlescope_record))
		return 0;
	run->received++;
	write_record(run, data);
	return 0;
}

static void sum_counters(const struct idlescope_counters *vals, int nr_cpus,
			 struct idlescope_counters *total)
{
	int cpu;

	memset(total, 0, sizeof(*total));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		total->entries += vals[cpu].entries;
		total->exits += vals[cpu].exits;
		total->records += vals[cpu].records;
		total->dropped += vals[cpu].dropped;
		total->unpaired += vals[cpu].unpaired;
		total->selects += vals[cpu].selects;
		total->lost_selects += vals[cpu].lost_selects;
	}
}

static double elapsed_s(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* The tag the workloads set now, escaped ("" untagged or unreadable). */
static void current_tag(const struct run *run, char *buf, size_t size)
{
	struct idlescope_tag tag = {};
	__u32 zero = 0;

	bpf_map_lookup_elem(bpf_map__fd(run->lv.obj->maps.workload), &zero, &tag);
	escape_name(buf, size, tag.name, sizeof(tag.name));
}

/*
 * The live view of the current workload (live/dashboard.c, or
 * live/light.c without the aggregate).  On a terminal it redraws in
 * place; into a pipe or file it appends one block per interval.
 */
static void draw_dashboard(struct run *run, double elapsed)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS], total;
	double interval = run->opts->interval_s;
	struct dashboard_status status = {
		.elapsed_s = elapsed,
		.periods_per_s = (run->received - run->received_at_last_draw) / interval,
		.records = run->received,
	};
	char tag[ESCAPE_SIZE(IDLESCOPE_WORKLOAD_LEN)];

	if (live_read_counters(&run->lv, vals))
		memset(vals, 0, sizeof(vals));
	sum_counters(vals, run->nr_cpus, &total);
	status.dropped = total.dropped;
	run->received_at_last_draw = run->received;
	if (isatty(STDOUT_FILENO))
		printf("\033[H\033[J");
	if (run->opts->bpf.mode == LIVE_FULL) {
		dashboard_draw(stdout, run->pl.agg, &status);
	} else {
		struct summary_view view = {
			.elapsed_s = elapsed,
			.periods_per_s = (total.exits - run->entries_at_last_draw) / interval,
			.records = total.records,
			.dropped = total.dropped,
			.governor = run->opts->governor,
			.workload = tag,
		};

		run->entries_at_last_draw = total.exits;
		current_tag(run, tag, sizeof(tag));
		if (live_read_summaries(&run->lv, run->nr_cpus, &run->summaries))
			fprintf(stderr, "idlescope: warning: cannot read the summaries\n");
		summary_dashboard_draw(stdout, &run->summaries, &view);
	}
	fflush(stdout);
}

/*
 * The BPF side's own per-CPU view: entries and exits pair up, drops show;
 * and what the loader cost its CPU, from its start.
 */
static void print_counters(const struct live *lv, int nr_cpus)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {}, total;
	struct idlescope_lateness lat;
	struct rusage ru;
	int cpu;

	live_read_counters(lv, vals);
	printf("%-4s %12s %12s %12s %12s\n", "CPU", "ENTRIES", "EXITS", "RECORDS", "DROPPED");
	for (cpu = 0; cpu < nr_cpus; cpu++)
		printf("%-4d %12llu %12llu %12llu %12llu\n", cpu, vals[cpu].entries,
		       vals[cpu].exits, vals[cpu].records, vals[cpu].dropped);
	sum_counters(vals, nr_cpus, &total);
	if (lv->caps & IDLESCOPE_CAP_SELECT_PROBES)
		printf("selects probed: %llu, lost (no idle entry after them): %llu\n",
		       total.selects, total.lost_selects);
	if ((lv->caps & IDLESCOPE_CAP_LATENESS) && !live_read_lateness(lv, &lat) && lat.count)
		printf("timer lateness: %llu sleeps, mean %.1f us, max %.1f us\n", lat.count,
		       lat.sum_ns / 1e3 / lat.count, lat.max_ns / 1e3);
	if (!getrusage(RUSAGE_SELF, &ru))
		printf("loader CPU: user %.2f s, system %.2f s\n",
		       ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/*
 * The run's line in report.json's "runs", as `idlescope report` of its
 * record file gives it (cmd/recset.c): one boot, the seed of the file's
 * path, the governor with the most records.
 */
static void add_own_run(struct run *run)
{
	const char *path = run->opts->record_path;
	struct run_file own = {
		.boot = 0,
		.seed = path ? run_meta_seed_of_path(path) : -1,
		.governor = pipeline_run_governor(&run->pl),
		.position = run->opts->run_position,
		.insn_ps_start = run->insn_ps_start,
		.insn_ps_end = run->meta.insn_ps_end,
	};

	run_meta_add_run(&run->meta, &own);
}

/* What only the live run knows, for the reports and the record file's trailer. */
static void fill_meta(struct run *run, double duration_s)
{
	struct idlescope_counters vals[IDLESCOPE_MAX_CPUS] = {};
	struct run_meta *meta = &run->meta;
	const struct live *lv = &run->lv;
	int cpu, i;

	meta->duration_s = duration_s;
	meta->nr_cpus = run->nr_cpus;
	meta->insn_ps_end = insnrate_measure_ps();
	run_meta_note_insn_ps(meta, meta->insn_ps_end);
	meta->ringbuf_size_bytes = run->opts->bpf.ringbuf_bytes;
	live_read_counters(lv, vals);
	for (cpu = 0; cpu < run->nr_cpus; cpu++) {
		meta->records_produced[cpu] = vals[cpu].records;
		meta->dropped_records[cpu] = vals[cpu].dropped;
	}
	for (i = 0; i < lv->nr_skipped; i++)
		run_meta_add_skipped(meta, lv->skipped[i].prog, lv->skipped[i].reason);
	meta->capabilities = lv->caps;
	if (lv->caps & IDLESCOPE_CAP_LATENESS)
		live_read_lateness(lv, &meta->lateness);
	if (run->opts->bpf.mode != LIVE_FULL) {
		if (run->opts->governor)
			run_meta_add_governor(meta, run->opts->governor);
		return;
	}
	add_own_run(run);
	meta->shadow_replay_resets = run->pl.replay->replay_resets;
	meta->wake_names = *why_names(agg_why(run->pl.agg));
	meta->reconstruct = run->pl.reconstruct;
	reportset_meta_from_agg(meta, run->pl.agg);
}

/* Before anything is loaded: the CPU count, the governor, the state table. */
static int run_prepare(struct run *run)
{
	const char *governor = run->opts->governor;
	int err;

	run->nr_cpus = libbpf_num_possible_cpus();
	if (run->nr_cpus < 0 || run->nr_cpus > IDLESCOPE_MAX_CPUS) {
		fprintf(stderr, "idlescope: error: %d possible CPUs, at most %d supported\n",
			run->nr_cpus, IDLESCOPE_MAX_CPUS);
		return -EINVAL;
	}
	if (governor) {
		err = sysfs_check_governor(governor, run->saved_governor,
					   sizeof(run->saved_governor), run->other_governor,
					   sizeof(run->other_governor));
		if (err)
			return err;
	}
	run->nr_states = sysfs_read_state_table(run->states);
	if (run->opts->bpf.mode != LIVE_FULL)
		return 0;
	run->pl.exit_cost = run->meta.exit_cost;
	err = pipeline_init(&run->pl, run->states, run->nr_states, run->meta.hz,
			    run->meta.kernel_release);
	if (err)
		fprintf(stderr, "idlescope: error: %s\n", strerror(-err));
	else
		why_set_resolver(agg_why(run->pl.agg), symbols_resolve, NULL);
	return err;
}

/* Load and attach, then switch the governor: its records start fresh. */
static int run_start(struct run *run)
{
	const char *governor = run->opts->governor;
	struct live_opts lv_opts = run->opts->bpf;
	struct period_exits exits;
	int err;

	lv_opts.on_record = lv_opts.mode == LIVE_FULL ? handle_record : handle_record_light;
	lv_opts.ctx = run;
	/* The summaries judge each period by its wake-up, as the reports do. */
	period_exits_of(&exits, run->states, run->nr_states,
			run->meta.exit_cost == RECFILE_EXIT_COST_ON);
	memcpy(lv_opts.untimed_exit_ns, exits.untimed_ns, sizeof(lv_opts.untimed_exit_ns));
	err = live_load(&run->lv, &lv_opts);
	if (err)
		return err;
	err = live_attach(&run->lv);
	if (err)
		return err;
	/* The record file's header says what this run could observe. */
	run->meta.capabilities = run->lv.caps;
	mode_print(run->opts->json ? stderr : stdout, run->lv.caps, run->meta.cpuidle_driver);
	if (governor) {
		err = sysfs_switch_governor(governor, run->saved_governor, run->other_governor);
		if (err) {
			fprintf(stderr, "idlescope: error: switching to governor %s: %s\n",
				governor, strerror(-err));
			return err;
		}
	}
	/*
	 * The kernel's count from here to detach: the window of the records
	 * of the governor the run is for (those before the switch are the
	 * old governor's, and a switch can take long under emulation).
	 */
	sysfs_read_counts(run->nr_cpus, &run->sysfs_at_start);
	return 0;
}

/*
 * The tag map pinned last, so the pin's existence says the loader is
 * ready: attached, governor switched, tag set.  A pin left by a killed
 * loader would point at a dead map.  Then the record file (-r).
 */
static int run_publish(struct run *run)
{
	struct bpf_map *tag_map = run->lv.obj->maps.workload;
	int err;

	if (run->opts->workload) {
		err = write_tag(bpf_map__fd(tag_map), run->opts->workload);
		if (err) {
			fprintf(stderr, "idlescope: error: setting workload tag: %s\n",
				strerror(-err));
			return err;
		}
	}
	mkdir(IDLESCOPE_PIN_DIR, 0755);
	unlink(IDLESCOPE_TAG_PIN);
	err = bpf_map__pin(tag_map, IDLESCOPE_TAG_PIN);
	if (err) {
		fprintf(stderr, "idlescope: error: pinning %s: %s\n", IDLESCOPE_TAG_PIN,
			strerror(-err));
		return err;
	}
	run->pinned = true;
	if (run->opts->record_path) {
		run->recf = create_record_file(run);
		if (!run->recf)
			return -errno;
	}
	return 0;
}

/*
 * How long the next poll waits: a full run drains on every poll, a light
 * or lean one only redraws, at the next -i.
 */
static int poll_timeout_ms(const struct run *run, double next_draw)
{
	double until_s = next_draw < run->opts->duration_s ? next_draw : run->opts->duration_s;
	double left_ms = (until_s - elapsed_s(&run->start)) * 1000;

	if (run->lv.drain_on_poll || left_ms < 1)
		return POLL_TIMEOUT_MS;
	return left_ms < INT_MAX ? (int)left_ms : INT_MAX;
}

/* Take every record that waits, and put them in the record file now. */
static int drain_now(struct run *run)
{
	int err = live_drain(&run->lv);

	if (err >= 0 && run->recf && !run->rec_error && fflush(run->recf))
		record_file_failed(run, -errno);
	return err;
}

/*
 * Poll for -d seconds or until SIGINT or SIGTERM, redrawing every -i
 * seconds; SIGUSR1 drains.
 */
static int run_loop(struct run *run)
{
	const struct live_cmd_opts *opts = run->opts;
	sigset_t handled, wait_mask;
	double next_draw;
	int err = 0;

	signal(SIGINT, sig_handler);
	signal(SIGTERM, sig_handler);
	signal(SIGUSR1, drain_handler);
	/*
	 * The three arrive only while the poll waits: one that came between
	 * the loop's test of its flag and the wait would wait with it, a
	 * drain asked for between workloads left until the next -i.
	 */
	sigemptyset(&handled);
	sigaddset(&handled, SIGINT);
	sigaddset(&handled, SIGTERM);
	sigaddset(&handled, SIGUSR1);
	sigprocmask(SIG_BLOCK, &handled, &wait_mask);

	printf("idlescope: watching cpuidle on %d CPUs for %ld s (governor %s)\n",
	       run->nr_cpus, opts->duration_s, opts->governor ? opts->governor : "unchanged");
	clock_gettime(CLOCK_MONOTONIC, &run->start);
	next_draw = opts->interval_s;
	while (!exiting && elapsed_s(&run->start) < opts->duration_s) {
		err = live_poll(&run->lv, poll_timeout_ms(run, next_draw), &wait_mask);
		if (err == -EINTR)
			err = 0;
		if (err >= 0 && drain_requested) {
			drain_requested = 0;
			err = drain_now(run);
		}
		if (err < 0) {
			fprintf(stderr, "idlescope: error: polling ring buffer: %s\n",
				strerror(-err));
			break;
		}
		if (elapsed_s(&run->start) >= next_draw) {
			draw_dashboard(run, elapsed_s(&run->start));
			next_draw += opts->interval_s;
		}
	}
	sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	return err < 0 ? err : 0;
}

/* Detach and drain, close the record file with its trailer, write the reports. */
static int run_finish(struct run *run)
{
	const char *record_path = run->opts->record_path;
	struct sysfs_counts now;
	int err;

	/* Detach first so the drained buffer is the last word. */
	sysfs_read_counts(run->nr_cpus, &now);
	run->meta.sysfs_usage_delta = now.usage - run->sysfs_at_start.usage;
	run->meta.sysfs_above_delta = now.above - run->sysfs_at_start.above;
	run->meta.sysfs_below_delta = now.below - run->sysfs_at_start.below;
	err = live_detach_drain(&run->lv);
	if (err < 0) {
		fprintf(stderr, "idlescope: error: draining ring buffer: %s\n", strerror(-err));
		return err;
	}

	if (run->opts->bpf.mode == LIVE_FULL) {
		pipeline_flush(&run->pl);
	} else {
		err = live_read_summaries(&run->lv, run->nr_cpus, &run->summaries);
		if (err) {
			fprintf(stderr, "idlescope: error: reading the summaries: %s\n",
				strerror(-err));
			return err;
		}
		/* The run is over: the names its records need, from its file. */
		if (run->recf && !run->rec_error && fflush(run->recf))
			record_file_failed(run, -errno);
		if (run->recf && !run->rec_error)
			run->rec_error = summary_wake_names(record_path, &run->meta.wake_names);
	}
	fill_meta(run, elapsed_s(&run->start));
	if (run->recf && !run->rec_error) {
		struct recfile_trailer trailer;

		runinfo_trailer(&trailer, &run->meta, run->lv.nr_ringbufs ? run->lv.nr_ringbufs : 1);
		run->rec_error = recfile_finish(run->recf, &trailer, run->received);
		run->recf = NULL;
		if (run->rec_error)
			fprintf(stderr, "idlescope: error: closing %s: %s\n", record_path,
				strerror(-run->rec_error));
	}
	if (run->opts->bpf.mode == LIVE_FULL)
		err = reportset_write(run->pl.agg, &run->meta, run->opts->json, run->opts->outdir);
	else if (run->opts->outdir)
		err = summary_write_dir(run->opts->outdir, &run->summaries, &run->meta,
					run->opts->bpf.mode);
	else
		err = summary_print_report(stdout, &run->summaries, &run->meta,
					   run->opts->bpf.mode);
	if (!run->opts->json)
		print_counters(&run->lv, run->nr_cpus);
	return err ? err : run->rec_error;
}

/* Undo what the run set up, whatever step it stopped at; @err, or a close error. */
static int run_cleanup(struct run *run, int err)
{
	/* Without its trailer: readers take it as cut short, which it is. */
	if (run->recf && fclose(run->recf) && !err) {
		err = -errno;
		fprintf(stderr, "idlescope: error: closing %s: %s\n", run->opts->record_path,
			strerror(-err));
	}
	if (run->pinned)
		unlink(IDLESCOPE_TAG_PIN);
	if (run->saved_governor[0] && sysfs_restore_governor(run->saved_governor))
		fprintf(stderr, "idlescope: error: restoring governor %s\n", run->saved_governor);
	live_destroy(&run->lv);
	pipeline_free(&run->pl);
	summaries_free(&run->summaries);
	return err;
}

int live_command(const struct live_cmd_opts *opts)
{
	struct run run = { .opts = opts };
	int err;

	live_set_verbose(opts->verbose);
	run_meta_init(&run.meta);
	live_read_system(&run.meta);
	run.insn_ps_start = run.meta.insn_ps_lo;	/* the one measurement so far */
	run.meta.run_position = opts->run_position;
	if (opts->outdir && reportdir_check(opts->outdir))
		return 1;

	err = run_prepare(&run);
	if (!err)
		err = run_start(&run);
	if (!err)
		err = run_publish(&run);
	if (!err)
		err = run_loop(&run);
	if (!err)
		err = run_finish(&run);
	return run_cleanup(&run, err) ? 1 : 0;
}
