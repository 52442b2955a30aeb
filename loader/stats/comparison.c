// SPDX-License-Identifier: GPL-2.0
/*
 * comparison.c - the rows of a comparison, their tests and the gate's
 * family (see comparison.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/comparison.h"
#include "stats/holm.h"
#include "stats/paired.h"
#include "stats/student.h"
#include "models/models.h"
#include "replay/inputs.h"

const char *const cmp_design_names[] = {
	[CMP_INDEPENDENT] = "independent",
	[CMP_PAIRED_BY_BOOT] = "paired by boot",
	[CMP_PAIRED_BY_SEED] = "paired by seed",
};

const char *const cmp_untested_names[] = {
	[CMP_TESTED] = "tested",
	[CMP_SECONDARY] = "secondary",
	[CMP_ONE_SIDE] = "one side only",
	[CMP_HOST_TIMED] = "host-timed",
	[CMP_REGIMES] = "regimes",
	[CMP_NO_TEST] = "no test",
};

/* The gate's family: the shares a governor change is judged by. */
static const struct {
	enum share_metric metric;
	enum share_view view;
} primary_family[] = {
	{ SHARE_WITHIN_2X, VIEW_RAW },
	{ SHARE_IDEAL_HIT, VIEW_LOGICAL },
};

static bool in_primary_family(int metric, int view)
{
	unsigned int i;

	for (i = 0; i < sizeof(primary_family) / sizeof(primary_family[0]); i++)
		if ((int)primary_family[i].metric == metric && (int)primary_family[i].view == view)
			return true;
	return false;
}

/* What identifies @side's boot @b, "" unknown. */
static const char *boot_key(const struct cmp_side *side, int b)
{
	return side->boot_keys ? side->boot_keys[b] : agg_boot_id(side->agg, b);
}

/* The seed of @side's boot @b, -1 unknown. */
static int boot_seed(const struct cmp_side *side, int b)
{
	return side->boot_seeds ? side->boot_seeds[b] : -1;
}

/*
 * Every boot of A paired with one of B's by @by_seed (else by boot id):
 * the same boot, or the same seed, each once.  False when one of A's
 * boots has none.
 */
static bool pair_all(struct comparison *c, const struct cmp_side *a, const struct cmp_side *b,
		     bool by_seed)
{
	int i, j, nr_a = agg_nr_boots(a->agg), nr_b = agg_nr_boots(b->agg);
	bool taken[AGG_MAX_BOOTS] = {};

	c->nr_pairs = 0;
	for (i = 0; i < nr_a; i++) {
		c->pair[i] = -1;
		for (j = 0; j < nr_b && c->pair[i] < 0; j++) {
			if (taken[j])
				continue;
			if (by_seed ? boot_seed(a, i) >= 0 && boot_seed(a, i) == boot_seed(b, j) :
			    boot_key(a, i)[0] && !strcmp(boot_key(a, i), boot_key(b, j)))
				c->pair[i] = j;
		}
		if (c->pair[i] < 0)
			return false;
		taken[c->pair[i]] = true;
		c->nr_pairs++;
	}
	return nr_a > 0;
}

static void find_design(struct comparison *c, const struct cmp_side *a,
			const struct cmp_side *b)
{
	if (pair_all(c, a, b, false))
		c->design = CMP_PAIRED_BY_BOOT;
	else if (pair_all(c, a, b, true))
		c->design = CMP_PAIRED_BY_SEED;
	else
		c->design = CMP_INDEPENDENT;
	if (c->design == CMP_INDEPENDENT)
		c->nr_pairs = 0;
}

/* One side's share of a cell over its boots, and each boot's (NaN: none). */
struct side_share {
	bool found;
	struct ci_pct over;
	int nr_boots;
	struct ci_pct *per_boot;	/* nr_boots entries */
};

static int side_share(struct side_share *s, const struct agg *agg, int w, int g, int view,
		      boots_acc_fn of, int arg)
{
	struct boots_cell bc;
	int b;

	memset(s, 0, sizeof(*s));
	if (w < 0)
		return 0;
	s->found = share_cell(agg, w, g, view, &bc);
	s->nr_boots = bc.nr_boots ? bc.nr_boots : 1;
	s->per_boot = calloc(s->nr_boots, sizeof(*s->per_boot));
	if (!s->per_boot) {
		boots_cell_free(&bc);
		return -ENOMEM;
	}
	for (b = 0; b < s->nr_boots; b++)
		s->per_boot[b].pct = NAN;
	if (s->found)
		s->over = boots_cell_share(&bc, of, arg, s->per_boot);
	s->found = s->found && !isnan(s->over.pct);
	boots_cell_free(&bc);
	return 0;
}

/* Welch's difference of two independent shares: one t for interval and test. */
static void independent_diff(struct cmp_row *r)
{
	const struct ci_pct *a = &r->a, *b = &r->b;
	double va, vb, df, t95;

	r->diff = (struct ci_pct){ .pct = b->pct - a->pct, .lo = NAN, .hi = NAN,
				   .half = NAN, .se = NAN, .df = NAN };
	if (isnan(a->se) || isnan(b->se) || isnan(a->df) || isnan(b->df) ||
	    a->df < 1 || b->df < 1)
		return;
	va = a->se * a->se;
	vb = b->se * b->se;
	r->diff.se = sqrt(va + vb);
	df = va + vb > 0 ? (va + vb) * (va + vb) / (va * va / a->df + vb * vb / b->df) :
	     fmin(a->df, b->df);
	r->diff.df = floor(df);
	t95 = student_t95((unsigned int)r->diff.df);
	r->diff.half = t95 * r->diff.se;
	r->diff.lo = r->diff.pct - r->diff.half;
	r->diff.hi = r->diff.pct + r->diff.half;
	if (r->diff.se == 0)
		r->p_value = r->diff.pct == 0 ? 1.0 : 0.0;
	else
		r->p_value = student_two_sided_p(r->diff.pct / r->diff.se, r->diff.df);
}

void comparison_paired_row(struct cmp_row *r, const struct ci_pct *a, const struct ci_pct *b,
			   int nr)
{
	struct ci_pct d[AGG_MAX_BOOTS];
	struct paired_diff pd;
	int i;

	for (i = 0; i < nr && i < AGG_MAX_BOOTS; i++)
		d[i] = (struct ci_pct){ .pct = b[i].pct - a[i].pct,
					.half = hypot(isnan(a[i].half) ? 0 : a[i].half,
						      isnan(b[i].half) ? 0 : b[i].half) };
	pd = paired_diff(a, b, i);
	r->diff = pd.diff;
	r->p_value = pd.p_value;
	r->nr_pairs = i;
	regimes_find(d, i, &r->regimes_diff);
}

/* The pairs' shares: A's boot and the one of B's it is paired with. */
static void paired_row(struct cmp_row *r, const struct comparison *c,
		       const struct side_share *a, const struct side_share *b)
{
	struct ci_pct pa[AGG_MAX_BOOTS], pb[AGG_MAX_BOOTS];
	int i, k = 0;

	for (i = 0; i < a->nr_boots && i < AGG_MAX_BOOTS; i++) {
		int j = c->pair[i];

		if (j < 0 || j >= b->nr_boots || isnan(a->per_boot[i].pct) ||
		    isnan(b->per_boot[j].pct))
			continue;
		pa[k] = a->per_boot[i];
		pb[k++] = b->per_boot[j];
	}
	comparison_paired_row(r, pa, pb, k);
}

static bool row_has_regimes(const struct cmp_row *r)
{
	return r->regimes_a.nr == 2 || r->regimes_b.nr == 2 || r->regimes_diff.nr == 2;
}

static struct cmp_row *new_row(struct comparison *c)
{
	struct cmp_row *rows;

	if (c->nr_rows == c->nr_alloc) {
		c->nr_alloc = c->nr_alloc ? 2 * c->nr_alloc : 64;
		rows = realloc(c->rows, c->nr_alloc * sizeof(*rows));
		if (!rows)
			return NULL;
		c->rows = rows;
	}
	return &c->rows[c->nr_rows++];
}

/* What a row of one cell is about, before its numbers. */
struct row_key {
	const char *workload;
	int wa, wb;			/* each side's workload index, -1: none */
	int ga, gb;
	const char *model;		/* NULL: the live governor's */
	int metric, view;
	boots_acc_fn of;
	int arg;
};

/* The row of @k: both sides' shares, their difference, its test. */
static int add_row(struct comparison *c, const struct cmp_side *A, const struct cmp_side *B,
		   const struct cmp_options *o, const struct row_key *k)
{
	static const struct ci_pct none = { .pct = NAN, .lo = NAN, .hi = NAN, .half = NAN,
					    .se = NAN, .df = NAN };
	struct side_share a = {}, b = {};
	struct cmp_row *r = NULL;
	int err = side_share(&a, A->agg, k->wa, k->ga, k->view, k->of, k->arg);

	if (!err)
		err = side_share(&b, B->agg, k->wb, k->gb, k->view, k->of, k->arg);
	if (err || (!a.found && !b.found))
		goto out;
	r = new_row(c);
	if (!r) {
		err = -ENOMEM;
		goto out;
	}
	*r = (struct cmp_row){
		.workload = k->workload, .governor = k->ga, .governor_b = k->gb,
		.model = k->model, .metric = k->metric, .view = k->view,
		.primary = !k->model && in_primary_family(k->metric, k->view),
		.a = a.found ? a.over : none, .b = b.found ? b.over : none,
		.diff = none, .p_value = NAN, .mde_pp = NAN,
		.host_timed = o->host_timed && o->host_timed(o->host_timed_ctx, k->workload),
	};
	if (!a.found || !b.found) {
		r->only_in = a.found ? 'A' : 'B';
		c->nr_missing++;
		goto out;
	}
	if (c->design == CMP_INDEPENDENT) {
		independent_diff(r);
		regimes_find(a.per_boot, a.nr_boots, &r->regimes_a);
		regimes_find(b.per_boot, b.nr_boots, &r->regimes_b);
	} else {
		paired_row(r, c, &a, &b);
	}
out:
	free(a.per_boot);
	free(b.per_boot);
	return err;
}

/*
 * Whether governor @g's records can hold what model @shadow needs: with
 * --pair, a model the other governor's records cannot feed is no number
 * one side lost.
 */
static bool scorable(int shadow, int g)
{
	unsigned int needed = model_input_masks[shadow];

	return (inputs_of_governor(g) & needed) == needed;
}

/* Every share and model row of one workload, A's governor ga against B's gb. */
static int diff_governors(struct comparison *c, const struct cmp_side *A,
			  const struct cmp_side *B, const struct cmp_options *o,
			  struct row_key *k)
{
	const struct agg *agg = k->wa >= 0 ? A->agg : B->agg;
	int err = 0, s;

	k->model = NULL;
	k->of = share_acc;
	for (k->view = 0; k->view < VIEW_NR && !err; k->view++)
		for (k->metric = 0; k->metric < SHARE_NR_METRICS && !err; k->metric++) {
			k->arg = k->metric;
			err = add_row(c, A, B, o, k);
		}
	k->of = share_model_acc;
	k->metric = SHARE_WITHIN_2X;
	k->view = VIEW_RAW;
	for (s = 0; s < agg_nr_shadows(agg) && !err; s++) {
		if (!scorable(s, k->ga) || !scorable(s, k->gb))
			continue;
		k->model = agg_shadow_name(agg, s);
		k->arg = s;
		err = add_row(c, A, B, o, k);
	}
	return err;
}

/* One workload: the same governor on both sides, or --pair's GA against GB. */
static int diff_workload(struct comparison *c, const struct cmp_side *A,
			 const struct cmp_side *B, const struct cmp_options *o,
			 const char *name, int wa, int wb)
{
	struct row_key k = { .workload = name, .wa = wa, .wb = wb };
	int g, err = 0;

	if (o->pair_a >= 0) {
		k.ga = o->pair_a;
		k.gb = o->pair_b;
		return diff_governors(c, A, B, o, &k);
	}
	for (g = 0; g < IDLESCOPE_NR_GOVERNORS && !err; g++) {
		k.ga = k.gb = g;
		err = diff_governors(c, A, B, o, &k);
	}
	return err;
}

/* A's workloads, each against B's of the same name, then those only B has. */
static int diff_all(struct comparison *c, const struct cmp_side *A, const struct cmp_side *B,
		    const struct cmp_options *o)
{
	const char *name;
	int w, err = 0;

	for (w = 0; w < agg_nr_workloads(A->agg) && !err; w++) {
		name = agg_workload_name(A->agg, w);
		err = diff_workload(c, A, B, o, name, w, agg_workload_index(B->agg, name));
	}
	for (w = 0; w < agg_nr_workloads(B->agg) && !err; w++) {
		name = agg_workload_name(B->agg, w);
		if (agg_workload_index(A->agg, name) < 0)
			err = diff_workload(c, A, B, o, name, -1, w);
	}
	return err;
}

/* Why row @r has no test that counts, or CMP_TESTED. */
static enum cmp_untested untested_why(const struct cmp_row *r, const struct cmp_options *o)
{
	if (r->only_in)
		return CMP_ONE_SIDE;
	if (!r->primary)
		return CMP_SECONDARY;
	if (r->host_timed && !o->include_host_timed)
		return CMP_HOST_TIMED;
	if (row_has_regimes(r))
		return CMP_REGIMES;
	if (isnan(r->p_value))
		return CMP_NO_TEST;
	return CMP_TESTED;
}

/*
 * The difference a row's test detects with probability CMP_POWER at its
 * standard error, at Holm's strictest threshold over @m rows tested:
 * (t_{alpha/m two-sided} + t_{1 - power}) se, the usual approximation.
 */
static double mde_pp(const struct cmp_row *r, int m)
{
	if (isnan(r->diff.se) || isnan(r->diff.df) || r->diff.df < 1 || m < 1)
		return NAN;
	return (student_quantile(CMP_ALPHA / m, r->diff.df) +
		student_quantile(2 * (1 - CMP_POWER), r->diff.df)) * r->diff.se;
}

int comparison_flag(struct comparison *c, const struct cmp_options *o)
{
	double *p = calloc(c->nr_rows ? c->nr_rows : 1, sizeof(*p));
	bool *reject = calloc(c->nr_rows ? c->nr_rows : 1, sizeof(*reject));
	struct cmp_row *r;
	int i;

	if (!p || !reject) {
		free(p);
		free(reject);
		return -ENOMEM;
	}
	for (i = 0; i < c->nr_rows; i++) {
		r = &c->rows[i];
		r->worse = r->diff.pct * share_metrics[r->metric].better < 0;
		r->untested = untested_why(r, o);
		c->nr_primary += r->primary;
		c->nr_host_timed += r->primary && r->untested == CMP_HOST_TIMED;
		c->nr_regimes += r->primary && r->untested == CMP_REGIMES;
		p[i] = r->untested == CMP_TESTED ? r->p_value : NAN;
		c->nr_tested += r->untested == CMP_TESTED;
	}
	holm_reject(p, c->nr_rows, CMP_ALPHA, reject);
	for (i = 0; i < c->nr_rows; i++) {
		r = &c->rows[i];
		r->flagged = reject[i];
		c->nr_flagged += reject[i];
		if (r->untested == CMP_TESTED)
			r->mde_pp = mde_pp(r, c->nr_tested);
	}
	free(p);
	free(reject);
	return 0;
}

int comparison_run(struct comparison *c, const struct cmp_side *a, const struct cmp_side *b,
		   const struct cmp_options *o)
{
	int err;

	memset(c, 0, sizeof(*c));
	find_design(c, a, b);
	err = diff_all(c, a, b, o);
	if (!err)
		err = comparison_flag(c, o);
	return err;
}

void comparison_free(struct comparison *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

bool comparison_fails_gate(const struct cmp_row *r, double fail_above_pp)
{
	if (isnan(fail_above_pp) || !r->primary || r->only_in || !r->worse ||
	    !(fabs(r->diff.pct) > fail_above_pp))
		return false;
	switch (r->untested) {
	case CMP_TESTED:
		return r->flagged;
	case CMP_REGIMES:
	case CMP_NO_TEST:
		return true;
	case CMP_SECONDARY:
	case CMP_ONE_SIDE:
	case CMP_HOST_TIMED:
		break;
	}
	return false;
}

int comparison_nr_failing(const struct comparison *c, double fail_above_pp)
{
	int i, n = 0;

	for (i = 0; i < c->nr_rows; i++)
		n += comparison_fails_gate(&c->rows[i], fail_above_pp);
	return n;
}
