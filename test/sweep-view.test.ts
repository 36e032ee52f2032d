import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/core/config/defaults';
import { parseSweep } from '../src/core/sweep/cells';
import type { SweepAlgorithm, SweepCell } from '../src/core/sweep/document';
import { decodeSweepLink, DEFAULT_SWEEP_VIEW, encodeSweepLink, isSweepLink } from '../src/core/sweep/link';
import { cellVerdict, outcomeDomain, sweepCsv } from '../src/core/sweep/outcomes';
import { SWEEP_PRESETS } from '../src/core/sweep/presets';
import { compressText } from '../src/core/config/link-compress';
import { runSweepCells, type SweepExecutors } from '../src/core/sweep/run';
import { startSweep, type ConnectSweep } from '../src/worker/sweep-client';
import type { SweepWorkerEvent, SweepWorkerRequest } from '../src/worker/sweep-protocol';
import { parseAxisValue, parseAxisValues } from '../src/ui/sweep-actions';
import { axisValueText, cellTitle, outcomeText, sweepSizeText, timeLeft } from '../src/ui/sweep-text';
import phaseFixture from './fixtures/sweep/phase-two-prompts.json';

// The Sweep view's pure parts: the link that replays a sweep, the outcome
// list and its colour domain, the CSV, the words of the view, the worker client's bookkeeping.

const alg = (id: string, over: Partial<SweepAlgorithm> = {}): SweepAlgorithm => ({
  id,
  finalJ: { mean: 0.5, lo: 0.4, hi: 0.6 },
  atOptimum: 0.25,
  violations: 3,
  medianItersTo95: 40,
  claims: [{ claim: 2, verdict: 'not observed' }, { claim: 4, verdict: 'undecided', parts: [{ part: 'a', verdict: 'observed' }] }],
  ...over,
});
const cell = (index: number, values: SweepCell['values'], algorithms: SweepAlgorithm[], Jstar = 1): SweepCell => ({ index, values, Jstar, algorithms });

describe('sweep links', () => {
  const doc = { version: 1 as const, base: { ...DEFAULT_CONFIG, seeds: 2, iterations: 20 }, axes: [{ path: 'optimizer.lr', values: [0.3, 3] }] };

  it('round-trip: a link opens the same sweep (base, axes) and view', () => {
    const link = encodeSweepLink(doc, { outcome: 'verdict', claim: 4 });
    if (!link.ok) throw new Error(link.message);
    expect(link.fragment).toMatch(/^v=1&sweep=[A-Za-z0-9_-]+&show=verdict&claim=4$/);
    expect(isSweepLink(`https://x.org/app/#${link.fragment}`)).toBe(true);
    expect(isSweepLink('#v=1&seeds=3')).toBe(false);
    const d = decodeSweepLink(`#${link.fragment}`);
    if (!d.ok) throw new Error(d.message);
    expect(d.doc).toEqual(doc);
    expect(d.view).toEqual({ outcome: 'verdict', claim: 4 });
    expect(d.sweep.cells).toBe(2);
  });

  it('the default view is left out of the link', () => {
    const link = encodeSweepLink(doc, DEFAULT_SWEEP_VIEW);
    expect(link.ok && link.fragment).toMatch(/^v=1&sweep=[A-Za-z0-9_-]+$/);
  });

  it('refusals name the part of the link, or the sweep field, at fault', () => {
    const z = (v: unknown) => compressText(JSON.stringify(v));
    const cases: [string, string][] = [
      ['v=2&sweep=abc', 'v: must be 1'],
      ['v=1&sweep=***', 'sweep: is not base64url'],
      [`v=1&sweep=${compressText('{nope')}`, 'sweep: does not hold a JSON sweep document'],
      [`v=1&sweep=${z({ ...doc, axes: [{ path: 'optimizer.lr', values: [0.3, -1] }] })}`, 'sweep: axes[0].values[1]: optimizer.lr'],
      [`v=1&sweep=${z(doc)}&show=colour`, 'show: must be one of finalJ, atOptimum, violations, medianItersTo95, verdict'],
      [`v=1&sweep=${z(doc)}&claim=9`, 'claim: must be a claim number from 1 to 5, got "9"'],
      [`v=1&sweep=${z(doc)}&seeds=4`, 'seeds: is not part of a sweep link'],
      [`v=1&sweep=${z(doc)}&sweep=${z(doc)}`, 'sweep: is given twice'],
    ];
    for (const [link, want] of cases) {
      const d = decodeSweepLink(link);
      expect(d.ok, link).toBe(false);
      if (!d.ok) expect(d.message).toContain(want);
    }
  });

  it('a sweep too large for a link says so and names the limit', () => {
    const rewards = Array.from({ length: 5 }, () => Array.from({ length: 50_000 }, () => Math.random()));
    const big = { ...doc, base: { ...doc.base, env: { turns: 1, vocab: 2, rewards } } };
    const link = encodeSweepLink(big, DEFAULT_SWEEP_VIEW);
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.message).toMatch(/too large for a link: use Export config .*a link holds at most/);
  });

  it('every preset is a valid sweep; the phase diagram is the fixture the CLI tests run', () => {
    for (const p of SWEEP_PRESETS) expect(parseSweep(p.doc).cells).toBeGreaterThan(1);
    expect(SWEEP_PRESETS.find((p) => p.id === 'phase-lr-normalization')!.doc).toEqual(phaseFixture);
  });
});

describe('sweep outcomes', () => {
  const cells = [
    cell(0, [0.1, 'none'], [alg('a', { finalJ: { mean: 0.2, lo: 0.1, hi: 0.3 }, violations: 0, medianItersTo95: null }), alg('b', { violations: 7 })], 0.8),
    cell(1, [0.1, 'group'], [alg('a', { finalJ: { mean: -0.5, lo: -0.6, hi: -0.4 } }), alg('b', { finalJ: { mean: null, lo: null, hi: null } })], 0.8),
  ];

  it('one colour domain over every cell and algorithm shown: J from min(0, lowest) to max(highest, J*); shares 0–1; counts from 0', () => {
    expect(outcomeDomain(cells, 'finalJ', ['a', 'b'])).toEqual([-0.5, 0.8]);
    expect(outcomeDomain(cells.slice(0, 1), 'finalJ', ['a'])).toEqual([0, 0.8]);
    expect(outcomeDomain(cells, 'atOptimum', ['a'])).toEqual([0, 1]);
    expect(outcomeDomain(cells, 'violations', ['a', 'b'])).toEqual([0, 7]);
    expect(outcomeDomain(cells, 'violations', ['a'])).toEqual([0, 3]);
    expect(outcomeDomain([], 'medianItersTo95', ['a'])).toEqual([0, 1]);
    expect(outcomeDomain([cell(0, [1], [alg('a', { violations: 0 })])], 'violations', ['a'])).toEqual([0, 1]);
  });

  it('a claim verdict per algorithm; n/a where the claim’s evidence leaves the algorithm out; parts by letter', () => {
    const a = alg('a');
    expect(cellVerdict(a, 2)).toBe('not observed');
    expect(cellVerdict(a, 1)).toBe('n/a');
    expect(cellVerdict(a, 4, 'a')).toBe('observed');
    expect(cellVerdict(a, 4, 'b')).toBe('n/a');
  });

  it('CSV: one row per cell and algorithm, the axes first, empty for none, text quoted when it needs it', () => {
    const csv = sweepCsv({ version: 1, axes: [{ path: 'optimizer.lr', values: [0.1] }, { path: 'env.preset', values: ['none', 'group'] }], cells: [cells[0]!, cell(1, [0.1, 'a,"b"'], [alg('b', { finalJ: { mean: null, lo: null, hi: null } })])] });
    expect(csv.split('\n')).toEqual([
      'optimizer.lr,env.preset,cell,algorithm,Jstar,finalJ,finalJ_lo,finalJ_hi,atOptimum,violations,medianItersTo95,claim1,claim2,claim3,claim4,claim5',
      '0.1,none,0,a,0.8,0.2,0.1,0.3,0.25,0,,n/a,not observed,n/a,undecided,n/a',
      '0.1,none,0,b,0.8,0.5,0.4,0.6,0.25,7,40,n/a,not observed,n/a,undecided,n/a',
      '0.1,"a,""b""",1,b,1,,,,0.25,3,40,n/a,not observed,n/a,undecided,n/a',
      '',
    ]);
  });
});

describe('the Sweep view’s words', () => {
  it('values typed in: numbers, booleans, null, words', () => {
    expect(parseAxisValues('0.03, 1e-4, 10 , none,true, null, -2')).toEqual([0.03, 1e-4, 10, 'none', true, null, -2]);
    expect(parseAxisValues('  ')).toEqual([]);
    expect(parseAxisValue('1.5x')).toBe('1.5x');
    expect(parseAxisValues('0.1,,3')).toEqual([0.1, '', 3]); // the schema refuses "" by its place
  });

  it('axis values, outcomes and the size in words', () => {
    expect([0.03, 1e-4, 100, 1 / 3, 'group', true, null].map(axisValueText)).toEqual(['0.03', '1.0e-4', '100', '0.3333', 'group', 'true', 'null']);
    const a = alg('a', { medianItersTo95: null, finalJ: { mean: 0.6251, lo: 0.6, hi: 0.65 } });
    expect([outcomeText(a, 'finalJ'), outcomeText(a, 'atOptimum'), outcomeText(a, 'violations'), outcomeText(a, 'medianItersTo95')]).toEqual(['0.63', '25%', '3', '∞']);
    expect(sweepSizeText([{ values: [1, 2, 3, 4, 5, 6, 7, 8] }, { values: [1, 2, 3] }], 2, 1, 500)).toBe('8 × 3 = 24 cells × 2 algorithms × 1 seed = 48 runs of 500 iterations');
    expect(sweepSizeText([{ values: [1] }], 1, 16, 1)).toBe('1 cell × 1 algorithm × 16 seeds = 16 runs of 1 iteration');
    const title = cellTitle([{ path: 'optimizer.lr', values: [3] }, { path: 'algorithms.*.normalization', values: ['group'] }], cell(4, [3, 'group'], [a], 0.625), a, 'GRPO', 2);
    expect(title).toBe('lr = 3, normalization = group — GRPO: final J 0.625 [0.600, 0.650] (J* 0.625), at J* 25% of seeds, drops 3, median t95 ∞; claim 2: not observed. Click to open this cell in the explorer.');
  });

  it('time left at the rate so far', () => {
    expect(timeLeft(0, 100, 1000)).toBeNull();
    expect(timeLeft(100, 100, 1000)).toBeNull();
    expect(timeLeft(50, 100, 10_000)).toBe('about 10 s left');
    expect(timeLeft(10, 100, 100)).toBe('under a second left');
    expect(timeLeft(1, 80, 60_000)).toBe('about 79 min left');
    expect(timeLeft(1, 100, 60_000)).toBe('about 1.6 h left');
    expect(timeLeft(1, 1001, 60_000)).toBe('about 16.7 h left');
  });
});

describe('the sweep runner and the page’s worker client', () => {
  it('stops between jobs when asked', async () => {
    const sweep = parseSweep({ version: 1, base: { ...DEFAULT_CONFIG, iterations: 3, seeds: 1, algorithms: [{ id: 'grpo' }], changes: [{ at: 1, path: 'optimizer.lr', value: 2 }] }, axes: [{ path: 'optimizer.lr', values: [0.3, 3] }] });
    let singles = 0;
    const never: SweepExecutors = {
      batch: () => Promise.reject(new Error('no batch expected: cells with changes run alone')),
      single: () => {
        singles++;
        return Promise.reject(new Error('not reached'));
      },
    };
    await expect(runSweepCells(sweep, [0, 1], never, { shard: null, stopped: () => true })).rejects.toThrow('stopped');
    expect(singles).toBe(0);
  });

  it('deals the cells over the workers as shards, sums their progress, and ends once every worker is done', () => {
    const workers: { req: SweepWorkerRequest | null; emit: (e: SweepWorkerEvent) => void; closed: boolean }[] = [];
    const connect: ConnectSweep = (onEvent) => {
      const w = { req: null as SweepWorkerRequest | null, emit: onEvent, closed: false };
      workers.push(w);
      return { post: (r) => (w.req = r), close: () => (w.closed = true) };
    };
    const seen: string[] = [];
    const doc = { version: 1 as const, base: {}, axes: [] };
    const h = startSweep(doc, 5, 4, connect, {
      progress: (d, t) => seen.push(`progress ${d}/${t}`),
      cell: (c) => seen.push(`cell ${c.index}`),
      done: (w) => seen.push(`done ${w.join('|')}`),
      error: (m) => seen.push(`error ${m}`),
    });
    expect(h.workers).toBe(4);
    expect(workers.map((w) => w.req!.shard)).toEqual([0, 1, 2, 3].map((index) => ({ index, count: 4 })));
    workers[0]!.emit({ type: 'progress', done: 10, total: 20 });
    workers[1]!.emit({ type: 'progress', done: 5, total: 10 });
    workers[1]!.emit({ type: 'cell', cell: cell(1, [1], []) });
    for (const w of workers) w.emit({ type: 'done', warnings: ['w'] });
    expect(seen).toEqual(['progress 10/20', 'progress 15/30', 'cell 1', 'done w']);
    expect(workers.every((w) => w.closed)).toBe(true);
  });

  it('never starts more workers than cells; an error stops every worker', () => {
    const closed: boolean[] = [];
    const emits: ((e: SweepWorkerEvent) => void)[] = [];
    const connect: ConnectSweep = (onEvent) => {
      const i = closed.push(false) - 1;
      emits.push(onEvent);
      return { post: () => {}, close: () => (closed[i] = true) };
    };
    const seen: string[] = [];
    startSweep({ version: 1, base: {}, axes: [] }, 2, 8, connect, { progress: () => {}, cell: () => {}, done: () => seen.push('done'), error: (m) => seen.push(m) });
    expect(closed).toHaveLength(2);
    emits[0]!({ type: 'error', message: 'boom' });
    emits[1]!({ type: 'done', warnings: [] }); // after the error: ignored
    expect(seen).toEqual(['boom']);
    expect(closed).toEqual([true, true]);
  });
});
