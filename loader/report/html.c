// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - a JSON document as a self-contained web page (see html.h).
 *
 * The page's files are assembled into the loader itself (.incbin), so a
 * report written anywhere, the guest included, has the same page and
 * cannot find its plotting library missing: a missing Chart.js stops the
 * build, not a report.  The Makefile names the files (HTML_PAGE_DIR,
 * HTML_CHARTJS) and makes this object depend on them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "report/html.h"
#include "report/report.h"
#include "output/file.h"

#ifndef HTML_PAGE_DIR
#error "HTML_PAGE_DIR: the Makefile names loader/report/page"
#endif
#ifndef HTML_CHARTJS
#error "HTML_CHARTJS: the Makefile names Chart.js (libjs-chart.js)"
#endif

/* The page's files: X(name, path). */
#define HTML_ASSETS(X)					\
	X(css, HTML_PAGE_DIR "/page.css")		\
	X(chartjs, HTML_CHARTJS)			\
	X(common_js, HTML_PAGE_DIR "/common.js")	\
	X(report_js, HTML_PAGE_DIR "/report.js")	\
	X(compare_js, HTML_PAGE_DIR "/compare.js")

#define HTML_INCBIN(name, path)					\
	__asm__(".pushsection .rodata\n"			\
		".globl idlescope_page_" #name "\n"		\
		"idlescope_page_" #name ":\n"			\
		".incbin \"" path "\"\n"			\
		".globl idlescope_page_" #name "_end\n"		\
		"idlescope_page_" #name "_end:\n"		\
		".popsection\n");				\
	extern const char idlescope_page_##name[], idlescope_page_##name##_end[];
HTML_ASSETS(HTML_INCBIN)

struct html_asset {
	const char *name;
	const char *start, *end;
};

#define HTML_ASSET_ID(name, path)	HTML_ASSET_##name,
#define HTML_ASSET_ENTRY(name, path)	\
	{ #name, idlescope_page_##name, idlescope_page_##name##_end },
enum html_asset_id { HTML_ASSETS(HTML_ASSET_ID) HTML_NR_ASSETS };
static const struct html_asset html_assets[HTML_NR_ASSETS] = { HTML_ASSETS(HTML_ASSET_ENTRY) };

/*
 * Whether @a's text contains what would end its <script> or <style>
 * element early ("</" then the element's name, in any case).
 */
static bool ends_element(const struct html_asset *a, const char *element)
{
	size_t n = strlen(element);
	const char *p;

	for (p = a->start; p + 2 + n <= a->end; p++)
		if (p[0] == '<' && p[1] == '/' && !strncasecmp(p + 2, element, n))
			return true;
	return false;
}

/* @a's text inside a <style> or <script> element. */
static int print_element(FILE *f, const struct html_asset *a, const char *element)
{
	if (ends_element(a, element)) {
		fprintf(stderr, "idlescope: error: the page's %s contains </%s\n", a->name, element);
		return -EINVAL;
	}
	fprintf(f, "<%s>\n", element);
	fwrite(a->start, 1, a->end - a->start, f);
	fprintf(f, "\n</%s>\n", element);
	return 0;
}

/* The document as the text of a data block: "<" as "\u003c". */
static void print_data(FILE *f, const char *json, size_t len)
{
	size_t i, from = 0;

	fputs("<script type=\"application/json\" id=\"data\">\n", f);
	for (i = 0; i < len; i++) {
		if (json[i] != '<')
			continue;
		fwrite(json + from, 1, i - from, f);
		fputs("\\u003c", f);
		from = i + 1;
	}
	fwrite(json + from, 1, len - from, f);
	fputs("</script>\n", f);
}

int html_fprint_page(FILE *f, enum html_page page, const char *json, size_t len)
{
	const struct html_asset *script = &html_assets[page == HTML_PAGE_COMPARE ?
						       HTML_ASSET_compare_js : HTML_ASSET_report_js];
	int err;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"idlescope\">\n"
	      "<title>idlescope</title>\n", f);
	err = print_element(f, &html_assets[HTML_ASSET_css], "style");
	if (err)
		return err;
	fputs("</head>\n<body>\n<noscript><p>This page draws its tables and plots with "
	      "JavaScript; report.txt beside it has the same numbers as text.</p></noscript>\n"
	      "<div id=\"page\"></div>\n", f);
	print_data(f, json, len);
	err = print_element(f, &html_assets[HTML_ASSET_chartjs], "script");
	if (!err)
		err = print_element(f, &html_assets[HTML_ASSET_common_js], "script");
	if (!err)
		err = print_element(f, script, "script");
	if (err)
		return err;
	fputs("</body>\n</html>\n", f);
	return output_stream_status(f);
}

int html_fprint_doc(FILE *f, enum html_page page, output_fprint_fn fprint_json, const void *ctx)
{
	char *json = NULL;
	size_t len = 0;
	FILE *mem;
	int err;

	mem = open_memstream(&json, &len);
	if (!mem)
		return -errno;
	err = fprint_json(mem, ctx);
	if (fclose(mem) && !err)
		err = -errno;
	if (!err)
		err = html_fprint_page(f, page, json, len);
	free(json);
	return err;
}

struct report_json_ctx {
	const struct agg *agg;
	const struct run_meta *meta;
};

static int fprint_report_json(FILE *f, const void *ctx)
{
	const struct report_json_ctx *r = ctx;

	return report_fprint_json(f, r->agg, r->meta);
}

int report_fprint_html(FILE *f, const struct agg *agg, const struct run_meta *meta)
{
	const struct report_json_ctx ctx = { .agg = agg, .meta = meta };

	return html_fprint_doc(f, HTML_PAGE_REPORT, fprint_report_json, &ctx);
}
