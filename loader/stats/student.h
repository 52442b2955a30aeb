/* SPDX-License-Identifier: GPL-2.0 */
/*
 * student.h - Student's t distribution, the one place of it: the two-sided
 * 95% quantile that every interval over boots uses, and the two-sided tail
 * probability that every test of a difference uses, so that an interval
 * and its test always agree (a difference whose 95% interval excludes 0
 * has a p-value below 0.05, with the same degrees of freedom).
 */
#ifndef __IDLESCOPE_STATS_STUDENT_H
#define __IDLESCOPE_STATS_STUDENT_H

/**
 * student_t95() - the two-sided 95% quantile of Student's t
 * @df: degrees of freedom
 *
 * Return: the quantile (from a table for small @df, else the
 * Cornish-Fisher expansion in 1/@df); NaN for @df 0.
 */
double student_t95(unsigned int df);

/**
 * student_two_sided_p() - P(|T| >= |t|) for Student's t
 * @t: the statistic
 * @df: degrees of freedom, > 0 (fractional, as Welch's)
 *
 * Return: the two-sided tail probability, by the regularized incomplete
 * beta function I_x(df / 2, 1 / 2) at x = df / (df + t^2).
 */
double student_two_sided_p(double t, double df);

/**
 * student_quantile() - the t exceeded, in absolute value, with probability @p
 * @p: the two-sided tail probability, 0 < @p < 1
 * @df: degrees of freedom, > 0
 *
 * Return: t with student_two_sided_p(t, @df) = @p (by bisection, to 1e-9).
 */
double student_quantile(double p, double df);

#endif /* __IDLESCOPE_STATS_STUDENT_H */
