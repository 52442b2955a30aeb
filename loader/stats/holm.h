/* SPDX-License-Identifier: GPL-2.0 */
/*
 * holm.h - many differences tested at once, without a false flag in most
 * of them: Holm's step-down procedure over the rows' p-values.
 *
 * `idlescope compare` tests some fifty rows; each at 5% flags at least one
 * of them in most comparisons of two runs that do not differ.  Holm keeps
 * the probability of flagging any row that did not change (the
 * family-wise error) at 5%, which is what a CI gate needs: a false flag
 * fails a pipeline.  Benjamini-Hochberg would control only the expected
 * share of false flags among the flags.  Holm is never less powerful than
 * Bonferroni: the smallest p-value is tested at 5% / m, the next at
 * 5% / (m - 1), and so on, stopping at the first that is not small enough.
 */
#ifndef __IDLESCOPE_STATS_HOLM_H
#define __IDLESCOPE_STATS_HOLM_H

#include <stdbool.h>
#include "stats/ci.h"

/**
 * holm_p_value() - the p-value of a difference of two independent shares
 * @a: side A's share with its interval
 * @b: side B's
 *
 * Two-sided, for the difference ci_diff() gives: Welch's t with
 * Satterthwaite's degrees of freedom from the two sides' standard errors
 * and degrees of freedom.
 *
 * Return: the p-value, or NaN when either side has no interval (nothing
 * to test).
 */
double holm_p_value(const struct ci_pct *a, const struct ci_pct *b);

/**
 * holm_reject() - Holm's step-down procedure over a family of p-values
 * @p: the rows' p-values; NaN: not tested, and not counted in the family
 * @nr: the number of rows
 * @alpha: the family-wise level (0.05)
 * @reject: set for each row: true when it is flagged
 *
 * Without memory to rank the p-values it falls back to Bonferroni (each
 * at @alpha / m), which flags no row Holm would not.
 *
 * Return: how many rows it flags.
 */
int holm_reject(const double *p, int nr, double alpha, bool *reject);

#endif /* __IDLESCOPE_STATS_HOLM_H */
