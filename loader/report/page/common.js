// SPDX-License-Identifier: GPL-2.0
/*
 * common.js - what report.js and compare.js share: the page's document
 * (the data block html.c wrote), elements, numbers that say where they
 * come from, tables and charts.
 *
 * Every number the page prints is an element with data-src, a JSON
 * pointer (RFC 6901) into the document, and data-fmt, the name of the
 * rule that wrote it (FORMATS); a chart's canvas has data-check, the
 * pointers of each point.  tests/browser/page.js reads the document
 * itself and checks every such element and chart against it, so a number
 * on the page is the document's number, never a copy.
 */
'use strict';

const idlescope = (() => {
	const doc = JSON.parse(document.getElementById('data').textContent);

	/* h('td', {class: 'x'}, child...): an element; strings become text. */
	function h(tag, attrs, ...children) {
		const e = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (v !== undefined && v !== null && v !== false)
				e.setAttribute(k, v === true ? '' : v);
		}
		for (const c of children.flat(Infinity)) {
			if (c !== undefined && c !== null && c !== false)
				e.append(c instanceof Node ? c : String(c));
		}
		return e;
	}

	const ptr = (...parts) => '/' + parts.map(p => String(p).replace(/~/g, '~0')
		.replace(/\//g, '~1')).join('/');

	function get(pointer) {
		let v = doc;
		for (const raw of pointer.split('/').slice(1)) {
			if (v === null || typeof v !== 'object')
				return undefined;
			v = v[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
		}
		return v;
	}

	const known = v => v !== null && v !== undefined;
	const fixed1 = v => known(v) ? v.toFixed(1) : '–';
	/* The rules a number is written by; value(), below, gives their input. */
	const FORMATS = {
		pct: fixed1,					/* a share in % */
		pp: v => known(v) ? (v > 0 ? '+' : '') + v.toFixed(1) : '–',
		int: v => known(v) ? v.toLocaleString('en-US') : '–',
		num: v => known(v) ? String(v) : '–',
		us: v => known(v) ? (v / 1000).toFixed(1) : '–',	/* ns as us */
		str: v => String(v),
		half: s => known(s.lo) && known(s.hi) ? '±' + ((s.hi - s.lo) / 2).toFixed(1) : '±?',
		frac: fixed1,					/* src / den in % */
		per_us: fixed1,					/* src ns / den, in us */
	};

	function value(src, fmt, den) {
		const v = get(src);
		if (fmt === 'frac')
			return get(den) ? 100 * v / get(den) : null;
		if (fmt === 'per_us')
			return get(den) ? v / get(den) / 1000 : null;
		return v;
	}

	/* A number of the document: n('/hz', 'int'); {den} for frac, per_us. */
	function n(src, fmt, opts = {}) {
		const text = FORMATS[fmt](value(src, fmt, opts.den));
		return h('span', { class: opts.cls || 'n', 'data-src': src, 'data-fmt': fmt,
				   'data-den': opts.den }, text);
	}

	const isShare = v => v !== null && typeof v === 'object' && !Array.isArray(v) &&
		'pct' in v && 'lo' in v && 'hi' in v;

	/*
	 * A share: "78.8 ±1.2"; with opts.scale [lo, hi] a bar of its interval
	 * and opts.dots (values) as dots.  opts.noInterval writes "±?".
	 */
	function share(src, opts = {}) {
		const s = get(src);
		const out = [n(src + '/pct', 'pct')];
		if (known(s.pct))
			out.push(opts.noInterval ? h('span', { class: 'half' }, '±?') :
				 h('span', { class: 'half', 'data-src': src, 'data-fmt': 'half' },
				   FORMATS.half(s)));
		if (opts.scale && known(s.pct))
			out.push(intervalBar(s, opts.scale, opts.dots || []));
		return out;
	}

	function intervalBar(s, [lo, hi], dots) {
		const x = v => (100 * (Math.min(Math.max(v, lo), hi) - lo) / (hi - lo || 1)).toFixed(2) + '%';
		const bar = h('span', { class: 'ibar', 'aria-hidden': 'true' });
		if (known(s.lo) && known(s.hi))
			bar.append(h('span', { class: 'range',
					       style: `left:${x(s.lo)};width:calc(${x(s.hi)} - ${x(s.lo)})` }));
		for (const d of dots)
			bar.append(h('span', { class: 'boot', style: `left:${x(d)}` }));
		bar.append(h('span', { class: 'mid', style: `left:${x(s.pct)}` }));
		return bar;
	}

	/* A scale for interval bars: the values' range, out to multiples of 5. */
	function scaleOf(values) {
		const v = values.filter(known);
		if (!v.length)
			return [0, 100];
		const lo = Math.max(0, Math.floor(Math.min(...v) / 5) * 5);
		const hi = Math.min(100, Math.ceil(Math.max(...v) / 5) * 5);
		return hi > lo ? [lo, hi] : [Math.max(0, lo - 5), Math.min(100, hi + 5)];
	}

	/* table(['a', 'b'], [[cell, ...], ...], {caption, rowClass}) */
	function table(head, rows, opts = {}) {
		const t = h('table', { class: opts.cls },
			    opts.caption ? h('caption', {}, opts.caption) : null,
			    h('thead', {}, h('tr', {}, head.map(c => h('th', {}, c)))));
		const body = h('tbody');
		rows.forEach((r, i) => body.append(h('tr', { class: opts.rowClass ? opts.rowClass(i) : null },
						     r.map(c => h('td', {}, c)))));
		t.append(body);
		return h('div', { class: 'scroll' }, t);
	}

	/* One value of any JSON type as a cell, numbers and shares checked. */
	function cell(src) {
		const v = get(src);
		if (isShare(v))
			return share(src);
		if (typeof v === 'number')
			return n(src, Number.isInteger(v) ? 'int' : 'num');
		if (typeof v === 'string')
			return n(src, 'str', { cls: 'text' });
		if (v === null)
			return '–';
		if (typeof v === 'boolean')
			return v ? 'yes' : 'no';
		if (Array.isArray(v) && v.every(x => typeof x !== 'object'))
			return v.join(', ');
		return h('code', {}, JSON.stringify(v));
	}

	/* An array of objects, whatever their keys: a column per key. */
	function genericTable(src, opts = {}) {
		const rows = get(src) || [];
		const keys = [];
		for (const r of rows)
			for (const k of Object.keys(r))
				if (!keys.includes(k))
					keys.push(k);
		return table(keys, rows.map((r, i) => keys.map(k => k in r ? cell(`${src}/${i}/${ptr(k).slice(1)}`) : '')), opts);
	}

	/* An object's members as "key: value" lines. */
	function genericFacts(src) {
		const o = get(src);
		return h('dl', { class: 'facts' }, Object.keys(o).flatMap(k => [
			h('dt', {}, k), h('dd', {}, cell(src + ptr(k)))]));
	}

	/* The same color for a governor or model in every chart. */
	const PALETTE = ['#2a6cb0', '#d9822b', '#2e9e5b', '#c23b3b', '#7b52ab', '#8c6d31',
			 '#d14f9b', '#5d6875', '#1aa3a3', '#a3a31a', '#35559c', '#9c3555', '#556b2f'];
	const colorNames = [...(doc.governors || []), ...(doc.shadow_models || [])];
	function color(name) {
		let i = colorNames.indexOf(name);
		if (i < 0) {
			colorNames.push(name);
			i = colorNames.length - 1;
		}
		return PALETTE[i % PALETTE.length];
	}

	/*
	 * A chart: series [{label, points: [{src, den}], dashed, color}], one
	 * point per label of @labels, each get(src), or the sum over a list of
	 * srcs (times 100 / get(den) with a den).  opts: type (line, bar),
	 * stacked, horizontal, x and y (the axes' titles), max (the value
	 * axis's), short, title, caption.
	 */
	function chart(labels, series, opts = {}) {
		const canvas = h('canvas', { role: 'img', 'aria-label': opts.title || 'chart',
			'data-check': JSON.stringify(series.map(s => ({ label: s.label, points: s.points }))) });
		/* A point's src may be a list: the sum of its values. */
		const total = src => [].concat(src).reduce((sum, p) => sum + get(p), 0);
		const datasets = series.map(s => ({
			label: s.label,
			data: s.points.map(p => p.den ? (get(p.den) ? 100 * total(p.src) / get(p.den) : null) :
					   total(p.src)),
			borderColor: s.color || color(s.label),
			backgroundColor: s.color || color(s.label),
			borderDash: s.dashed ? [5, 4] : [],
			borderWidth: opts.type === 'bar' ? 0 : 2,
			pointRadius: opts.type === 'bar' ? 0 : 2,
			maxBarThickness: 36,
			tension: 0,
			spanGaps: true,
		}));
		const horizontal = !!opts.horizontal;
		const axis = (title, stacked, extra = {}) => ({ stacked: !!stacked, ...extra,
			title: { display: !!title, text: title } });
		const value = { beginAtZero: true, max: opts.max };
		const scales = {
			x: axis(opts.x, opts.stacked, horizontal ? value : {}),
			y: axis(opts.y, opts.stacked, horizontal ? {} : value),
		};
		/* A horizontal bar chart grows with its bars. */
		const box = h('div', { class: 'chart' + (opts.short ? ' short' : ''),
			style: horizontal ? `height:${Math.max(160, 36 * labels.length + 100)}px` : null }, canvas);
		/* Drawn once the canvas is in the page (Chart.js measures its box). */
		pending.push(() => new Chart(canvas, {
			type: opts.type || 'line',
			data: { labels, datasets },
			options: {
				animation: false, responsive: true, maintainAspectRatio: false,
				indexAxis: horizontal ? 'y' : 'x',
				interaction: { mode: 'index', intersect: false },
				plugins: { legend: { position: 'bottom', labels: { boxWidth: 14 } },
					   title: { display: !!opts.title, text: opts.title } },
				scales,
			},
		}));
		return h('figure', {}, box, opts.caption ? h('figcaption', {}, opts.caption) : null);
	}
	const pending = [];

	/* Sections and the table of contents that links them. */
	const toc = [];
	function section(id, title, ...children) {
		toc.push([id, title]);
		return h('section', { id }, h('h2', {}, title), ...children);
	}

	/* Put @parts in the page, draw the charts, say it is done. */
	function render(title, subtitle, parts) {
		const page = document.getElementById('page');
		document.title = title;
		page.append(h('header', { class: 'top' }, h('h1', {}, title),
			      h('div', { class: 'sub' }, subtitle)),
			    h('nav', { class: 'toc' }, toc.map(([id, t]) => h('a', { href: '#' + id }, t))),
			    ...[parts].flat(Infinity).filter(p => p instanceof Node));
		pending.splice(0).forEach(draw => draw());
		document.body.dataset.rendered = 'yes';
	}

	return { doc, h, ptr, get, known, n, share, isShare, scaleOf, table, cell,
		 genericTable, genericFacts, chart, color, section, render, FORMATS };
})();
