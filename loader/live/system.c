// SPDX-License-Identifier: GPL-2.0
/*
 * system.c - what a live run reads of the system it runs on for its
 * report: the kernel's HZ, the cpuidle driver and the clock the VM runner
 * put on the kernel command line (see system.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "recfile.h"
#include "live/insnrate.h"
#include "live/system.h"
#include "live/sysfs.h"

#define CPUIDLE_DRIVER_SYSFS	"/sys/devices/system/cpu/cpuidle/current_driver"
#define CMDLINE_CLOCK		"idlescope.clock="
#define CMDLINE_CLOCK_ARGS	"idlescope.clock_args="
#define EXIT_DELAY_PARAM	"/sys/module/idlescope_states/parameters/exit_delay"
#define EXIT_SPREAD_PARAM	"/sys/module/idlescope_states/parameters/exit_spread"
#define BOOT_ID_PROC		"/proc/sys/kernel/random/boot_id"

/* CONFIG_HZ of a kernel config, plain or gzipped (gzread reads both). */
static unsigned int config_hz(const char *path)
{
	gzFile gz = gzopen(path, "rb");
	unsigned int hz = 0;
	char line[256];

	if (!gz)
		return 0;
	while (!hz && gzgets(gz, line, sizeof(line)))
		if (!strncmp(line, "CONFIG_HZ=", 10))
			hz = strtoul(line + 10, NULL, 10);
	gzclose(gz);
	return hz;
}

static unsigned int kernel_hz(const char *release)
{
	char path[128];
	unsigned int hz;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	hz = config_hz(path);
	return hz ? hz : config_hz("/proc/config.gz");
}

static int base64_value(char c)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(digits, c) : NULL;

	return p ? p - digits : -1;
}

/* Decode base64 @in into out[size] (NUL-terminated); -1 if not base64 or too long. */
static int base64_decode(const char *in, char *out, size_t size)
{
	unsigned int bits = 0, nr_bits = 0;
	size_t len = 0;
	int v;

	for (; *in && *in != '='; in++) {
		v = base64_value(*in);
		if (v < 0)
			return -1;
		bits = (bits << 6 | v) & 0xffffff;
		nr_bits += 6;
		if (nr_bits >= 8) {
			nr_bits -= 8;
			if (len + 1 >= size)
				return -1;
			out[len++] = bits >> nr_bits;
		}
	}
	out[len] = '\0';
	return 0;
}

static void read_clock(struct run_meta *meta)
{
	char cmdline[4096], *tok, *save;

	if (sysfs_read_line("/proc/cmdline", cmdline, sizeof(cmdline)))
		return;
	for (tok = strtok_r(cmdline, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strncmp(tok, CMDLINE_CLOCK, strlen(CMDLINE_CLOCK)))
			snprintf(meta->clock_mode, sizeof(meta->clock_mode), "%s",
				 tok + strlen(CMDLINE_CLOCK));
		else if (!strncmp(tok, CMDLINE_CLOCK_ARGS, strlen(CMDLINE_CLOCK_ARGS)) &&
			 base64_decode(tok + strlen(CMDLINE_CLOCK_ARGS), meta->clock_args,
				       sizeof(meta->clock_args)))
			snprintf(meta->clock_args, sizeof(meta->clock_args), "(not base64)");
	}
}

/*
 * idlescope_states' exit_delay and exit_spread: "Y" or "N"; no module, no
 * answer; a module without exit_spread spends the declared latency.
 */
static unsigned int read_exit_cost(void)
{
	char value[8];

	if (sysfs_read_line(EXIT_DELAY_PARAM, value, sizeof(value)))
		return RECFILE_EXIT_COST_UNKNOWN;
	if (value[0] != 'Y')
		return RECFILE_EXIT_COST_OFF;
	if (!sysfs_read_line(EXIT_SPREAD_PARAM, value, sizeof(value)) && value[0] == 'Y')
		return RECFILE_EXIT_COST_SPREAD;
	return RECFILE_EXIT_COST_ON;
}

void live_read_system(struct run_meta *meta)
{
	meta->hz = kernel_hz(meta->kernel_release);
	/* The core says "none" when no driver registered. */
	if (sysfs_read_line(CPUIDLE_DRIVER_SYSFS, meta->cpuidle_driver,
			    sizeof(meta->cpuidle_driver)) ||
	    !strcmp(meta->cpuidle_driver, "none"))
		meta->cpuidle_driver[0] = '\0';
	read_clock(meta);
	meta->exit_cost = read_exit_cost();
	run_meta_note_insn_ps(meta, insnrate_measure_ps());
	if (sysfs_read_line(BOOT_ID_PROC, meta->boot_id, sizeof(meta->boot_id)))
		meta->boot_id[0] = '\0';
}
