// SPDX-License-Identifier: GPL-2.0
/*
 * energy.c - power tables and the energy oracle (see stats/energy.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/energy.h"
#include "format/escape.h"
#include "infile.h"
#include "idlescope_states_table.h"

/*
 * The default table, for POLL and idlescope_states' default (Skylake
 * client) states, in the file format.  Powers are round numbers that
 * fall with depth; each exit energy is the one before it plus the
 * difference of the two powers times the state's target residency, so
 * the two states cost the same exactly at the target residency:
 * C1E's 3.4 uJ = 1.4 uJ + (300 - 200) mW * 20 us.  C7s and C9 share their
 * target residency with a deeper state (C8, C10) that is cheaper beyond
 * it, as the ideal state (agg_ideal_state()) takes the deeper one.
 */
static const char default_table[] =
	"# state  power_mW  exit_energy_uJ\n"
	"POLL     1000      0\n"
	"C1       300       1.4\n"
	"C1E      200       3.4\n"
	"C3       100       13.4\n"
	"C6       50        23.4\n"
	"C7s      25        43.4\n"
	"C8       20        47.4\n"
	"C9       10        97.4\n"
	"C10      5         122.4\n";

/*
 * A decimal number with at most @decimals digits after the point, times
 * 10^@decimals, at most @max: exact, no floating point.  NULL, or what is
 * wrong.
 */
static const char *parse_fixed(const char *s, int decimals, __u64 max, __u64 *out)
{
	__u64 v = 0;
	int i, frac = 0;

	if (!isdigit((unsigned char)*s))
		return "is not a non-negative number";
	for (; isdigit((unsigned char)*s); s++) {
		if (v > max / 10)
			return "is too large";
		v = v * 10 + (*s - '0');
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, frac++) {
			if (frac == decimals)
				return "has too many decimals";
			if (v > max / 10)
				return "is too large";
			v = v * 10 + (*s - '0');
		}
	}
	if (*s)
		return "is not a non-negative number";
	for (i = frac; i < decimals; i++) {
		if (v > max / 10)
			return "is too large";
		v *= 10;
	}
	if (v > max)
		return "is too large";
	*out = v;
	return NULL;
}

/* One "NAME POWER_MW EXIT_ENERGY_UJ" line into @st: NULL, or what is wrong. */
static const char *parse_line(char *line, struct power_state *st)
{
	char *name, *power, *energy, *extra, *save;

	name = strtok_r(line, " \t", &save);
	power = strtok_r(NULL, " \t", &save);
	energy = strtok_r(NULL, " \t", &save);
	extra = strtok_r(NULL, " \t", &save);
	if (!energy || extra)
		return "expected NAME POWER_MW EXIT_ENERGY_UJ";
	if (strlen(name) >= POWER_NAME_LEN)
		return "state name too long";
	if (parse_fixed(power, 3, POWER_MAX_UW, &st->power_uw))
		return "power (mW) is not a number from 0 to 100000 with at most 3 decimals";
	if (parse_fixed(energy, 9, POWER_MAX_EXIT_FJ, &st->exit_energy_fj))
		return "exit energy (uJ) is not a number from 0 to 1000000 with at most 9 decimals";
	snprintf(st->name, sizeof(st->name), "%s", name);
	return NULL;
}

int power_table_parse(const char *text, struct power_table *table,
		      char *err, size_t err_size)
{
	char *copy = strdup(text), *line, *next, *hash;
	const char *why = NULL;
	int line_nr = 0;

	memset(table, 0, sizeof(*table));
	if (!copy) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (line = copy; line && !why; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line_nr++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (!line[strspn(line, " \t\r")])
			continue;
		line[strcspn(line, "\r")] = '\0';
		if (table->nr_states == IDLESCOPE_MAX_STATES)
			why = "more states than a cpuidle driver has (10)";
		else
			why = parse_line(line, &table->states[table->nr_states++]);
	}
	free(copy);
	if (!why && !table->nr_states) {
		why = "no state";
		line_nr = 0;
	}
	if (why) {
		if (line_nr)
			snprintf(err, err_size, "line %d: %s", line_nr, why);
		else
			snprintf(err, err_size, "%s", why);
		table->nr_states = 0;
		return -EINVAL;
	}
	return 0;
}

#define POWER_FILE_MAX	65536

int power_table_load(const char *path, struct power_table *table,
		     char *err, size_t err_size)
{
	char text[POWER_FILE_MAX + 1], why[128], shown[ESCAPE_SIZE(64)];
	const char *what;
	FILE *f;
	size_t len;
	int ret;

	/* The path as every message and the report give it: one line. */
	escape_name(shown, sizeof(shown), path, SIZE_MAX);
	f = infile_open(path, NULL, &what);
	if (!f) {
		ret = -errno;
		snprintf(err, err_size, "%s: %s", shown, what);
		return ret;
	}
	len = fread(text, 1, sizeof(text), f);
	ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!ret && len > POWER_FILE_MAX)
		ret = -EFBIG;
	if (ret) {
		snprintf(err, err_size, "%s: %s", shown, strerror(-ret));
		return ret;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		snprintf(err, err_size, "%s: not a text file (a NUL byte)", shown);
		return -EINVAL;
	}
	ret = power_table_parse(text, table, why, sizeof(why));
	if (ret) {
		snprintf(err, err_size, "%s: %s", shown, why);
		return ret;
	}
	escape_name(table->source, sizeof(table->source), path, SIZE_MAX);
	return 0;
}

/* POLL, then IDLESCOPE_STATES_DEFAULT's NAME:EXIT_US:TARGET_US entries. */
static bool is_default_state_table(const struct idlescope_state *states, int nr_states)
{
	const char *entry = IDLESCOPE_STATES_DEFAULT;
	unsigned int exit_us, target_us;
	int i = 1, len;

	if (nr_states < 1 || !states[0].polling)
		return false;
	while (sscanf(entry, "%*[^:,]:%u:%u%n", &exit_us, &target_us, &len) == 2) {
		if (i >= nr_states || states[i].polling ||
		    states[i].exit_latency_ns != exit_us * 1000ULL ||
		    states[i].target_residency_ns != target_us * 1000ULL)
			return false;
		i++;
		entry += len;
		if (*entry++ != ',')
			break;
	}
	return i == nr_states;
}

bool power_table_default(const struct idlescope_state *states, int nr_states,
			 struct power_table *table)
{
	char err[128];

	memset(table, 0, sizeof(*table));
	if (!is_default_state_table(states, nr_states) ||
	    power_table_parse(default_table, table, err, sizeof(err)))
		return false;
	snprintf(table->source, sizeof(table->source),
		 "default (idlescope_states' Skylake table, a model: docs/power-table.md)");
	return true;
}

int power_table_check(const struct power_table *table, int nr_states,
		      char *err, size_t err_size)
{
	if (table->nr_states == nr_states)
		return 0;
	snprintf(err, err_size, "%s has %d states, the records %d", table->source,
		 table->nr_states, nr_states);
	return -EINVAL;
}

int energy_oracle_state(const struct power_table *table,
			const struct idlescope_state *states, int nr_states,
			__u64 residency_ns, __s64 latency_req_ns)
{
	energy_fj_t best_fj = 0, fj;
	int i, best = -1;

	for (i = 0; i < nr_states && i < table->nr_states; i++) {
		if (states[i].disabled)
			continue;
		if (latency_req_ns != IDLESCOPE_LATENCY_REQ_UNKNOWN &&
		    (__s64)states[i].exit_latency_ns > latency_req_ns)
			continue;
		fj = energy_of_period_fj(&table->states[i], residency_ns);
		if (best < 0 || fj <= best_fj) {
			best = i;
			best_fj = fj;
		}
	}
	return best;
}
