// SPDX-License-Identifier: GPL-2.0
/*
 * compare.js - `idlescope compare --html`'s page: compare -j's document
 * drawn, the verdict first, then the flagged differences (the worse ones
 * first), every difference, and the numbers one side lacks.
 */
'use strict';

(() => {
	const { doc, h, ptr, n, share, table, chart, section, render } = idlescope;
	const gate = doc.fail_above_pp !== null;

	const governors = r => r.governor === r.governor_b ? r.governor : `${r.governor}:${r.governor_b}`;
	const number = r => (r.model === 'live' ? '' : r.model + ' ') + r.metric.replace(/_/g, ' ');
	const diff = src => [n(src + '/diff_pp/pct', 'pp'),
		h('span', { class: 'half', 'data-src': src + '/diff_pp', 'data-fmt': 'half' },
		  idlescope.FORMATS.half(idlescope.get(src + '/diff_pp')))];

	/* Flagged rows first, the worse before the better, each by size. */
	const order = doc.differences.map((r, i) => i).sort((i, j) => {
		const a = doc.differences[i], b = doc.differences[j];
		const rank = r => r.flagged ? (r.worse ? 0 : 1) : 2;
		return rank(a) - rank(b) || (rank(a) < 2 ? Math.abs(b.diff_pp.pct) - Math.abs(a.diff_pp.pct) : i - j);
	});
	const flagged = order.filter(i => doc.differences[i].flagged);

	function verdict() {
		let text;
		if (doc.failed)
			text = h('div', { class: 'warn bad' }, 'FAIL: ', n('/failed_differences', 'int'),
				 ' flagged differences are worse than ', n('/fail_above_pp', 'num'), ' points.');
		else
			text = h('div', { class: gate ? 'ok' : 'note' }, gate ?
				 ['ok: no flagged difference is worse than ', n('/fail_above_pp', 'num'), ' points.'] :
				 'No gate (--fail-above) was set.');
		return [text, h('p', {}, n('/flagged', 'int'), ' of ', n('/compared', 'int'),
			' differences flagged (Holm\'s procedure over ', n('/rows_tested', 'int'),
			' rows tested, family-wise 5%); ', n('/missing', 'int'), ' numbers on one side only.',
			doc.independent ? '' : ' A and B share a boot: not independent, nothing is flagged.')];
	}

	function setups() {
		const keys = Object.keys(doc.a_setup);
		return section('setups', 'A and B', table(['', 'A', 'B'], keys.map(k => [k.replace(/_/g, ' '),
			idlescope.cell(ptr('a_setup', k)), idlescope.cell(ptr('b_setup', k))])));
	}

	function rows(indices, src) {
		return indices.map(i => {
			const r = doc[src][i], s = ptr(src, i);
			return [n(s + '/workload', 'str'), governors(r), number(r), share(s + '/a'), share(s + '/b'),
				...(r.only_in ? ['only in ' + r.only_in.toUpperCase(), ''] :
				    [diff(s), n(s + '/p_value', 'num')])];
		});
	}

	const rowClass = indices => k => {
		const r = doc.differences[indices[k]];
		return [r.flagged ? 'flagged' : '', r.flagged ? (r.worse ? 'worse' : 'better') : ''].join(' ').trim() || null;
	};
	const head = ['workload', 'governor', 'number', 'A %', 'B %', 'B − A pp', 'p'];
	const parts = [verdict(), setups()];
	parts.push(section('flagged', 'Flagged differences', flagged.length ? [
		chart(flagged.map(i => `${doc.differences[i].workload} ${governors(doc.differences[i])} ` +
				  number(doc.differences[i])), [{
			label: 'B − A (pp)', color: '#c23b3b',
			points: flagged.map(i => ({ src: ptr('differences', i, 'diff_pp', 'pct') })) }],
		      { type: 'bar', horizontal: true, short: true, x: 'B − A, percentage points' }),
		table(head, rows(flagged, 'differences'), { rowClass: rowClass(flagged) })] :
		h('p', { class: 'note' }, 'None.')));
	parts.push(section('all', 'Every difference', table(head, rows(order, 'differences'),
							       { rowClass: rowClass(order) })));
	if (doc.one_side_only.length)
		parts.push(section('missing', 'On one side only', table(head.slice(0, 6),
			rows(doc.one_side_only.map((r, i) => i), 'one_side_only'))));
	render('idlescope compare', [n('/a', 'str'), ' → ', n('/b', 'str')], parts);
})();
