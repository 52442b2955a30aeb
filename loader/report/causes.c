// SPDX-License-Identifier: GPL-2.0
/*
 * causes.c - why the periods missed and what they cost, in report.txt,
 * summary.md and report.json (see report/causes.h).  The numbers come from
 * stats/why.h; here they are only laid out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/causes.h"
#include "stats/why.h"
#include "governors.h"
#include "format/numbers.h"
#include "report/interval.h"

#define TEXT_INDENT	"    "
/* Wake-up classes a table shows; the rest are summed as "other". */
#define WHY_CLASS_ROWS	(TABLE_MAX_ROWS - 2)

_Static_assert(1 + IDLESCOPE_NR_GOVERNORS <= TABLE_MAX_COLS, "why table columns");

/* The workload x governor's store, summed over CPUs; false when it has none. */
static bool why_of(const struct agg *agg, int workload, int governor, struct why_stats *ws)
{
	return why_sum(agg_why(agg), workload, governor, -1, ws) > 0;
}

/* Exit latency paid per wake-up beyond the oracle's, in us. */
static double latency_added_us(const struct energy_stats *es)
{
	if (!es->periods)
		return NAN;
	return ((double)es->exit_latency_ns - (double)es->oracle_exit_latency_ns) /
	       es->periods / 1000.0;
}

static void set_share(struct table *t, int row, int col, const struct ci_acc *acc)
{
	struct ci_pct r = ci_result(acc);
	char buf[TABLE_CELL_LEN];

	report_fmt_share(buf, sizeof(buf), &r);
	table_set(t, row, col, "%s", buf);
}

/* ---- the headline's energy block --------------------------------------- */

static bool workload_has_energy(const struct agg *agg, int w)
{
	struct why_stats *ws = malloc(sizeof(*ws));
	bool has;

	if (!ws)
		return false;
	has = agg_workload_name(agg, w)[0] && why_of(agg, w, -1, ws) && ws->energy.periods;
	free(ws);
	return has;
}

int why_headline_lines(const struct agg *agg, int budget)
{
	int w, nr = 0, rows;

	if (!why_power(agg_why(agg))->nr_states)
		return 0;
	for (w = 0; w < agg_nr_workloads(agg); w++)
		nr += workload_has_energy(agg, w);
	/* The headline's five tables and this one, a header line each, share the rows. */
	rows = (budget - 9) / 6;
	if (rows > nr)
		rows = nr;
	if (rows > TABLE_MAX_ROWS - 1)
		rows = TABLE_MAX_ROWS - 1;
	return rows > 0 ? 2 + rows : 0;
}

/* "+12.3% +4.1us": energy over the oracle's, latency beyond its per wake-up. */
static void energy_cell(char *buf, size_t size, const struct energy_stats *es)
{
	struct ci_pct r = ci_result(&es->excess_ci);

	if (!es->periods || isnan(r.pct))
		snprintf(buf, size, " ");
	else
		snprintf(buf, size, "%+.1f%% %+.1fus", r.pct, latency_added_us(es));
}

void why_headline_print(FILE *f, const struct agg *agg, int lines)
{
	struct why_stats *ws = malloc(sizeof(*ws));
	int govs[IDLESCOPE_NR_GOVERNORS], nr_govs = 0, g, w, row, shown = 0;
	char buf[TABLE_CELL_LEN];
	struct table t;

	if (lines < 3 || !ws) {
		free(ws);
		return;
	}
	for (g = IDLESCOPE_GOV_NONE + 1; g < IDLESCOPE_NR_GOVERNORS; g++)
		if (why_of(agg, -1, g, ws) && ws->energy.periods)
			govs[nr_govs++] = g;
	fprintf(f, "energy: idle energy over the oracle's, exit latency beyond its, per wake-up\n");
	table_init(&t, 1 + nr_govs);
	table_add_row(&t, "vs oracle");
	for (g = 0; g < nr_govs; g++)
		table_set(&t, 0, 1 + g, "%s", governor_name(govs[g]));
	for (w = 0; w < agg_nr_workloads(agg) && shown < lines - 2; w++) {
		if (!workload_has_energy(agg, w))
			continue;
		shown++;
		row = table_add_row(&t, fmt_workload_label(agg_workload_name(agg, w)));
		for (g = 0; g < nr_govs; g++) {
			if (why_of(agg, w, govs[g], ws))
				energy_cell(buf, sizeof(buf), &ws->energy);
			else
				snprintf(buf, sizeof(buf), " ");
			table_set(&t, row, 1 + g, "%s", buf);
		}
	}
	table_print_text(f, &t, "", 14, 11);
	free(ws);
}

void why_print_method(FILE *f, const struct agg *agg)
{
	const struct power_table *pt = why_power(agg_why(agg));

	fprintf(f, "  ended by: the first interrupt handler that ran in the period (the tick, an\n"
		"    hrtimer, an IPI, a device), or a wake-up that needed no IPI (docs/wakeup.md);\n"
		"    teo's view: a timer ended it (hit) or something earlier did (intercept).\n"
		"  tick: stop wasted = select stopped it and the period ended before the next\n"
		"    tick; needless = select kept it and the tick ended the period with nothing\n"
		"    to run.\n"
		"  energy: power x residency + exit energy per period, power table %s;\n"
		"    the oracle: each period's cheapest state in hindsight (docs/power-table.md).\n",
		pt->nr_states ? pt->source : "none");
}

/* ---- a workload across governors ---------------------------------------- */

void report_why_table(const struct agg *agg, const struct report_workload_view *view,
		      struct table *t)
{
	static const char *const rows[] = {
		"intercepts %", "tick stop wasted %", "tick needless %", "energy +% vs oracle",
		"latency +us/wake", "shallower time %",
	};
	struct why_stats *ws = malloc(sizeof(*ws));
	const struct energy_stats *es;
	int g, r, col;

	table_init(t, 1 + view->nr_governors);
	table_add_row(t, "why / cost");
	for (r = 0; r < (int)(sizeof(rows) / sizeof(rows[0])); r++)
		table_add_row(t, rows[r]);
	for (g = 0; g < view->nr_governors && ws; g++) {
		col = 1 + g;
		table_set(t, 0, col, "%s", governor_name(view->governors[g]));
		if (!why_of(agg, view->workload, view->governors[g], ws))
			continue;
		es = &ws->energy;
		set_share(t, 1, col, &ws->intercept_ci);
		set_share(t, 2, col, &ws->tick.stopped_short_ci);
		set_share(t, 3, col, &ws->tick.kept_needless_ci);
		set_share(t, 4, col, &es->excess_ci);
		if (es->periods) {
			table_set(t, 5, col, "%+.1f", latency_added_us(es));
			table_set(t, 6, col, "%.1f", fmt_percent(es->shallow_ns, es->idle_ns));
		} else {
			table_set(t, 5, col, "-");
			table_set(t, 6, col, "-");
		}
	}
	free(ws);
}

/* ---- one workload x governor --------------------------------------------- */

/* Class indices by periods, most first; returns how many have periods. */
static int classes_by_periods(const struct agg *agg, const struct why_stats *ws, int *order)
{
	int n = 0, i, j, tmp;

	for (i = 0; i < why_nr_classes(agg_why(agg)); i++)
		if (ws->cls[i].periods)
			order[n++] = i;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && ws->cls[order[j]].periods > ws->cls[order[j - 1]].periods; j--) {
			tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	return n;
}

static void wake_row(struct table *t, int row, const struct wake_score *sc, __u64 known)
{
	table_set(t, row, 1, "%llu", (unsigned long long)sc->periods);
	table_set(t, row, 2, "%.1f", fmt_percent(sc->periods, known));
	table_set(t, row, 3, "%.1f", fmt_percent(sc->resched, sc->periods));
	if (sc->predicted)
		set_share(t, row, 4, &sc->within_2x_ci);
	else
		table_set(t, row, 4, "-");
	if (sc->ideal_scored) {
		set_share(t, row, 5, &sc->ideal_hit_ci);
		table_set(t, row, 6, "%.1f", fmt_percent(sc->too_deep, sc->ideal_scored));
		table_set(t, row, 7, "%.1f", fmt_percent(sc->too_shallow, sc->ideal_scored));
	} else {
		table_set(t, row, 5, "-");
		table_set(t, row, 6, "-");
		table_set(t, row, 7, "-");
	}
	table_set(t, row, 8, "%.1f", fmt_percent(sc->miss_above, sc->periods));
	table_set(t, row, 9, "%.1f", fmt_percent(sc->miss_below, sc->periods));
}

static void print_wake_table(FILE *f, const struct agg *agg, const struct why_stats *ws)
{
	static const char *const header[] = {
		"ended by", "periods", "%", "resched %", "within 2x", "ideal hit", "deep %",
		"shallow %", "above %", "below %",
	};
	int order[WAKE_MAX_CLASSES], n = classes_by_periods(agg, ws, order), i, row, c;
	struct wake_score other = {};
	char label[TABLE_CELL_LEN];
	struct table t;

	table_init(&t, sizeof(header) / sizeof(header[0]));
	table_add_row(&t, header[0]);
	for (c = 1; c < (int)(sizeof(header) / sizeof(header[0])); c++)
		table_set(&t, 0, c, "%s", header[c]);
	for (i = 0; i < n; i++) {
		if (i >= WHY_CLASS_ROWS) {
			other.periods += ws->cls[order[i]].periods;
			continue;
		}
		wake_class_label(why_class(agg_why(agg), order[i]), label, sizeof(label));
		row = table_add_row(&t, label);
		wake_row(&t, row, &ws->cls[order[i]], ws->wake_known);
	}
	other.periods += ws->other_periods;
	if (other.periods) {
		row = table_add_row(&t, "other");
		table_set(&t, row, 1, "%llu", (unsigned long long)other.periods);
		table_set(&t, row, 2, "%.1f", fmt_percent(other.periods, ws->wake_known));
	}
	table_print_text(f, &t, TEXT_INDENT, 8, 7);
}

static void print_share_of(FILE *f, const struct ci_acc *acc)
{
	struct ci_pct r = ci_result(acc);
	char buf[TABLE_CELL_LEN];

	report_fmt_share(buf, sizeof(buf), &r);
	fprintf(f, "%s%%", buf);
}

static void print_tick(FILE *f, const struct tick_stats *ts)
{
	fprintf(f, "  tick: select stopped it on %llu periods: ", (unsigned long long)ts->stopped);
	print_share_of(f, &ts->stopped_short_ci);
	fprintf(f, " ended before the next tick (stopping for nothing)\n"
		"        kept it on %llu: ", (unsigned long long)ts->kept);
	print_share_of(f, &ts->kept_needless_ci);
	fprintf(f, " woken by the tick with nothing to run (needless wake-ups)");
	if (ts->kept_unknown)
		fprintf(f, "; %llu kept without a known end", (unsigned long long)ts->kept_unknown);
	fputc('\n', f);
}

static void print_energy(FILE *f, const struct agg *agg, const struct energy_stats *es)
{
	if (!es->periods) {
		fprintf(f, "  energy: %s\n", why_power(agg_why(agg))->nr_states ?
			"no period in a state of the power table" :
			"no power table for these states (idlescope report --power FILE)");
		return;
	}
	fprintf(f, "  energy: %.1f uJ in its states, %.1f uJ in the oracle's: ",
		energy_fj_to_uj(es->energy_fj), energy_fj_to_uj(es->oracle_fj));
	print_share_of(f, &es->excess_ci);
	fprintf(f, " more\n          exit latency %.2f us per wake-up, the oracle's %.2f us (%+.2f us);"
		" shallower than\n          the oracle's state on %.1f%% of idle time (%llu periods),"
		" deeper on %llu periods\n",
		(double)es->exit_latency_ns / es->periods / 1000.0,
		(double)es->oracle_exit_latency_ns / es->periods / 1000.0, latency_added_us(es),
		fmt_percent(es->shallow_ns, es->idle_ns), (unsigned long long)es->shallower,
		(unsigned long long)es->deeper);
}

void report_print_why(FILE *f, const struct agg *agg, int workload, int governor)
{
	struct why_stats *ws = malloc(sizeof(*ws));

	if (!ws || !why_of(agg, workload, governor, ws)) {
		free(ws);
		return;
	}
	if (ws->wake_known) {
		fprintf(f, "\n  what ended the periods, all CPUs: %% of the %llu periods with a known end;\n"
			"  within 2x: of predictions; ideal, deep, shallow: of periods (the ideal state);\n"
			"  above, below: the kernel's cpu_idle_miss; resched: a task was woken\n",
			(unsigned long long)ws->wake_known);
		print_wake_table(f, agg, ws);
		fprintf(f, "  teo's view: a timer ended %.1f%% (hits), something earlier ",
			fmt_percent(ws->hits, ws->hits + ws->intercepts));
		print_share_of(f, &ws->intercept_ci);
		fprintf(f, " (intercepts), of %llu periods\n",
			(unsigned long long)(ws->hits + ws->intercepts));
	} else {
		fprintf(f, "\n  what ended the periods: not recorded (no wake-up sources)\n");
	}
	print_tick(f, &ws->tick);
	print_energy(f, agg, &ws->energy);
	free(ws);
}

/* ---- report.json ----------------------------------------------------------- */

static void json_share(struct json *j, const char *key, const struct ci_acc *acc)
{
	struct ci_pct r = ci_result(acc);

	report_json_ci(j, key, &r);
}

static void json_power_table(struct json *j, const struct power_table *pt)
{
	int i;

	if (!pt->nr_states) {
		json_number(j, "power_table", NAN);
		return;
	}
	json_object(j, "power_table", false);
	json_str(j, "source", pt->source);
	json_array(j, "states", false);
	for (i = 0; i < pt->nr_states; i++) {
		json_object(j, NULL, true);
		json_int(j, "state", i);
		json_str(j, "name", pt->states[i].name);
		json_number(j, "power_mw", pt->states[i].power_uw / 1e3);
		json_number(j, "exit_energy_uj", pt->states[i].exit_energy_fj / 1e9);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void json_wakeups(struct json *j, const struct agg *agg, const struct why_stats *ws)
{
	char label[WAKE_LABEL_LEN + WAKE_NAME_LEN], number[16];
	const struct wake_class *cls;
	const char *source;
	int i;

	json_array(j, "wakeups", false);
	for (i = 0; i < why_nr_classes(agg_why(agg)); i++) {
		const struct wake_score *sc = &ws->cls[i];

		if (!sc->periods)
			continue;
		cls = why_class(agg_why(agg), i);
		wake_class_label(cls, label, sizeof(label));
		json_object(j, NULL, false);
		json_str(j, "ended_by", label);
		source = wake_source_name(cls->source);
		if (!source) {
			snprintf(number, sizeof(number), "%u", cls->source);
			source = number;
		}
		json_str(j, "source", source);
		json_u64(j, "periods", sc->periods);
		json_u64(j, "residency_ns", sc->residency_ns);
		json_u64(j, "resched", sc->resched);
		json_u64(j, "predicted", sc->predicted);
		json_u64(j, "within_2x_samples", sc->within_2x);
		json_share(j, "within_2x", &sc->within_2x_ci);
		json_u64(j, "ideal_samples", sc->ideal_scored);
		json_u64(j, "ideal_hit_samples", sc->ideal_hit);
		json_u64(j, "too_deep_samples", sc->too_deep);
		json_u64(j, "too_shallow_samples", sc->too_shallow);
		json_share(j, "ideal_hit", &sc->ideal_hit_ci);
		json_u64(j, "miss_above_samples", sc->miss_above);
		json_u64(j, "miss_below_samples", sc->miss_below);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_tick(struct json *j, const struct tick_stats *ts)
{
	json_object(j, "tick", false);
	json_u64(j, "stopped", ts->stopped);
	json_u64(j, "stopped_short", ts->stopped_short);
	json_share(j, "stopped_short_share", &ts->stopped_short_ci);
	json_u64(j, "kept", ts->kept);
	json_u64(j, "kept_needless", ts->kept_needless);
	json_share(j, "kept_needless_share", &ts->kept_needless_ci);
	json_u64(j, "kept_unknown", ts->kept_unknown);
	json_object_end(j);
}

static void json_energy(struct json *j, const struct energy_stats *es)
{
	if (!es->periods) {
		json_number(j, "energy", NAN);
		return;
	}
	json_object(j, "energy", false);
	json_u64(j, "periods", es->periods);
	json_number(j, "energy_uj", energy_fj_to_uj(es->energy_fj));
	json_number(j, "oracle_energy_uj", energy_fj_to_uj(es->oracle_fj));
	json_share(j, "excess", &es->excess_ci);
	json_u64(j, "exit_latency_ns", es->exit_latency_ns);
	json_u64(j, "oracle_exit_latency_ns", es->oracle_exit_latency_ns);
	json_u64(j, "idle_ns", es->idle_ns);
	json_u64(j, "shallow_idle_ns", es->shallow_ns);
	json_u64(j, "shallower", es->shallower);
	json_u64(j, "deeper", es->deeper);
	json_object_end(j);
}

void report_why_json(struct json *j, const struct agg *agg)
{
	struct why_stats *ws = malloc(sizeof(*ws));
	int w, g;

	json_power_table(j, why_power(agg_why(agg)));
	json_array(j, "why", false);
	for (w = 0; w < agg_nr_workloads(agg) && ws; w++) {
		for (g = 0; g < IDLESCOPE_NR_GOVERNORS; g++) {
			if (!why_of(agg, w, g, ws))
				continue;
			json_object(j, NULL, false);
			json_str(j, "workload", agg_workload_name(agg, w));
			json_str(j, "governor", governor_name(g));
			json_u64(j, "periods", ws->periods);
			json_u64(j, "wake_known", ws->wake_known);
			json_u64(j, "hits", ws->hits);
			json_u64(j, "intercepts", ws->intercepts);
			json_share(j, "intercept_share", &ws->intercept_ci);
			json_wakeups(j, agg, ws);
			json_u64(j, "other_periods", ws->other_periods);
			json_tick(j, &ws->tick);
			json_energy(j, &ws->energy);
			json_object_end(j);
		}
	}
	json_array_end(j);
	free(ws);
}
