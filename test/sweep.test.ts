import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { cellConfig, cellValues, parseSweep, resolveCell } from '../src/core/sweep/cells';
import { BatchCells, perRunAxis, planJobs } from '../src/core/sweep/batch';
import { cellOf, shardCells } from '../src/core/sweep/document';
import { mergeShards } from '../src/core/sweep/merge';
import { gridValues } from '../src/core/sweep/schema';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { runSweepCellsInNode as runSweepCells } from '../src/cli/sweep-run';
import { runShard } from '../src/exec/cpu/protocol';
import { allRuns } from '../src/core/run/partition';
import type { RunSeries } from '../src/core/run/series';
import { configErrorOf } from './support/config-error';

// Sweeps: the format, the cells, and the batched run whose every number equals the
// cell run as an experiment of its own (the CPU executor, in this thread; the CLI tests run the
// bundled threads and separate processes).

const BASE = {
  version: 1,
  env: { preset: 'lock' },
  mode: 'sampled',
  iterations: 25,
  seeds: 3,
  groupSize: 8,
  optimizer: { kind: 'sgd', lr: 0.5 },
  // streams of every purpose: sampling (all), minibatch shuffles (minibatches 2), turn orders (random), a critic (gae),
  // and an algorithm with its own lr (optimizer.lr must not reach it)
  algorithms: [{ id: 'grpo', minibatches: 2 }, { id: 'seeupo' }, { id: 'seeupo-random' }, { id: 'ppo-gae' }, { id: 'reinforce', lr: 0.2 }],
};

const sweepOf = (axes: unknown[], base: Record<string, unknown> = BASE) => ({ version: 1, base, axes });

/** The sweep cell computed as its own experiment by `run`'s path (runOnCpu on the cell's config). */
async function alone(config: Record<string, unknown>) {
  const exp = resolveConfig(config);
  return runOnCpu(exp, config, { threads: 1, launch: inThisThread });
}

const errorOf = configErrorOf;

describe('sweep format', () => {
  it('grids: linear and log, ends exact, 12 significant digits', () => {
    expect(gridValues({ from: 0.1, to: 0.5, count: 5 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(gridValues({ from: 0.01, to: 10, count: 4, scale: 'log' })).toEqual([0.01, 0.1, 1, 10]);
    expect(gridValues({ from: 3, to: 3, count: 1 })).toEqual([3]);
  });

  it('cells are the product of the axes, first axis slowest; "*" writes every algorithm the field applies to', () => {
    const s = parseSweep(sweepOf([{ path: 'optimizer.lr', values: [0.1, 1] }, { path: 'algorithms.*.clip', grid: { from: 0.1, to: 0.3, count: 3 } }]));
    expect(s.cells).toBe(6);
    expect([0, 1, 2, 3, 5].map((c) => cellValues(s, c))).toEqual([[0.1, 0.1], [0.1, 0.2], [0.1, 0.3], [1, 0.1], [1, 0.3]]);
    const c = cellConfig(s, 4) as { optimizer: unknown; algorithms: Record<string, unknown>[] };
    expect(c.optimizer).toEqual({ kind: 'sgd', lr: 1 });
    // clip is read by ppu and sequential rules, not by reinforce: no "ignored" warning for it
    expect(c.algorithms.map((a) => a.clip)).toEqual([0.2, 0.2, 0.2, 0.2, undefined]);
    expect(resolveCell(s, 4).warnings).toEqual([]);
    expect(BASE.algorithms[0]).toEqual({ id: 'grpo', minibatches: 2 }); // the base is never written
  });

  it('an indexed path and a missing optimizer or algorithm list start from the defaults', () => {
    const s = parseSweep(sweepOf([{ path: 'algorithms.1.normalization', values: ['batch'] }, { path: 'optimizer.lr', values: [2] }], { version: 1, env: { preset: 'lock' } }));
    const c = cellConfig(s, 0) as { algorithms: Record<string, unknown>[]; optimizer: unknown };
    expect(c.algorithms).toHaveLength(9);
    expect(c.algorithms[1]).toEqual({ id: 'rloo', normalization: 'batch' });
    expect(c.optimizer).toEqual({ kind: 'sgd', lr: 2 });
  });

  it('refuses bad sweeps with one message naming the field and the allowed range', () => {
    const lr = (values: unknown[]) => sweepOf([{ path: 'optimizer.lr', values }]);
    expect(errorOf(() => parseSweep(sweepOf([])))).toBe('axes: must list one or two axes');
    expect(errorOf(() => parseSweep(sweepOf([1, 2, 3].map(() => ({ path: 'seeds', values: [1] })))))).toMatch(/^axes: must list one or two axes/);
    expect(errorOf(() => parseSweep(lr([0.1, 2000])))).toBe('axes[0].values[1]: optimizer.lr: must be a number > 0 and ≤ 1000, got 2000');
    expect(errorOf(() => parseSweep(lr([0.1, 0.1])))).toBe('axes[0].values[1]: duplicate value 0.1 (also values[0])');
    expect(errorOf(() => parseSweep(lr([{}])))).toMatch(/^axes\[0\]\.values\[0\]: must be a finite number, a string/);
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'optimizer.lrr', values: [1] }])))).toBe('axes[0].path: optimizer.lrr: unknown field');
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'bogus', values: [1] }])))).toMatch(/^axes\[0\]\.path: must start with a config field \(env, policy/);
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'algorithms.*.ratio', values: ['x'] }])))).toBe('axes[0].values[0]: algorithms[0].ratio: must be one of "token", "sequence", got "x"');
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'algorithms.*.gaeLambda', values: [0.5] }], { ...BASE, algorithms: [{ id: 'grpo' }] })))).toMatch(
      /^axes\[0\]\.path: no algorithm of the base reads "gaeLambda"/,
    );
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'optimizer.lr', grid: { from: 0, to: 1, count: 3, scale: 'log' } }])))).toBe(
      'axes[0].grid: a log grid needs from > 0 and to > 0, got from 0, to 1',
    );
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'optimizer.lr', grid: { from: 1, to: 2, count: 999 } }])))).toBe('axes[0].grid.count: must be an integer from 1 to 256, got 999');
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'optimizer.lr', values: [1], grid: { from: 1, to: 2, count: 2 } }])))).toMatch(/^axes\[0\]: must give either "values"/);
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'seeds', values: [1] }, { path: 'seeds', values: [2] }])))).toMatch(/^axes\[1\]\.path: is the same field as axes\[0\]/);
    expect(errorOf(() => parseSweep({ ...sweepOf([{ path: 'seeds', values: [1] }]), extra: 1 }))).toBe('extra: unknown field');
    expect(errorOf(() => parseSweep(sweepOf([{ path: 'seeds', values: [1] }], { ...BASE, iterations: 0 })))).toBe('base.iterations: must be an integer from 1 to 100000, got 0');
    // a value valid alone, invalid in its cell: named by the cell and its values
    // (every cell is checked when the sweep is read, so every shard refuses it before running anything)
    const mb = sweepOf([{ path: 'groupSize', values: [8, 5] }]);
    expect(errorOf(() => parseSweep(mb))).toMatch(/^cell 1 \(groupSize = 5\): algorithms\[0\]\.minibatches: must divide the batch \(contextsPerBatch·groupSize = 5\)/);
  });

  it('refuses up front a sweep past the work limit, naming its axes and size', async () => {
    const big = parseSweep(sweepOf([{ path: 'optimizer.lr', grid: { from: 0.01, to: 10, count: 8, scale: 'log' } }, { path: 'algorithms.*.normalization', values: ['none', 'group', 'batch'] }], {
      version: 1,
      env: { preset: 'lock' },
      iterations: 2000,
      seeds: 200,
    }));
    const t0 = performance.now();
    await expect(runSweepCells(big, shardCells(big.cells, null), { threads: 1, workers: null, shard: null })).rejects.toThrow(
      /^axes: optimizer\.lr \(8 values\) × algorithms\.\*\.normalization \(3 values\) = 24 cells, 43,200 runs: about 2\.95e\+10 token-updates; the limit is 2e\+10 .*--shard I\/N \(N ≥ 2\)$/,
    );
    expect(performance.now() - t0).toBeLessThan(20_000); // refused before running (the sweep itself takes minutes)
  });
});

describe('batched sweeps equal their cells run alone', () => {
  it('every number of every cell, per-run axes (one batch) and a per-experiment axis (two batches)', async () => {
    const s = parseSweep(sweepOf([{ path: 'groupSize', values: [4, 8] }, { path: 'optimizer.lr', values: [0.3, 2] }, ]));
    const s2 = parseSweep(sweepOf([{ path: 'algorithms.*.normalization', values: ['none', 'group', 'batch'] }, { path: 'optimizer.lr', values: [0.3, 2] }]));
    for (const sweep of [s, s2]) {
      const cells = shardCells(sweep.cells, null);
      const jobs = planJobs(sweep, cells, cells.map((c) => resolveCell(sweep, c)), (c) => cellValues(sweep, c));
      expect(jobs.map((j) => j.kind)).toEqual(sweep === s ? ['batch', 'batch'] : ['batch']);
      const got = await runSweepCells(sweep, cells, { threads: 2, workers: null, shard: null });
      expect(got.cells.map((c) => c.index)).toEqual(cells);
      for (const c of cells) {
        const want = cellOf(c, cellValues(sweep, c), await alone(cellConfig(sweep, c)));
        expect(got.cells[c]).toEqual(want);
      }
    }
  });

  it('a batch read off per cell as its runs finish: each cell handed over once, whole, in cell order, whatever order the runs come in', () => {
    const sweep = parseSweep(sweepOf([{ path: 'optimizer.lr', values: [0.3, 1, 2] }]));
    const cells = [0, 1, 2];
    const [job] = planJobs(sweep, cells, cells.map((c) => resolveCell(sweep, c)), (c) => cellValues(sweep, c));
    if (job?.kind !== 'batch') throw new Error('expected one batch');
    const all = allRuns(job.exp).map((r) => ({ algoIndex: r.algoIndex, seedIndex: r.seedIndex }) as RunSeries);
    const perCell = all.length / 3;
    const handed: [number, number[]][] = [];
    const got = new BatchCells(job, (cell, series) => handed.push([cell, series.map((s) => s.algoIndex * 100 + s.seedIndex)]));
    got.take(all.slice(perCell, 2 * perCell)); // cell 1 whole: waits for cell 0
    expect(handed).toEqual([]);
    got.take(all.slice(0, perCell - 1));
    expect(handed).toEqual([]);
    got.take(all.slice(perCell - 1, perCell)); // cell 0's last run: cells 0 and 1 go
    expect(handed.map(([c]) => c)).toEqual([0, 1]);
    got.take(all.slice(2 * perCell));
    got.finish(all);
    expect(handed.map(([c]) => c)).toEqual([0, 1, 2]);
    // each cell's runs carry their position in their own cell
    const own = (from: number) => all.slice(from, from + perCell).map((s) => job.owners[s.algoIndex]!.algoIndex * 100 + s.seedIndex);
    expect(handed.map(([, ids]) => [...ids].sort((a, b) => a - b))).toEqual([0, perCell, 2 * perCell].map((f) => own(f).sort((a, b) => a - b)));
    // an executor that never says: every cell at the end, from the whole list
    const atEnd: number[] = [];
    new BatchCells(job, (cell) => atEnd.push(cell)).finish(all);
    expect(atEnd).toEqual([0, 1, 2]);
    // a run missing: an error, not a cell with fewer seeds
    expect(() => new BatchCells(job, () => {}).finish(all.slice(1))).toThrow(/without every run of its cells \(cell 0\)/);
  });

  it('the streams matter: batched without each run keeping its own cell position, the numbers differ', () => {
    const sweep = parseSweep(sweepOf([{ path: 'optimizer.lr', values: [0.3, 2] }]));
    const cells = [0, 1];
    const [job] = planJobs(sweep, cells, cells.map((c) => resolveCell(sweep, c)), (c) => cellValues(sweep, c));
    if (job?.kind !== 'batch') throw new Error('expected one batch');
    const run = (streams: number[]) => {
      let out: RunSeries[] = [];
      const specs = allRuns(job.exp).map((r) => ({ ...r, streamIndex: streams[r.algoIndex]! }));
      runShard({ config: null, exp: job.exp, specs, progressEvery: 100 }, (m) => {
        if (m.type === 'done') out = m.series;
        if (m.type === 'error') throw new Error(m.message);
      });
      return out;
    };
    const own = run(job.owners.map((o) => o.algoIndex));
    const byPosition = run(job.owners.map((_, a) => a));
    const n = BASE.algorithms.length * BASE.seeds;
    // cell 0 sits at positions 0..4 either way; cell 1's runs get other streams by position
    expect(Array.from(byPosition[0]!.J)).toEqual(Array.from(own[0]!.J));
    expect(Array.from(byPosition[n]!.J)).not.toEqual(Array.from(own[n]!.J));
  });

  it('cells with scheduled changes run one at a time (the per-cell fallback), with the same numbers', async () => {
    const base = { ...BASE, iterations: 12, changes: [{ at: 5, path: 'optimizer.lr', value: 1.5 }] };
    const sweep = parseSweep(sweepOf([{ path: 'optimizer.lr', values: [0.3, 2] }], base));
    const cells = [0, 1];
    expect(planJobs(sweep, cells, cells.map((c) => resolveCell(sweep, c)), (c) => cellValues(sweep, c)).map((j) => j.kind)).toEqual(['single', 'single']);
    const got = await runSweepCells(sweep, cells, { threads: 1, workers: null, shard: null });
    for (const c of cells) expect(got.cells[c]).toEqual(cellOf(c, cellValues(sweep, c), await alone(cellConfig(sweep, c))));
  });

  it('per-run axes: algorithm fields and optimizer.lr only', () => {
    expect(['algorithms.*.clip', 'algorithms.2.normalization', 'algorithms[0].lr', 'optimizer.lr'].every(perRunAxis)).toBe(true);
    expect(['seeds', 'groupSize', 'env.preset', 'optimizer.kind', 'iterations', 'mode'].some(perRunAxis)).toBe(false);
  });
});

describe('shards and merge', () => {
  const algo = (id: string) => ({ id, finalJ: { mean: 0.5, lo: 0.4, hi: 0.6 }, atOptimum: 0.5, violations: 0, medianItersTo95: 12, claims: [{ claim: 2, verdict: 'undecided' }] });
  const cell = (index: number) => ({ index, values: [index + 1], Jstar: 1, algorithms: [algo('grpo'), algo('seeupo')] });
  const DIGEST = '0123456789abcdef';
  const shard = (index: number, cells: number[]) => ({ version: 1, axes: [{ path: 'seeds', values: [1, 2, 3] }], shard: { index, count: 2, cells: 3, sweep: DIGEST }, cells: cells.map(cell) });

  it('shard I/N holds cells I, I+N, …; merging every shard gives the whole sweep', () => {
    expect(shardCells(7, { index: 1, count: 3 })).toEqual([1, 4]);
    expect(shardCells(7, null)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(mergeShards([shard(1, [1]), shard(0, [0, 2])], ['b', 'a'])).toEqual({ version: 1, axes: [{ path: 'seeds', values: [1, 2, 3] }], cells: [0, 1, 2].map(cell) });
    expect(errorOf(() => mergeShards([shard(0, [0, 2])], ['a']))).toBe('merge: shard 1/2 missing; give every shard\'s output');
    expect(errorOf(() => mergeShards([shard(0, [0, 2]), shard(0, [0, 2])], ['a', 'b']))).toBe('b: shard.index: shard 0/2 is given twice (also a)');
    expect(errorOf(() => mergeShards([shard(0, [0]), shard(1, [1])], ['a', 'b']))).toBe('a: cells: has 1 cells; shard 0/2 of 3 cells holds 2');
    expect(errorOf(() => mergeShards([shard(0, [0, 2]), { ...shard(1, [1]), shard: { index: 1, count: 2, cells: 3, sweep: 'fedcba9876543210' } }], ['a', 'b']))).toMatch(/^b: shard\.sweep: .*a shard of another sweep/);
  });

  // Each tampering of a real shard that merge once accepted (or died on): refused naming the file and the field.
  const tampered: [string, (d: ReturnType<typeof shard>) => unknown, RegExp][] = [
    ['claims 10⁹ cells (nothing allocated)', (d) => ({ ...d, shard: { ...d.shard, cells: 1e9 } }), /^b: shard\.cells: must be a whole number from 1 to 4,096/],
    ['claims 10⁹ shards', (d) => ({ ...d, shard: { ...d.shard, count: 1e9 } }), /^b: shard\.count: must be a whole number from 1 to 4,096/],
    ['axes emptied', (d) => ({ ...d, axes: [] }), /^b: axes: must list one or two axes/],
    ['axes extended', (d) => ({ ...d, axes: [{ path: 'seeds', values: [1, 2, 3, 4] }] }), /^b: axes: differ from a's|^b: shard\.cells: is 3, but the axes make 4 cells/],
    ['axis values emptied', (d) => ({ ...d, axes: [{ path: 'seeds', values: [] }] }), /^b: axes\[0\]\.values: must list 1–256 values/],
    ['a cell reduced to {"index": 1}', (d) => ({ ...d, cells: [{ index: 1 }] }), /^b: cells\[0\]\.values: must be cell 1's values/],
    ['a cell without Jstar', (d) => ({ ...d, cells: [{ ...cell(1), Jstar: undefined }] }), /^b: cells\[0\]\.Jstar: must be a finite number/],
    ['values not on the axes', (d) => ({ ...d, cells: [{ ...cell(1), values: [99] }] }), /^b: cells\[0\]\.values: must be cell 1's values on the axes, \[2\], got \[99\]/],
    ['an algorithm dropped', (d) => ({ ...d, cells: [{ ...cell(1), algorithms: [algo('grpo')] }] }), /^b: cells\[0\]\.algorithms: must be the sweep's algorithms \["grpo","seeupo"\]/],
    ['an algorithm renamed', (d) => ({ ...d, cells: [{ ...cell(1), algorithms: [algo('grpo'), algo('ppo')] }] }), /^b: cells\[0\]\.algorithms: must be the sweep's algorithms/],
    ['a share above 1', (d) => ({ ...d, cells: [{ ...cell(1), algorithms: [algo('grpo'), { ...algo('seeupo'), atOptimum: 7 }] }] }), /^b: cells\[0\]\.algorithms\[1\]\.atOptimum: must be a share from 0 to 1/],
    ['a made-up verdict', (d) => ({ ...d, cells: [{ ...cell(1), algorithms: [algo('grpo'), { ...algo('seeupo'), claims: [{ claim: 2, verdict: 'proven' }] }] }] }), /^b: cells\[0\]\.algorithms\[1\]\.claims\[0\]\.verdict: must be one of/],
    ['an extra field in a cell', (d) => ({ ...d, cells: [{ ...cell(1), note: 'x' }] }), /^b: cells\[0\]\.note: is not a field of a sweep cell/],
    ['a cell index out of place', (d) => ({ ...d, cells: [cell(2)] }), /^b: cells\[0\]\.index: must be 1, got 2/],
    ['a made-up one-cell shard of the same sweep', (d) => ({ ...d, shard: { ...d.shard, cells: 1 }, cells: [cell(0)] }), /^b: shard\.cells: is 1, but the axes make 3 cells/],
    ['a digest that is not one', (d) => ({ ...d, shard: { ...d.shard, sweep: 'x' } }), /^b: shard\.sweep: must be the sweep digest/],
    ['an unknown top-level field', (d) => ({ ...d, extra: 1 }), /^b: extra: is not a field of a shard/],
  ];
  for (const [what, edit, message] of tampered)
    it(`refuses a shard with ${what}`, () => {
      expect(errorOf(() => mergeShards([shard(0, [0, 2]), edit(shard(1, [1]))], ['a', 'b']))).toMatch(message);
    });
});
