// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - the per-workload SVG of prediction / actual (see plot.h).
 *
 * The data is the aggregate's ratio histogram: bucket k holds
 * predicted/actual in [2^k, 2^(k+1)), the end buckets everything beyond.
 * Each series is drawn as the share of its own predictions per bucket, so
 * a model scored on 100000 periods and a governor on 3000 compare by
 * shape; the counts are in the legend.  The x axis marks bucket
 * boundaries, which are exact powers of 2: the "within 2x" band runs from
 * the boundary 1/2 to the boundary 2 and covers the buckets of k = -1 and
 * k = 0, the ratios the seed's 2x row counts (2 itself aside).
 *
 * Shadow models are solid lines, live governors dashed; a governor whose
 * model is replayed under the same name shares its colour, so "what the
 * kernel did" and "what the model says it did" sit visibly together.
 */
#include <errno.h>
#include <string.h>
#include "report/plot.h"
#include "report/report.h"
#include "output/dir.h"
#include "output/file.h"
#include "governors.h"

#define PLOT_LEFT		64	/* plot area, in SVG user units */
#define PLOT_RIGHT		566
#define PLOT_TOP		64
#define PLOT_BOTTOM		386
#define LEGEND_X		580
#define LEGEND_ROW		20
#define MAX_X_LABELS		12

#define MAX_SERIES		(AGG_MAX_SHADOWS + IDLESCOPE_NR_GOVERNORS)

/* Distinct on white, and at least one per possible series. */
static const char *const palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aec7e8",
	"#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2",
	"#dbdb8d", "#9edae5", "#393b79", "#637939",
};
_Static_assert(sizeof(palette) / sizeof(palette[0]) >= MAX_SERIES,
	       "a colour for every model and governor: add colours to palette[]");

/* No-prediction plots still show the range the seed's table talks about. */
#define EMPTY_LOG2_LO		(-6)
#define EMPTY_LOG2_HI		5

struct series {
	const char *name;
	bool live;			/* a governor's own predictions */
	const char *colour;
	__u64 samples;
	const unsigned int *ratio_hist;	/* AGG_RATIO_SLOTS, sums to samples */
};

struct plot {
	const struct agg *agg;
	int workload;
	__u64 periods;			/* all governors' runs */
	int nr_series;
	struct series series[MAX_SERIES];
	int lo, hi;			/* slots shown */
	double y_top;			/* % at the top of the plot area */
	double y_step;
};

static int slot_of_log2(int k)
{
	return k - AGG_RATIO_LOG2_MIN;
}

static double percent_of(const struct series *s, int slot)
{
	return 100.0 * s->ratio_hist[slot] / (double)s->samples;
}

/* The colour of the shadow model named like the governor, else a new one. */
static const char *live_colour(const struct plot *p, const char *governor,
			       int *next_colour)
{
	int i;

	for (i = 0; i < p->nr_series; i++)
		if (!p->series[i].live && !strcmp(p->series[i].name, governor))
			return p->series[i].colour;
	return palette[(*next_colour)++];
}

static void add_series(struct plot *p, const char *name, bool live,
		       const char *colour, __u64 samples,
		       const unsigned int *ratio_hist)
{
	struct series *s = &p->series[p->nr_series++];

	s->name = name;
	s->live = live;
	s->colour = colour;
	s->samples = samples;
	s->ratio_hist = ratio_hist;
}

static void collect_series(struct plot *p, const struct report_workload_view *view)
{
	int next_colour = AGG_MAX_SHADOWS, s, g;

	for (s = 0; s < agg_nr_shadows(p->agg); s++)
		if (view->all.shadow[s].samples)
			add_series(p, agg_shadow_name(p->agg, s), false,
				   palette[s], view->all.shadow[s].samples,
				   view->all.shadow[s].ratio_hist);
	for (g = 0; g < view->nr_governors; g++) {
		const struct agg_stats *st = &view->per_governor[g];
		const char *name = governor_name(view->governors[g]);

		if (st->predicted_samples)
			add_series(p, name, true,
				   live_colour(p, name, &next_colour),
				   st->predicted_samples, st->ratio_hist);
	}
}

/* Buckets with data, and always those of the "within 2x" band. */
static void choose_range(struct plot *p)
{
	int i, s;

	p->lo = slot_of_log2(p->nr_series ? -1 : EMPTY_LOG2_LO);
	p->hi = slot_of_log2(p->nr_series ? 0 : EMPTY_LOG2_HI);
	for (s = 0; s < p->nr_series; s++) {
		for (i = 0; i < AGG_RATIO_SLOTS; i++) {
			if (!p->series[s].ratio_hist[i])
				continue;
			if (i < p->lo)
				p->lo = i;
			if (i > p->hi)
				p->hi = i;
		}
	}
}

/* A y axis of at most 10 round steps above the highest point. */
static void choose_y_axis(struct plot *p)
{
	double y_max = 0, pct;
	int i, s;

	for (s = 0; s < p->nr_series; s++) {
		for (i = p->lo; i <= p->hi; i++) {
			pct = percent_of(&p->series[s], i);
			if (pct > y_max)
				y_max = pct;
		}
	}
	p->y_step = y_max <= 10 ? 2 : y_max <= 25 ? 5 : y_max <= 50 ? 10 : 20;
	p->y_top = p->y_step;
	while (p->y_top < y_max)
		p->y_top += p->y_step;
}

static double x_of_boundary(const struct plot *p, int slot)
{
	int nr = p->hi - p->lo + 1;

	return PLOT_LEFT + (double)(slot - p->lo) * (PLOT_RIGHT - PLOT_LEFT) / nr;
}

static double x_of_center(const struct plot *p, int slot)
{
	return (x_of_boundary(p, slot) + x_of_boundary(p, slot + 1)) / 2;
}

static double y_of(const struct plot *p, double pct)
{
	return PLOT_BOTTOM - pct / p->y_top * (PLOT_BOTTOM - PLOT_TOP);
}

/* Text content or attribute value: XML-escaped, ASCII only, no controls. */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			/* Names are raw bytes: keep the document valid UTF-8. */
			fputc(c < 0x20 || c >= 0x7f ? '?' : c, f);
		}
	}
}

/*
 * The boundary below @slot, 2^k: the lowest slot's is 0 and the one above
 * the highest slot infinity, as those buckets are clamped.
 */
static void boundary_label(char *buf, size_t size, int slot)
{
	int k = slot + AGG_RATIO_LOG2_MIN;

	if (slot == 0)
		snprintf(buf, size, "0");
	else if (slot == AGG_RATIO_SLOTS)
		snprintf(buf, size, "inf");
	else if (k >= 0)
		snprintf(buf, size, "%llu", 1ULL << k);
	else
		snprintf(buf, size, "1/%llu", 1ULL << -k);
}

static void print_header(FILE *f, const struct plot *p)
{
	const char *name = agg_workload_name(p->agg, p->workload);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" REPORTDIR_PLOT_MARK "\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\">\n",
		PLOT_WIDTH, PLOT_HEIGHT, PLOT_WIDTH, PLOT_HEIGHT);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		PLOT_WIDTH, PLOT_HEIGHT);
	fputs("<text x=\"64\" y=\"26\" font-size=\"16\" font-weight=\"bold\">"
	      "workload ", f);
	xml_text(f, name[0] ? name : "(none)");
	fputs(": predicted / actual idle duration</text>\n", f);
	fprintf(f, "<text x=\"64\" y=\"46\" font-size=\"11\" fill=\"#444\">"
		"%llu periods, all governors' runs; solid: shadow models on the runs with their inputs, "
		"dashed: live governors</text>\n",
		(unsigned long long)p->periods);
}

static void print_axes(FILE *f, const struct plot *p)
{
	char label[32];
	int nr_bounds = p->hi - p->lo + 2, step, slot;
	double y, x;

	/* The band first, so the grid and the lines draw over it. */
	x = x_of_boundary(p, slot_of_log2(-1));
	fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
		"fill=\"#2ca02c\" fill-opacity=\"0.12\"/>\n", x, PLOT_TOP,
		x_of_boundary(p, slot_of_log2(1)) - x, PLOT_BOTTOM - PLOT_TOP);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"middle\" fill=\"#2a7a2a\">within 2x</text>\n",
		x_of_boundary(p, slot_of_log2(0)), PLOT_TOP - 4);

	for (y = 0; y <= p->y_top + 1e-9; y += p->y_step) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n", PLOT_LEFT, y_of(p, y), PLOT_RIGHT,
			y_of(p, y));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"end\">%g%%</text>\n", PLOT_LEFT - 6,
			y_of(p, y) + 4, y);
	}

	/* Label every step-th boundary, counted from 1 so that 1 has one. */
	step = (nr_bounds + MAX_X_LABELS - 1) / MAX_X_LABELS;
	for (slot = p->lo; slot <= p->hi + 1; slot++) {
		x = x_of_boundary(p, slot);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#444\"/>\n", x, PLOT_BOTTOM, x, PLOT_BOTTOM + 5);
		if ((slot - slot_of_log2(0)) % step)
			continue;
		boundary_label(label, sizeof(label), slot);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"middle\">%s</text>\n", x, PLOT_BOTTOM + 18,
			label);
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#444\"/>\n", PLOT_LEFT, PLOT_TOP,
		PLOT_RIGHT - PLOT_LEFT, PLOT_BOTTOM - PLOT_TOP);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		"text-anchor=\"middle\">predicted / actual (log2 buckets)</text>\n",
		(PLOT_LEFT + PLOT_RIGHT) / 2, PLOT_BOTTOM + 40);
	fprintf(f, "<text x=\"16\" y=\"%d\" font-size=\"12\" "
		"text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">"
		"%% of the series' predictions</text>\n",
		(PLOT_TOP + PLOT_BOTTOM) / 2, (PLOT_TOP + PLOT_BOTTOM) / 2);
}

static const char *dash(const struct series *s)
{
	return s->live ? " stroke-dasharray=\"6 4\"" : "";
}

static void print_series(FILE *f, const struct plot *p, int index)
{
	const struct series *s = &p->series[index];
	double legend_y = PLOT_TOP + 8 + index * LEGEND_ROW;
	int slot;

	fputs("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"", f);
	fputs(s->colour, f);
	fprintf(f, "\"%s points=\"", dash(s));
	for (slot = p->lo; slot <= p->hi; slot++)
		fprintf(f, "%s%.1f,%.1f", slot > p->lo ? " " : "",
			x_of_center(p, slot), y_of(p, percent_of(s, slot)));
	fputs("\"/>\n", f);
	for (slot = p->lo; slot <= p->hi; slot++)
		if (s->ratio_hist[slot])
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
				"fill=\"%s\"/>\n", x_of_center(p, slot),
				y_of(p, percent_of(s, slot)), s->colour);

	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		"stroke-width=\"2\" stroke=\"%s\"%s/>\n", LEGEND_X, legend_y,
		LEGEND_X + 24, legend_y, s->colour, dash(s));
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\">", LEGEND_X + 30,
		legend_y + 4);
	xml_text(f, s->name);
	fprintf(f, " (%s, %llu)</text>\n", s->live ? "live" : "shadow",
		(unsigned long long)s->samples);
}

int plot_fprint_ratio_svg(FILE *f, const struct agg *agg, int workload)
{
	struct report_workload_view view;
	struct plot p = { .agg = agg, .workload = workload };
	int s;

	if (!agg_workload_name(agg, workload))
		return -EINVAL;
	report_workload_view(agg, workload, &view);
	p.periods = view.all.samples;
	collect_series(&p, &view);
	choose_range(&p);
	choose_y_axis(&p);

	print_header(f, &p);
	print_axes(f, &p);
	for (s = 0; s < p.nr_series; s++)
		print_series(f, &p, s);
	if (!p.nr_series)
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"14\" "
			"text-anchor=\"middle\" fill=\"#444\">no predictions "
			"recorded</text>\n", (PLOT_LEFT + PLOT_RIGHT) / 2,
			(PLOT_TOP + PLOT_BOTTOM) / 2);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

struct plot_doc {
	const struct agg *agg;
	int workload;
};

static int fprint_doc(FILE *f, const void *ctx)
{
	const struct plot_doc *doc = ctx;

	return plot_fprint_ratio_svg(f, doc->agg, doc->workload);
}

int plot_write_ratio_svg(const struct agg *agg, int workload,
			 const char *path)
{
	struct plot_doc doc = { .agg = agg, .workload = workload };

	/* Refused before the temporary file exists, not after. */
	if (!agg_workload_name(agg, workload))
		return -EINVAL;
	return output_write_file(path, fprint_doc, &doc);
}

/* Bytes kept as they are in a file name; '_' starts an escape. */
static bool plot_name_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-';
}

int plot_file_name(const struct agg *agg, int workload, char *buf,
		   size_t size)
{
	const char *name = agg_workload_name(agg, workload);
	size_t len = 0;
	int n;

	if (!name)
		return -EINVAL;
	if (!name[0])
		return snprintf(buf, size, "_none.svg") >= (int)size ? -ENAMETOOLONG : 0;
	for (; *name; name++) {
		n = plot_name_byte(*name) ?
		    snprintf(buf + len, size - len, "%c", *name) :
		    snprintf(buf + len, size - len, "_%02x", (unsigned char)*name);
		if (n < 0 || (size_t)n >= size - len)
			return -ENAMETOOLONG;
		len += n;
	}
	n = snprintf(buf + len, size - len, ".svg");
	return n < 0 || (size_t)n >= size - len ? -ENAMETOOLONG : 0;
}
