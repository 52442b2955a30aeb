// SPDX-License-Identifier: GPL-2.0
/*
 * report.js - report.html: report.json (docs/report-schema.md) drawn.
 * The headline is drawn from its cells' shape, not from a list of its
 * members: any array "headline*" of cells (objects with a workload and a
 * governor) is a view, each share member a table of workloads by
 * governors, each count a table, each array of objects (per_boot, and
 * whatever a later schema adds) listed under it; a top-level member no
 * section draws is listed at the end.  docs/report-page.md says what each
 * section shows.
 */
'use strict';

(() => {
	const { doc, h, ptr, get, known, n, share, isShare, scaleOf, table, cell,
		genericTable, genericFacts, chart, section, render } = idlescope;
	const drawn = new Set(['schema_version', 'tool']);
	const use = (...keys) => keys.forEach(k => drawn.add(k));
	const wname = w => w === '' ? '(untagged)' : w;
	const anchor = (prefix, w) => prefix + '-' + doc.workloads.indexOf(w);
	const indexed = (arr, pred) => (arr || []).map((v, i) => [v, i]).filter(([v]) => pred(v));

	/* ---- run summary and warnings ---------------------------------- */

	function subtitle() {
		use('kernel_release', 'start_time_utc', 'duration_s', 'boots');
		return [n('/kernel_release', 'str'), ', started ', n('/start_time_utc', 'str'), ', ',
			known(doc.duration_s) ? [n('/duration_s', 'num'), ' s measured'] : 'duration unknown',
			', ', doc.boots.length ? [n('/boots/length', 'int'), ' boots'] : 'one boot'];
	}

	function warnings() {
		const out = [];
		const late = [];
		for (const [c] of indexed(doc.headline, c => c.late_sleeps > 0))
			late.push(`${wname(c.workload)} (${c.governor})`);
		if (doc.dropped_records === null)
			out.push('A record file has no trailer (its loader was killed): drops are unknown.');
		else if (doc.dropped_records > 0)
			out.push(h('span', {}, n('/dropped_records', 'int'), ' idle periods were lost (ring buffer full).'));
		if (doc.records_cut_short > 0)
			out.push(h('span', {}, n('/records_cut_short', 'int'), ' record files were cut short.'));
		if (doc.aggregator_rejected_records > 0)
			out.push(h('span', {}, n('/aggregator_rejected_records', 'int'), ' records were rejected.'));
		if (late.length)
			out.push('Sleeps woke more than 10 ms late in: ' + late.join(', ') + '.');
		return out.map(w => h('div', { class: 'warn' }, w));
	}

	/* ---- the headline, from its cells' shape --------------------------- */

	const isCells = v => Array.isArray(v) && v.length > 0 &&
		v.every(c => c && typeof c === 'object' && 'workload' in c && 'governor' in c);
	/* report.txt's names; a member without one is named by its key. */
	const METRIC_TITLES = {
		within_2x: 'within 2x %', ideal_hit: 'ideal hit %',
		too_deep: 'deeper than ideal %', too_shallow: 'shallower than ideal %',
	};
	const VIEW_TITLES = {
		headline_logical: 'logical idle periods (a tick-ended run as one)',
		headline: 'raw idle periods',
	};

	function headlineViews() {
		const keys = Object.keys(doc).filter(k => k.startsWith('headline') && isCells(doc[k]));
		/* report.txt's first screen first. */
		keys.sort((a, b) => (b === 'headline_logical') - (a === 'headline_logical'));
		use(...Object.keys(doc).filter(k => k.startsWith('headline')));
		const parts = keys.map(k => headlineView(k));
		parts.unshift(h('p', { class: 'note' }, 'Each cell: the share in % and its 95% interval ',
			'(over boots when there are several: t over the boots\' own shares; else batch ',
			'means within the one boot), with a bar of the interval, a tick at the share and a ',
			'dot per boot. ±? : too few independent samples for an interval.'));
		return section('headline', 'Headline', parts);
	}

	/* String members that tell apart two cells of one workload and governor. */
	function splitKeys(cells) {
		const keys = new Set();
		const seen = new Map();
		for (const c of cells) {
			const id = c.workload + '\0' + c.governor;
			if (!seen.has(id)) {
				seen.set(id, c);
				continue;
			}
			for (const [k, v] of Object.entries(c))
				if (typeof v === 'string' && v !== seen.get(id)[k])
					keys.add(k);
		}
		return [...keys];
	}

	function headlineView(key) {
		const cells = doc[key];
		const split = splitKeys(cells);
		const govs = doc.governors.filter(g => cells.some(c => c.governor === g));
		const rows = [];
		const rowOf = new Map();
		cells.forEach((c, i) => {
			const id = [c.workload, ...split.map(k => c[k])].join('\0');
			if (!rowOf.has(id)) {
				rowOf.set(id, { label: c.workload, tags: split.map(k => `${k} ${c[k]}`), cells: {} });
				rows.push(rowOf.get(id));
			}
			rowOf.get(id).cells[c.governor] = i;
		});
		const first = cells[0];
		const members = Object.keys(first).filter(k => k !== 'workload' && k !== 'governor' &&
							 !split.includes(k));
		const shares = members.filter(k => cells.some(c => isShare(c[k])));
		const counts = members.filter(k => cells.every(c => typeof c[k] === 'number'));
		const lists = members.filter(k => cells.some(c => Array.isArray(c[k]) &&
					c[k].some(x => x && typeof x === 'object')));
		const attrs = members.filter(k => !shares.includes(k) && !counts.includes(k) &&
					     !lists.includes(k) && cells.every(c => typeof c[k] !== 'object'));
		const src = (i, ...p) => ptr(key, i, ...p);
		const label = r => [wname(r.label), ...r.tags.map(t => h('span', { class: 'tag' }, t)),
			...rowAttrs(r, attrs, cells)];
		const matrix = (metric, draw) => table([metric, ...govs], rows.map(r =>
			[label(r), ...govs.map(g => r.cells[g] === undefined ? '' : draw(r.cells[g]))]));
		const parts = [h('h3', {}, VIEW_TITLES[key] || key)];
		for (const m of shares) {
			const dots = i => (cells[i].per_boot || []).map(b => b[m] && b[m].pct).filter(known);
			const scale = scaleOf(cells.flatMap((c, i) => c[m] ? [c[m].lo, c[m].hi, c[m].pct,
									  ...dots(i)] : []));
			parts.push(matrix(METRIC_TITLES[m] || m.replace(/_/g, ' ') + ' %', i => cells[i][m] ? share(src(i, m), {
				scale, dots: dots(i),
				noInterval: (cells[i].too_few_independent_samples || []).includes(m),
			}) : ''));
		}
		parts.push(h('details', {}, h('summary', {}, 'counts: ' + counts.join(', ')),
			     counts.map(m => matrix(m.replace(/_/g, ' '), i => n(src(i, m), 'int')))));
		for (const m of lists) {
			const with_ = indexed(cells, c => Array.isArray(c[m]) && c[m].length);
			if (!with_.length)
				continue;
			parts.push(h('details', {}, h('summary', {}, `${m.replace(/_/g, ' ')} (${with_.length} cells)`),
				     with_.map(([c, i]) => [h('h4', {}, `${wname(c.workload)}, ${c.governor}`),
							     genericTable(src(i, m))])));
		}
		return parts;
	}

	/* A row's members that are one value over its cells, as tags. */
	function rowAttrs(r, attrs, cells) {
		const mine = Object.values(r.cells).map(i => cells[i]);
		return attrs.flatMap(k => {
			const v = mine[0][k];
			if (new Set(mine.map(c => JSON.stringify(c[k]))).size !== 1 || v === false ||
			    v === 'unknown' || Array.isArray(v) || k === 'interval')
				return [];
			return [h('span', { class: 'tag' }, v === true ? k.replace(/_/g, ' ') : `${k} ${v}`)];
		});
	}

	/* ---- per workload ------------------------------------------------- */

	const BIN_OFFSET = 16;	/* ratio_log2_hist[0] is 2^-16 */
	function binLabel(k) {
		const v = k < 0 ? '1/' + 2 ** -k : String(2 ** k);
		return k === -BIN_OFFSET ? '≤' + v : k === BIN_OFFSET ? '≥' + v : v;
	}

	function ratioChart(w, live, acrossIdx) {
		const series = [];
		for (const [r, i] of live)
			if (r.all_cpus.predicted_samples > 0)
				series.push({ label: r.governor, hist: `/results/${i}/all_cpus/ratio_log2_hist`,
					      den: `/results/${i}/all_cpus/predicted_samples` });
		if (acrossIdx >= 0)
			doc.across_governors[acrossIdx].all_governors.shadow.forEach((s, m) => {
				if (s.samples > 0)
					series.push({ label: 'model ' + s.model, model: s.model, dashed: true,
						      hist: `/across_governors/${acrossIdx}/all_governors/shadow/${m}/ratio_log2_hist`,
						      den: `/across_governors/${acrossIdx}/all_governors/shadow/${m}/samples` });
			});
		if (!series.length)
			return h('p', { class: 'note' }, 'No predictions to plot.');
		let lo = BIN_OFFSET, hi = -BIN_OFFSET;
		for (const s of series)
			get(s.hist).forEach((b, j) => {
				if (b.count > 0) {
					lo = Math.min(lo, j - BIN_OFFSET - 1);
					hi = Math.max(hi, j - BIN_OFFSET + 1);
				}
			});
		lo = Math.max(lo, -BIN_OFFSET);
		hi = Math.min(hi, BIN_OFFSET);
		const bins = [];
		for (let k = lo; k <= hi; k++)
			bins.push(k);
		return chart(bins.map(binLabel), series.map(s => ({
			label: s.label, dashed: s.dashed, color: idlescope.color(s.model || s.label),
			points: bins.map(k => ({ src: `${s.hist}/${k + BIN_OFFSET}/count`, den: s.den })),
		})), { x: 'predicted / actual (bin [x, 2x))', y: '% of predictions', title: 'prediction / actual',
		       caption: 'The share of predictions per power-of-2 bin of predicted/actual; 1 is a ' +
			'prediction within [1, 2) of the actual idle time. Solid: the live governors; dashed: ' +
			'each model replayed on all of the workload\'s periods.' });
	}

	function factorTable(live, acrossIdx) {
		const cols = live.filter(([r]) => r.all_cpus.predicted_samples > 0)
			.map(([r, i]) => ({ head: r.governor, base: `/results/${i}/all_cpus`, count: 'predicted_samples' }));
		if (acrossIdx >= 0)
			doc.across_governors[acrossIdx].all_governors.shadow.forEach((s, m) => {
				if (s.samples > 0)
					cols.push({ head: 'model ' + s.model, count: 'samples',
						    base: `/across_governors/${acrossIdx}/all_governors/shadow/${m}` });
			});
		if (!cols.length)
			return null;
		const rows = doc.factors.map((f, fi) => [f.label,
			...cols.map(c => share(`${c.base}/within_factor/${fi}`))]);
		rows.push(['predictions', ...cols.map(c => n(`${c.base}/${c.count}`, 'int'))]);
		return table(['within', ...cols.map(c => c.head)], rows,
			     { caption: '% of predictions within F of the actual idle time' });
	}

	function idealTable(live) {
		const b = i => `/results/${i}/all_cpus`;
		return table(['governor', 'periods', 'ideal hit %', 'deeper %', 'shallower %',
			      'shallow time %', 'kernel above %', 'kernel below %'],
			     live.map(([r, i]) => [r.governor, n(b(i) + '/samples', 'int'),
				...['hit', 'too_deep', 'too_shallow', 'shallow_time'].map(k => share(`${b(i)}/ideal_state/${k}`)),
				share(b(i) + '/miss_above'), share(b(i) + '/miss_below')]),
			     { caption: 'The state entered against the ideal one (the deepest enabled state whose ' +
				'target residency fits the period); above / below: the kernel\'s cpu_idle_miss verdicts' });
	}

	function wakeups(why) {
		const kinds = [...new Set(why.flatMap(([e]) => e.wakeups.map(x => x.source)))];
		const chartPart = chart(why.map(([e]) => e.governor), kinds.map(k => ({
			label: k, color: idlescope.color('source ' + k),
			points: why.map(([e, i]) => ({
				src: e.wakeups.map((x, j) => [x, j]).filter(([x]) => x.source === k)
					.map(([, j]) => `/why/${i}/wakeups/${j}/periods`),
				den: `/why/${i}/periods` })),
		})), { type: 'bar', stacked: true, horizontal: true, short: true, max: 100, x: '% of idle periods',
		       title: 'what ended the idle periods' });
		const rows = why.flatMap(([e, i]) => e.wakeups.map((x, j) => {
			const s = `/why/${i}/wakeups/${j}`;
			return [e.governor, n(s + '/ended_by', 'str'), n(s + '/periods', 'int'),
				n(s + '/periods', 'frac', { den: `/why/${i}/periods` }),
				share(s + '/within_2x'), share(s + '/ideal_hit'),
				n(s + '/too_deep_samples', 'int'), n(s + '/too_shallow_samples', 'int')];
		}));
		return [chartPart, h('details', {}, h('summary', {}, 'by wake-up source'),
			table(['governor', 'ended by', 'periods', '% of periods', 'within 2x %', 'ideal hit %',
			       'deeper', 'shallower'], rows))];
	}

	function tickTable(why) {
		return table(['governor', 'tick stopped', 'stopped, period short %', 'tick kept',
			      'kept, needlessly %', 'kept, unknown', 'ended by a timer', 'ended earlier %'],
			     why.map(([e, i]) => {
				const t = `/why/${i}/tick`;
				return [e.governor, n(t + '/stopped', 'int'), share(t + '/stopped_short_share'),
					n(t + '/kept', 'int'), share(t + '/kept_needless_share'),
					n(t + '/kept_unknown', 'int'), n(`/why/${i}/hits`, 'int'),
					share(`/why/${i}/intercept_share`)];
			}), { caption: 'Tick decisions: a stop is wasted when the period ends before the next ' +
				'tick; a kept tick is needless when the period outlasts it. Hits and intercepts are ' +
				'teo\'s view: a timer ended the period, or something earlier did.' });
	}

	function energy(why) {
		const known_ = why.filter(([e]) => e.energy);
		if (!known_.length)
			return h('p', { class: 'note' }, 'No power table: no energy figures.');
		const e = i => `/why/${i}/energy`;
		return [chart(known_.map(([x]) => x.governor), [{
			label: 'idle energy over the oracle\'s %', color: '#c23b3b',
			points: known_.map(([, i]) => ({ src: e(i) + '/excess/pct' })) }],
			{ type: 'bar', short: true, y: '% more than the oracle', title: 'energy against the oracle' }),
		table(['governor', 'periods', 'energy uJ', 'oracle uJ', 'excess %', 'exit latency per wake-up us',
		       'oracle\'s us', 'shallower', 'deeper'], known_.map(([x, i]) => [x.governor,
			n(e(i) + '/periods', 'int'), n(e(i) + '/energy_uj', 'num'), n(e(i) + '/oracle_energy_uj', 'num'),
			share(e(i) + '/excess'), n(e(i) + '/exit_latency_ns', 'per_us', { den: e(i) + '/periods' }),
			n(e(i) + '/oracle_exit_latency_ns', 'per_us', { den: e(i) + '/periods' }),
			n(e(i) + '/shallower', 'int'), n(e(i) + '/deeper', 'int')]),
			{ caption: 'The oracle knew every period\'s length and chose the state that spends the ' +
				'least energy on it (power table: ' + (doc.power_table ? doc.power_table.source : '?') + ').' })];
	}

	function agreement(live) {
		const rows = [];
		for (const [r, i] of live)
			r.all_cpus.shadow.forEach((s, m) => {
				const b = `/results/${i}/all_cpus/shadow/${m}`;
				if (s.agree_checked > 0)
					rows.push([r.governor, s.model, 'prediction', n(b + '/agree_samples', 'frac', { den: b + '/agree_checked' }),
						   n(b + '/agree_samples', 'int'), n(b + '/agree_checked', 'int')]);
				if (s.state_agree_checked > 0)
					rows.push([r.governor, s.model, 'state', n(b + '/state_agree_samples', 'frac',
						   { den: b + '/state_agree_checked' }), n(b + '/state_agree_samples', 'int'),
						   n(b + '/state_agree_checked', 'int')]);
			});
		if (!rows.length)
			return h('p', { class: 'note' }, 'No model ran beside its own governor here.');
		return table(['governor', 'model', 'of', 'agree %', 'same', 'checked'], rows,
			     { caption: 'How often the model of the running governor reproduced the kernel\'s own ' +
				'prediction or chosen state: 99.9% or more says model and port are right.' });
	}

	function seedMethod(w) {
		return indexed(doc.seed_method, s => s.workload === w).map(([s, i]) => {
			const col = c => `/seed_method/${i}/columns/${c}`;
			return table(['factor', ...s.columns.flatMap(c => [c.column, '2010 ' + c.column])],
				doc.factors.map((f, fi) => [f.label, ...s.columns.flatMap((c, ci) => [
					share(`${col(ci)}/within_factor/${fi}`), n(`${col(ci)}/within_factor/${fi}/seed_pct`, 'pct')])]),
				{ caption: [`The seed's experiment on the menu2010 run's `, n(`/seed_method/${i}/periods`, 'int'),
					    ' periods, beside the 2010 cover letter\'s numbers'] });
		});
	}

	function figures(w) {
		const rows = indexed(doc.workload_figures, f => f.workload === w).map(([f, i]) => {
			const s = `/workload_figures/${i}`;
			return [f.governor, n(s + '/figure', 'str'), n(s + '/mean', 'num'), n(s + '/unit', 'str'),
				n(s + '/runs', 'int'), f.values.map((v, j) => n(`${s}/values/${j}`, 'num'))
					.flatMap((x, j) => j ? [', ', x] : [x])];
		});
		return rows.length ? [h('h3', {}, 'the workload\'s own figures'),
			table(['governor', 'figure', 'mean', 'unit', 'runs', 'values'], rows)] : [];
	}

	function workloadSection(w) {
		const live = indexed(doc.results, r => r.workload === w);
		const acrossIdx = doc.across_governors.findIndex(a => a.workload === w);
		const why = indexed(doc.why, e => e.workload === w);
		const [sources, bySource] = why.length ? wakeups(why) : [null, null];
		const s = section(anchor('w', w), wname(w),
			h('div', { class: 'charts' }, ratioChart(w, live, acrossIdx), sources),
			factorTable(live, acrossIdx), idealTable(live),
			why.length ? [h('h3', {}, 'wake-up sources'), bySource,
				      h('h3', {}, 'tick decisions'), tickTable(why),
				      h('h3', {}, 'energy against the oracle'), energy(why)] : null,
			h('h3', {}, 'model agreement'), agreement(live),
			seedMethod(w), figures(w));
		s.classList.add('workload');
		return s;
	}

	/* ---- the run's environment and the rest ----------------------------- */

	function environment() {
		const facts = ['hz', 'cpuidle_driver', 'clock_mode', 'clock_args', 'exit_cost', 'governors',
			       'workloads', 'capabilities', 'predictions_available', 'records_produced',
			       'dropped_records', 'records_cut_short', 'aggregator_rejected_records',
			       'ringbuf_size_bytes', 'sysfs_usage_delta', 'sysfs_above_delta',
			       'sysfs_below_delta', 'shadow_models', 'shadow_replay_resets'].filter(k => k in doc);
		use(...facts, 'guest_ps_per_instruction', 'timer_lateness', 'reconstruction', 'per_cpu_records',
		    'skipped_programs', 'state_table', 'power_table', 'factors', 'seed_reference');
		const speed = doc.guest_ps_per_instruction;
		const late = doc.timer_lateness;
		return section('environment', 'The run\'s environment',
			h('dl', { class: 'facts' },
			  h('dt', {}, 'kernel'), h('dd', {}, n('/kernel_release', 'str')),
			  h('dt', {}, 'guest speed'), h('dd', {}, speed.lo ? [
				n('/guest_ps_per_instruction/lo', 'int'), ' to ', n('/guest_ps_per_instruction/hi', 'int'),
				' ps of guest time per instruction'] : 'unknown'),
			  h('dt', {}, 'timer lateness'), h('dd', {}, late.wakeups ? ['median ',
				n('/timer_lateness/median_ns', 'us'), ' us, p99 ', n('/timer_lateness/p99_ns', 'us'),
				' us, max ', n('/timer_lateness/max_ns', 'us'), ' us over ',
				n('/timer_lateness/wakeups', 'int'), ' wake-ups'] : 'not measured'),
			  facts.flatMap(k => [h('dt', {}, k.replace(/_/g, ' ')), h('dd', {}, cell(ptr(k)))])),
			h('h3', {}, 'stock menu\'s predictions rebuilt'), genericFacts('/reconstruction'),
			h('h3', {}, 'records per CPU'), genericTable('/per_cpu_records'),
			doc.skipped_programs.length ? [h('h3', {}, 'BPF programs not attached'),
						       genericTable('/skipped_programs')] : null,
			h('h3', {}, 'idle states'), genericTable('/state_table'),
			doc.power_table ? [h('h3', {}, 'power table'), genericTable('/power_table/states')] : null,
			doc.boots.length ? [h('h3', {}, 'boots'), genericTable('/boots')] : null,
			h('h3', {}, 'the seed\'s published table'), genericTable('/seed_reference'));
	}

	function rest() {
		const keys = Object.keys(doc).filter(k => !drawn.has(k));
		if (!keys.length)
			return null;
		return section('other', 'Other members of report.json', keys.map(k => [h('h3', {}, k),
			isCells(doc[k]) || (Array.isArray(doc[k]) && doc[k].every(x => x && typeof x === 'object')) ?
				h('details', {}, h('summary', {}, `${doc[k].length} entries`), genericTable(ptr(k))) :
				h('div', {}, cell(ptr(k)))]));
	}

	const sub = subtitle();
	const parts = [warnings(), headlineViews()];
	use('results', 'across_governors', 'why', 'seed_method', 'workload_figures');
	parts.push(...doc.workloads.map(w => workloadSection(w)), environment(), rest());
	render('idlescope report: ' + doc.kernel_release, sub, parts);
})();
