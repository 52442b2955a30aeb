/* SPDX-License-Identifier: GPL-2.0 */
/*
 * html.h - the report as one web page (report.html in the report set) and
 * `idlescope compare --html`'s before/after page.  A page is a JSON
 * document (report.json's, or compare -j's, byte for byte) inside a shell
 * that draws it: the page's own CSS and scripts (loader/report/page/) and
 * Chart.js (Debian's libjs-chart.js), all built into the loader, so the
 * file needs nothing else to open, offline, and idlescope nothing at
 * report time.  What the page shows, and how its test checks it, is in
 * docs/report-page.md.
 */
#ifndef __IDLESCOPE_REPORT_HTML_H
#define __IDLESCOPE_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>
#include "stats/aggregate.h"
#include "output/file.h"
#include "runinfo/meta.h"

/* Which drawing script reads the document. */
enum html_page {
	HTML_PAGE_REPORT,	/* report.json */
	HTML_PAGE_COMPARE,	/* idlescope compare -j */
};

/**
 * html_fprint_page() - one self-contained page around a JSON document
 * @f: where to write it
 * @page: the kind of document
 * @json: the document, as report.json or compare -j write it
 * @len: its length in bytes
 *
 * The document goes into the page as a data block the scripts parse,
 * every "<" written as the JSON escape "\u003c", so no text in it can
 * end the block early; the same value, not a copy of other numbers.
 *
 * Return: 0, or -errno of the stream (-EINVAL after one error line if a
 * built-in script could end its own block, which the build must not let
 * happen).
 */
int html_fprint_page(FILE *f, enum html_page page, const char *json, size_t len);

/**
 * html_fprint_doc() - a page around the JSON document a printer makes
 * @f: where to write the page
 * @page: the kind of document
 * @fprint_json: prints the document (into memory first)
 * @ctx: what it prints from
 *
 * Return: 0, or -errno (@fprint_json's own error first).
 */
int html_fprint_doc(FILE *f, enum html_page page, output_fprint_fn fprint_json, const void *ctx);

/**
 * report_fprint_html() - report.html: report.json's document in its page
 * @f: where to write it
 * @agg: the aggregate report.json is made from
 * @meta: its run's facts
 *
 * Return: 0, or -errno.
 */
int report_fprint_html(FILE *f, const struct agg *agg, const struct run_meta *meta);

#endif /* __IDLESCOPE_REPORT_HTML_H */
