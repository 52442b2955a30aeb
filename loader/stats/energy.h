/* SPDX-License-Identifier: GPL-2.0 */
/*
 * energy.h - what an idle period cost: a per-state power table (power while
 * in the state, energy of one entry and exit), the energy of a period in a
 * state, and the oracle, the state of least energy for the period as it
 * turned out.
 *
 * The model, per period of r until its wake-up (stats/period.h) in state s:
 *	E(s, r) = power[s] * r + exit_energy[s]
 * where exit_energy[s] is everything one entry and exit of s costs, its
 * exit latency's time included: the exit is the price of the choice, not
 * part of the period, so a state too deep cannot buy itself a longer
 * period to be judged on.
 * in integers, exactly: power in uW times r in ns is fJ, exit energies
 * are kept in fJ (a file gives mW and uJ, read to 3 and 9 decimals).
 * The oracle picks, with hindsight, the state of least
 * E among those the governor could have picked (enabled, exit latency
 * within the PM QoS limit select used when it is known), ties to the
 * deeper; the governor's own state is one of them, so the oracle never
 * spends more on a period than the governor did.
 *
 * The default table (power_table_default()) belongs to idlescope_states'
 * default Skylake table: round powers, and exit energies chosen so that
 * each state's break-even residency against the one before it is its
 * target residency.  With it, the oracle's state is agg_ideal_state()'s.
 * The numbers are a model, not a measurement: a measured table goes in a
 * file (docs/power-table.md) given to `idlescope report --power FILE`.
 *
 * Pure C: no libbpf.
 */
#ifndef __IDLESCOPE_STATS_ENERGY_H
#define __IDLESCOPE_STATS_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "idlescope.h"

#define POWER_NAME_LEN		16	/* a state's name, with its NUL */
#define POWER_SOURCE_LEN	96	/* where the table came from */

/* Bounds that keep a period's energy (10 s at most) inside 64 bits. */
#define POWER_MAX_UW		100000000ULL	/* 100 W */
#define POWER_MAX_EXIT_FJ	1000000000000000ULL	/* 1 J */

typedef unsigned __int128 energy_fj_t;		/* sums of fJ */

struct power_state {
	char name[POWER_NAME_LEN];
	__u64 power_uw;			/* while in the state */
	__u64 exit_energy_fj;		/* per entry and exit */
};

struct power_table {
	int nr_states;			/* 0: no table */
	struct power_state states[IDLESCOPE_MAX_STATES];
	char source[POWER_SOURCE_LEN];	/* "default (...)" or the file's path */
};

/**
 * power_table_parse() - read a power table from its text
 * @text: the file's contents (docs/power-table.md): one line per state
 *	in index order, "NAME POWER_MW EXIT_ENERGY_UJ", '#' starts a comment
 * @table: filled on success
 * @err: a one-line reason on failure ("line 3: ...")
 * @err_size: of @err
 *
 * Return: 0, or -EINVAL with @err set.
 */
int power_table_parse(const char *text, struct power_table *table,
		      char *err, size_t err_size);

/**
 * power_table_load() - power_table_parse() of a file
 * @path: the file, a regular one (a FIFO would block, a directory reads
 *	as an I/O error: both are refused)
 * @table: filled on success, its source set to @path, escaped
 *	(format/escape.h: it is printed)
 * @err: a one-line reason on failure, naming @path escaped
 * @err_size: of @err
 *
 * Return: 0, or -errno / -EINVAL with @err set.
 */
int power_table_load(const char *path, struct power_table *table,
		     char *err, size_t err_size);

/**
 * power_table_default() - the default table, if it fits the states
 * @states: the state table the records were taken with
 * @nr_states: how many
 * @table: the default table when it returns true, else emptied
 *
 * Return: true when @states are POLL and idlescope_states' default table
 * (idlescope_states_table.h), the states the default was made for.
 */
bool power_table_default(const struct idlescope_state *states, int nr_states,
			 struct power_table *table);

/**
 * power_table_check() - whether a table fits a state table
 * @table: the power table
 * @nr_states: the records' number of states
 * @err: why not, one line
 * @err_size: of @err
 *
 * Return: 0, or -EINVAL when the numbers of states differ.
 */
int power_table_check(const struct power_table *table, int nr_states,
		      char *err, size_t err_size);

/**
 * energy_of_period_fj() - the energy of one period in one state
 * @state: the state's power entry
 * @residency_ns: how long the period lasted until its wake-up
 *
 * Return: power * residency + exit energy, in fJ, exactly.
 */
static inline energy_fj_t energy_of_period_fj(const struct power_state *state,
					      __u64 residency_ns)
{
	return (energy_fj_t)state->power_uw * residency_ns + state->exit_energy_fj;
}

/**
 * energy_fj_to_uj() - an energy sum in uJ, for printing
 * @fj: the sum in fJ
 *
 * Sums stay exact integers in fJ; only the printed value is rounded.
 *
 * Return: @fj / 10^9, as a double.
 */
static inline double energy_fj_to_uj(energy_fj_t fj)
{
	return (double)fj * 1e-9;
}

/**
 * energy_oracle_state() - the state of least energy for a period, in hindsight
 * @table: the power table
 * @states: the state table (enabled states, exit latencies)
 * @nr_states: how many; states beyond @table's are not candidates
 * @residency_ns: how long the period lasted until its wake-up
 * @latency_req_ns: the PM QoS limit select used, or
 *	IDLESCOPE_LATENCY_REQ_UNKNOWN for none known
 *
 * Return: the enabled state within @latency_req_ns of least
 * energy_of_period_fj(), the deeper one of equals; -1 when none is.
 */
int energy_oracle_state(const struct power_table *table,
			const struct idlescope_state *states, int nr_states,
			__u64 residency_ns, __s64 latency_req_ns);

#endif /* __IDLESCOPE_STATS_ENERGY_H */
