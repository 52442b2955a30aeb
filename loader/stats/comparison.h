/* SPDX-License-Identifier: GPL-2.0 */
/*
 * comparison.h - what changed from side A to side B, and whether the
 * change is more than noise: the statistics of `idlescope compare`.
 *
 * Every headline share (stats/shares.h) of every workload x governor, in
 * both views of the periods, and each model's within 2x (raw view), is a
 * row: A's share, B's share, B - A with its 95% interval and a p-value.
 *
 * The design decides the test.  Two sides whose boots are the same boots
 * (two governors of one run: --pair) or the same seeds (one run of the
 * same seeds on each of two kernels) are paired: each pair's B - A is one
 * observation and the mean difference has a t interval and a t test of
 * K - 1 degrees of freedom (stats/paired.h), so what a boot or a seed
 * does to both sides cancels.  Other sides are independent: Welch's t
 * over each side's share and its standard error, the interval from the
 * same t and degrees of freedom as the p-value.
 *
 * The gate tests a stated family, the primary rows: per workload, the
 * live governor's within 2x over the raw periods (the 2010 table's unit)
 * and its ideal hit over the logical ones (by the time each state held
 * them: what keeping the tick really cost).  Holm's procedure flags a
 * primary row at a family-wise 5%; every other row is secondary, shown
 * with its interval and unadjusted p-value, never flagged.  A primary row
 * is left untested, and says why, when its workload is host-timed (unless
 * asked), when its boots fall into separate regimes (stats/regimes.h: a
 * mean of two clusters describes no boot), or when it has no test (fewer
 * than two pairs or boots).  Each tested row says the difference its test
 * detects 80% of the time (its minimum detectable effect): the gate's
 * power at this design.
 */
#ifndef __IDLESCOPE_STATS_COMPARISON_H
#define __IDLESCOPE_STATS_COMPARISON_H

#include <stdbool.h>
#include "stats/aggregate.h"
#include "stats/ci.h"
#include "stats/regimes.h"
#include "stats/shares.h"

#define CMP_ALPHA	0.05	/* family-wise, over the primary rows tested */
#define CMP_POWER	0.80	/* of the minimum detectable effect */

enum cmp_design {
	CMP_INDEPENDENT,	/* no boot or seed in common */
	CMP_PAIRED_BY_BOOT,	/* every boot of A is one of B's */
	CMP_PAIRED_BY_SEED,	/* every seed of A is one of B's */
};

extern const char *const cmp_design_names[];

/* Why a row has no test, or none that counts for the gate. */
enum cmp_untested {
	CMP_TESTED,
	CMP_SECONDARY,		/* not in the primary family */
	CMP_ONE_SIDE,		/* a number one side lacks */
	CMP_HOST_TIMED,		/* a host-timed workload's, not asked for */
	CMP_REGIMES,		/* the boots fall into separate regimes */
	CMP_NO_TEST,		/* fewer than two pairs or boots, or no spread known */
};

extern const char *const cmp_untested_names[];

struct cmp_row {
	const char *workload;
	int governor;			/* A's; B's is governor_b */
	int governor_b;
	const char *model;		/* NULL: the live governor's number */
	int metric;			/* enum share_metric */
	int view;			/* enum share_view */
	bool primary;			/* in the gate's family */
	bool host_timed;		/* a host-timed workload's */
	char only_in;			/* 'A' or 'B': a number the other side lacks */
	struct ci_pct a, b;		/* each side's share over its boots */
	struct ci_pct diff;		/* B - A */
	double p_value;			/* NaN: no test */
	double mde_pp;			/* detected 80% of the time; NaN: not tested */
	int nr_pairs;			/* paired designs: pairs behind diff */
	struct regimes regimes_a, regimes_b;	/* independent: each side's boots */
	struct regimes regimes_diff;	/* paired: the pairs' differences */
	enum cmp_untested untested;
	bool flagged, worse;
};

/*
 * One side: its aggregate, and of each of its boots what identifies it (a
 * boot of both sides is the same boot) and its seed.
 */
struct cmp_side {
	const struct agg *agg;
	const char *const *boot_keys;	/* agg_boot() index -> key, "" unknown; NULL: boot ids */
	const int *boot_seeds;		/* agg_boot() index -> seed, -1 unknown; NULL: none */
};

struct cmp_options {
	int pair_a, pair_b;		/* --pair GA:GB, else -1: the same governor */
	bool include_host_timed;
	/* Whether a workload's events are host-timed; NULL: none is. */
	bool (*host_timed)(const void *ctx, const char *workload);
	const void *host_timed_ctx;
};

struct comparison {
	enum cmp_design design;
	int nr_pairs;			/* boots of A paired with one of B's */
	int pair[AGG_MAX_BOOTS];	/* A's boot -> B's, -1 */
	struct cmp_row *rows;
	int nr_rows, nr_alloc;
	int nr_primary, nr_tested, nr_flagged, nr_missing;
	int nr_host_timed;		/* primary rows left untested: host-timed */
	int nr_regimes;			/* primary rows left untested: regimes */
};

/**
 * comparison_run() - every row of A against B, tested and flagged
 * @c: zeroed, filled (comparison_free() it whatever is returned)
 * @a: side A
 * @b: side B
 * @o: the options
 *
 * Return: 0, or -ENOMEM.
 */
int comparison_run(struct comparison *c, const struct cmp_side *a, const struct cmp_side *b,
		   const struct cmp_options *o);

/**
 * comparison_paired_row() - a row's B - A over pairs: its interval, test and regimes
 * @r: the row; its diff, p_value, nr_pairs and regimes_diff are set
 * @a: side A's share per pair (one boot's or seed's ci_result())
 * @b: side B's, in the same order
 * @nr: how many pairs, at most AGG_MAX_BOOTS (more are left out)
 *
 * What comparison_run() does for each row of a paired design once the
 * pairs are found: the paired t over the pairs' differences
 * (stats/paired.h) and whether those differences fall into regimes
 * (stats/regimes.h).  Public so that the gate's power can be simulated
 * through the code the gate runs (tests/unit/stats/test_power.c).
 */
void comparison_paired_row(struct cmp_row *r, const struct ci_pct *a, const struct ci_pct *b,
			   int nr);

/**
 * comparison_flag() - the gate's family tested: each row's verdict
 * @c: a comparison whose rows have their numbers (rows, nr_rows); its
 *	counters (nr_primary, nr_tested, ...) must start at 0
 * @o: the options (host-timed rows)
 *
 * Sets each row's worse, untested, flagged and mde_pp: why a row is left
 * untested, Holm's procedure over the primary rows tested at CMP_ALPHA,
 * each tested row's minimum detectable effect at that family's size.
 * comparison_run() ends with it.
 *
 * Return: 0, or -ENOMEM.
 */
int comparison_flag(struct comparison *c, const struct cmp_options *o);

/**
 * comparison_free() - free the rows of a comparison
 * @c: the comparison; empty again (zeroed)
 */
void comparison_free(struct comparison *c);

/**
 * comparison_fails_gate() - whether a row fails a gate of @fail_above_pp
 * @r: a row of a comparison
 * @fail_above_pp: the gate's points, NaN for no gate
 *
 * Only primary rows gate, host-timed ones not unless they were tested: a
 * row fails when it is worse by more than @fail_above_pp and flagged, or
 * untested for regimes or for want of a test (a gate passes only on what
 * it saw).
 *
 * Return: whether it fails.
 */
bool comparison_fails_gate(const struct cmp_row *r, double fail_above_pp);

/**
 * comparison_nr_failing() - the gate's verdict: how many rows fail it
 * @c: a comparison, its rows flagged (comparison_run())
 * @fail_above_pp: the gate's points, NaN for no gate
 *
 * Return: how many rows comparison_fails_gate(); 0 is a pass.
 */
int comparison_nr_failing(const struct comparison *c, double fail_above_pp);

#endif /* __IDLESCOPE_STATS_COMPARISON_H */
