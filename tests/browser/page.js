// SPDX-License-Identifier: GPL-2.0
/*
 * A page of idlescope's (report.html, compare --html) in Debian's headless
 * Chromium, driven by playwright-core: one PASS/FAIL line per check, as
 * tests/lib.sh prints them (tests/cli/report_page.sh runs this).
 *
 * usage: node page.js KIND PAGE DOC SHOT [FULL_SHOT]
 *   KIND   report or compare: the check names' prefix and the page's own checks
 *   PAGE   the HTML file
 *   DOC    the JSON document it was made from (report.json, compare -j)
 *   SHOT   where the screenshot of the top of the page goes (1280x900);
 *   FULL_SHOT  the whole page
 *
 * The numbers are checked against DOC read here, not against the page's
 * own code: each element with data-src (a JSON pointer into DOC) must read
 * as this file writes DOC's value in its data-fmt rule, and each chart's
 * points must be DOC's values its data-check names.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const [kind, pagePath, docPath, shot, fullShot] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(docPath, 'utf8'));
const say = (ok, name, detail) => console.log(ok ? `PASS: ${kind} page: ${name}` :
					     `FAIL: ${kind} page: ${name} (${detail})`);

/* A JSON pointer's value in DOC (RFC 6901), undefined if it names nothing. */
const get = pointer => pointer.split('/').slice(1)
	.map(token => token.replace(/~1/g, '/').replace(/~0/g, '~'))
	.reduce((v, key) => v !== null && typeof v === 'object' ? v[key] : undefined, doc);

/* The rules of docs/report-page.md, written here on their own. */
const dash = '–';
const one = v => v === null ? dash : v.toFixed(1);
const RULES = {
	pct: v => one(v),
	pp: v => v === null ? dash : (v > 0 ? '+' + v.toFixed(1) : v.toFixed(1)),
	int: v => v === null ? dash : String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ','),
	num: v => v === null ? dash : String(v),
	us: v => v === null ? dash : (v / 1000).toFixed(1),
	str: v => String(v),
	half: s => s.lo === null || s.hi === null ? '±?' : '±' + ((s.hi - s.lo) / 2).toFixed(1),
	frac: (v, d) => d ? (100 * v / d).toFixed(1) : dash,
	per_us: (v, d) => d ? (v / d / 1000).toFixed(1) : dash,
};

function expected(e) {
	const v = get(e.src);
	if (v === undefined || !(e.fmt in RULES))
		return undefined;
	return RULES[e.fmt](v, e.den ? get(e.den) : undefined);
}

/* A chart point: DOC's value (a sum for a list), in % of den with one. */
function pointValue(p) {
	const srcs = Array.isArray(p.src) ? p.src : [p.src];
	const v = srcs.reduce((sum, s) => sum + get(s), 0);
	if (!p.den)
		return v;
	return get(p.den) ? 100 * v / get(p.den) : null;
}

function checkNumbers(numbers) {
	const bad = numbers.filter(e => expected(e) !== e.text);
	say(numbers.length > 0 && !bad.length, 'every number on it is the document\'s',
	    `${bad.length} of ${numbers.length} differ: ` + bad.slice(0, 3).map(e =>
		    `${e.src} (${e.fmt}) shows '${e.text}', the document says '${expected(e)}'`).join('; '));
}

function checkCharts(charts, required) {
	const bad = [];
	for (const c of charts) {
		if (c.datasets.length !== c.check.length)
			bad.push(`${c.check.length} series drawn as ${c.datasets.length}`);
		c.check.forEach((s, i) => {
			const d = c.datasets[i] || { label: '', data: [] };
			if (d.label !== s.label)
				bad.push(`series '${s.label}' drawn as '${d.label}'`);
			s.points.forEach((p, j) => {
				const want = pointValue(p), got = d.data[j];
				if (want === null ? got !== null :
				    !(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want))))
					bad.push(`${s.label} point ${j}: ${got}, the document's ${want}`);
			});
		});
	}
	say((charts.length > 0 || !required) && !bad.length, 'every chart\'s points are the document\'s',
	    `${charts.length} charts: ` + bad.slice(0, 3).join('; '));
}

/* Every share of every headline cell, and its periods, is on the page. */
function checkHeadline(srcs) {
	const missing = [];
	for (const key of Object.keys(doc).filter(k => k.startsWith('headline') && Array.isArray(doc[k])))
		doc[key].forEach((c, i) => {
			for (const [m, v] of Object.entries(c))
				if (v && typeof v === 'object' && 'pct' in v && !srcs.has(`/${key}/${i}/${m}/pct`))
					missing.push(`/${key}/${i}/${m}/pct`);
			if (!srcs.has(`/${key}/${i}/periods`))
				missing.push(`/${key}/${i}/periods`);
		});
	say(!missing.length, 'every headline share and count is on it',
	    `${missing.length} missing: ${missing.slice(0, 3).join(', ')}`);
}

/* Each workload's ratio plot: a series per governor and per model with predictions. */
function checkRatioPlots(charts) {
	const bad = [];
	doc.workloads.forEach(w => {
		const want = new Set();
		doc.results.forEach((r, i) => {
			if (r.workload === w && r.all_cpus.predicted_samples > 0)
				want.add(`/results/${i}/all_cpus/ratio_log2_hist`);
		});
		const a = doc.across_governors.findIndex(x => x.workload === w);
		(a >= 0 ? doc.across_governors[a].all_governors.shadow : []).forEach((s, m) => {
			if (s.samples > 0)
				want.add(`/across_governors/${a}/all_governors/shadow/${m}/ratio_log2_hist`);
		});
		if (!want.size)
			return;
		const key = [...want].sort().join(' ');
		const found = charts.some(c => c.check.map(s => String(s.points[0].src).replace(/\/\d+\/count$/, ''))
					  .sort().join(' ') === key);
		if (!found)
			bad.push(w);
	});
	say(!bad.length, 'each workload has its ratio plot, a series per governor and model',
	    'missing or partial for: ' + bad.join(', '));
}

/* compare: the flagged rows first, the worse among them before the better. */
function checkCompareOrder(rows) {
	const diffs = rows.filter(r => r.startsWith('/differences/')).map(r => doc.differences[+r.split('/')[2]]);
	const rank = r => r.flagged ? (r.worse ? 0 : 1) : 2;
	const sorted = diffs.every((r, i) => !i || rank(diffs[i - 1]) <= rank(r));
	say(diffs.length === doc.differences.length && sorted,
	    'every difference is listed, the flagged ones first',
	    `${diffs.length} of ${doc.differences.length} rows, ranks ${diffs.map(rank).join('')}`);
}

(async () => {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		       '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const requests = [], errors = [];
	await context.route('**/*', route => {
		const url = route.request().url();
		if (/^(file|data|blob):/.test(url))
			return route.continue();
		requests.push(url);
		return route.abort();
	});
	const page = await context.newPage();
	page.on('console', m => {
		if (m.type() === 'error' || m.type() === 'warning')
			errors.push(`console ${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', e => errors.push('page error: ' + e.message));
	await page.goto('file://' + path.resolve(pagePath));
	const rendered = await page.waitForFunction(() => document.body.dataset.rendered === 'yes',
						    null, { timeout: 60000 }).then(() => true, () => false);
	/* A value the page failed to draw shows as its type's name. */
	const raw = (await page.innerText('#page')).match(/\[object \w+\]|undefined|NaN/g) || [];
	errors.push(...raw.map(r => `'${r}' in the text`));
	say(rendered && !errors.length, 'it renders in Chromium without console or page errors',
	    rendered ? errors.slice(0, 3).join('; ') : 'never finished drawing; ' + errors.slice(0, 3).join('; '));
	say(!requests.length, 'it asks for nothing outside the file (opens offline)',
	    `${requests.length} requests: ${requests.slice(0, 3).join(', ')}`);

	const numbers = await page.$$eval('[data-src]', els => els.map(e => ({
		src: e.dataset.src, fmt: e.dataset.fmt, den: e.dataset.den, text: e.textContent })));
	const charts = await page.$$eval('canvas[data-check]', cs => cs.map(c => {
		const ch = Chart.getChart(c);
		return { check: JSON.parse(c.dataset.check),
			 datasets: ch ? ch.data.datasets.map(d => ({ label: d.label, data: d.data })) : [] };
	}));
	checkNumbers(numbers);
	if (kind === 'report') {
		checkCharts(charts, true);
		checkHeadline(new Set(numbers.map(e => e.src)));
		checkRatioPlots(charts);
	} else {
		checkCompareOrder(await page.$$eval('#all tbody tr', trs => trs.map(tr =>
			(tr.querySelector('[data-src]') || { dataset: {} }).dataset.src.replace(/\/workload$/, ''))));
		checkCharts(charts, doc.flagged > 0);
	}
	await page.screenshot({ path: shot });
	if (fullShot)
		await page.screenshot({ path: fullShot, fullPage: true });
	await browser.close();
})().catch(e => {
	console.log(`FAIL: ${kind} page: the browser ran (${String(e.message).split('\n')[0]})`);
	process.exit(1);
});
