// SPDX-License-Identifier: GPL-2.0
/* sysfs.c - the cpuidle files of a live run (see sysfs.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "live/sysfs.h"

#define CPUIDLE_SYSFS	"/sys/devices/system/cpu/cpuidle"
#define STATE_SYSFS	"/sys/devices/system/cpu/cpu0/cpuidle"

int sysfs_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, size, f))
		err = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return err;
}

static int write_line(const char *path, const char *line)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%s\n", line) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * Names not in available_governors are refused here, before anything is
 * loaded; the switch itself comes after attach, so the records see the
 * governor start from its ->enable() state, as the replayed models do.
 */
int sysfs_check_governor(const char *name, char *saved, size_t size,
			 char *other, size_t other_size)
{
	char avail[256], *tok, *save;
	bool found = false;
	int err;

	err = sysfs_read_line(CPUIDLE_SYSFS "/available_governors", avail, sizeof(avail));
	if (err) {
		fprintf(stderr, "idlescope: error: no cpuidle governors (%s: %s)\n",
			CPUIDLE_SYSFS "/available_governors", strerror(-err));
		return err;
	}
	other[0] = '\0';
	for (tok = strtok_r(avail, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, name))
			found = true;
		else if (!other[0])
			snprintf(other, other_size, "%s", tok);
	}
	if (!found) {
		sysfs_read_line(CPUIDLE_SYSFS "/available_governors", avail, sizeof(avail));
		fprintf(stderr, "idlescope: error: governor '%s' not available (available: %s)\n",
			name, avail);
		return -ENOENT;
	}
	err = sysfs_read_line(CPUIDLE_SYSFS "/current_governor", saved, size);
	if (err)
		fprintf(stderr, "idlescope: error: reading the current governor: %s\n",
			strerror(-err));
	return err;
}

/*
 * From a fresh start: otherwise the governor's history would predate the
 * records, and no replay could start in step with it.
 */
int sysfs_switch_governor(const char *name, const char *current, const char *other)
{
	int err;

	if (!strcmp(name, current) && other[0]) {
		err = write_line(CPUIDLE_SYSFS "/current_governor", other);
		if (err)
			return err;
	}
	return write_line(CPUIDLE_SYSFS "/current_governor", name);
}

int sysfs_restore_governor(const char *name)
{
	return write_line(CPUIDLE_SYSFS "/current_governor", name);
}

/*
 * cpu0's (all CPUs share the driver), as the record file keeps it: for the
 * aggregate's cross-check and the models' state choices.
 */
int sysfs_read_state_table(struct idlescope_state *states)
{
	char path[128], buf[64];
	int nr;

	memset(states, 0, sizeof(*states) * IDLESCOPE_MAX_STATES);
	for (nr = 0; nr < IDLESCOPE_MAX_STATES; nr++) {
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/residency", nr);
		if (sysfs_read_line(path, buf, sizeof(buf)))
			break;
		states[nr].target_residency_ns = strtoull(buf, NULL, 10) * 1000;
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/latency", nr);
		if (sysfs_read_line(path, buf, sizeof(buf)))
			break;
		states[nr].exit_latency_ns = strtoull(buf, NULL, 10) * 1000;
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/disable", nr);
		states[nr].disabled = !sysfs_read_line(path, buf, sizeof(buf)) && buf[0] == '1';
		/* The core's poll state is the only one named POLL. */
		snprintf(path, sizeof(path), STATE_SYSFS "/state%d/name", nr);
		states[nr].polling = !sysfs_read_line(path, buf, sizeof(buf)) &&
				     !strcmp(buf, "POLL");
	}
	return nr;
}

/* The sum of every CPU's stateN/@counter. */
static __u64 counter_sum(int nr_cpus, const char *counter)
{
	char path[128], buf[32];
	__u64 sum = 0;
	int cpu, state;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (state = 0; state < IDLESCOPE_MAX_STATES; state++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s", cpu, state,
				 counter);
			if (sysfs_read_line(path, buf, sizeof(buf)))
				break;
			sum += strtoull(buf, NULL, 10);
		}
	}
	return sum;
}

void sysfs_read_counts(int nr_cpus, struct sysfs_counts *counts)
{
	counts->usage = counter_sum(nr_cpus, "usage");
	counts->above = counter_sum(nr_cpus, "above");
	counts->below = counter_sum(nr_cpus, "below");
}
