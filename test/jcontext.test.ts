import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { LIMITS } from '../src/core/config/schema';
import { computeOptimum, evaluatePolicy, makeEvalScratch, makePolicyValue } from '../src/core/env/exact';
import { buildTree } from '../src/core/env/tree';
import { allRuns } from '../src/core/run/partition';
import { buildResult, type ExperimentResult } from '../src/core/run/result';
import { jcontextStride, makeRunSeries, slotCount, truncateSeries } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { McShard } from '../src/exec/tensor/mc-shard';
import { csvRowCount, resultsCsv } from '../src/ui/export/csv';
import type { Live } from '../src/ui/live';
import { planExperiment } from '../src/ui/plan';
import { packBlock, unpackBlock } from '../src/worker/series-block';
import { runCpu, runTensor, useBackend } from './support/tensor';

// J per context (Jcontext): with several contexts every run carries, per context x, the J of
// context x (E over τ of the total return given x) at every evaluation; J is their mean.

const TWO_PROMPTS = {
  version: 1,
  env: { preset: 'two-prompts' },
  mode: 'exact',
  iterations: 20,
  seeds: 2,
  policy: { kind: 'tabular', initScale: 0.4 },
  algorithms: [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'reinforce' }],
};

function expectMeanIsJ(res: ExperimentResult, contexts: number, tol: number): void {
  for (const a of res.algorithms)
    for (const r of a.runs) {
      expect(r.Jcontext, a.id).toBeDefined();
      expect(r.Jcontext).toHaveLength(contexts);
      for (const c of r.Jcontext!) expect(c).toHaveLength(r.J.length);
      r.J.forEach((J, k) => {
        const mean = r.Jcontext!.reduce((s, c) => s + (c[k] as number), 0) / contexts;
        expect(Math.abs(mean - (J as number)), `${a.id} seed ${r.seed} iteration ${k}`).toBeLessThanOrEqual(tol);
      });
    }
}

describe('Jcontext on the CPU executor', () => {
  for (const mode of ['exact', 'sampled'] as const) {
    it(`two-prompts, ${mode}: the mean over contexts of Jcontext is J at every iteration (1e-12)`, async () => {
      const res = await runCpu({ ...TWO_PROMPTS, mode });
      expectMeanIsJ(res, 2, 1e-12);
      // the contexts differ: the curves are not copies of J
      const r = res.algorithms[0].runs[0];
      expect(r.Jcontext![0]).not.toEqual(r.Jcontext![1]);
      expect(res.jcontextEvery).toBeUndefined();
    });
  }

  it('a hand-made 2-context table under the uniform policy: Jcontext is each table’s mean', async () => {
    const config = {
      version: 1,
      env: { turns: 2, vocab: 2, tokensPerTurn: 1, contexts: 2, rewards: [[1, 0, 0, 0], [0.2, 0.4, 0.6, 0.8]] },
      mode: 'exact',
      iterations: 2,
      seeds: 1,
      algorithms: [{ id: 'reinforce' }],
    };
    const res = await runCpu(config);
    const r = res.algorithms[0].runs[0];
    expect(r.Jcontext![0][0]).toBeCloseTo(0.25, 15);
    expect(r.Jcontext![1][0]).toBeCloseTo(0.5, 15);
    expect(r.J[0]).toBeCloseTo(0.375, 15);
    // evaluatePolicy directly, with the uniform table
    const exp = resolveConfig(config);
    const tree = buildTree(exp.env);
    const probs = new Float64Array(exp.env.contexts * tree.nodesPerContext * 2).fill(0.5);
    const v = evaluatePolicy(exp.env, tree, computeOptimum(exp.env, tree), probs, makeEvalScratch(tree), makePolicyValue(tree.T, 2));
    expect(Array.from(v.Jcontext!)).toEqual([0.25, 0.5]);
    // a PolicyValue made without contexts gets its Jcontext on first use
    const lazy = evaluatePolicy(exp.env, tree, computeOptimum(exp.env, tree), probs, makeEvalScratch(tree), makePolicyValue(tree.T));
    expect(Array.from(lazy.Jcontext!)).toEqual([0.25, 0.5]);
  });

  it('absent with one context (result, series, PolicyValue)', async () => {
    const config = { ...TWO_PROMPTS, env: { preset: 'lock' }, iterations: 3 };
    const res = await runCpu(config);
    for (const a of res.algorithms) for (const r of a.runs) expect('Jcontext' in r).toBe(false);
    const exp = resolveConfig(config);
    expect(makeRunSeries(exp, 0, 0).Jcontext).toEqual([]);
    const tree = buildTree(exp.env);
    const probs = new Float64Array(tree.nodesPerContext * exp.env.vocab).fill(1 / exp.env.vocab);
    expect(evaluatePolicy(exp.env, tree, computeOptimum(exp.env, tree), probs, makeEvalScratch(tree), makePolicyValue(tree.T)).Jcontext).toBeUndefined();
  });

  it('null after divergence, like J', async () => {
    const config = {
      version: 1,
      env: { turns: 1, vocab: 2, tokensPerTurn: 1, contexts: 2, rewards: [[1e307, -1e307], [1e307, -1e307]] },
      mode: 'exact',
      iterations: 6,
      seeds: 1,
      optimizer: { kind: 'sgd', lr: 100 },
      algorithms: [{ id: 'reinforce' }],
    };
    const r = (await runCpu(config)).algorithms[0].runs[0];
    expect(r.diverged).not.toBeNull();
    for (const c of r.Jcontext!) {
      expect(c).toHaveLength(7);
      c.forEach((v, k) => expect(v === null, `iteration ${k}`).toBe(k >= r.diverged!));
    }
  });
});

describe('Jcontext storage', () => {
  it('at every iteration while contexts·(iterations+1)·runs is within the stored-points limit, else at a power-of-two stride that brings it within', () => {
    const exp = (contexts: number, iterations: number, runs: number) => ({ env: { contexts }, iterations, algorithms: new Array(1), seedIndices: new Array(runs) });
    expect(jcontextStride(exp(1, 100_000, 40) as never)).toBe(1);
    expect(jcontextStride(exp(2, 1000, 1000) as never)).toBe(1);
    expect(jcontextStride(exp(100, 1000, 144) as never)).toBe(4); // 100·1001·144 = 14.4M; 100·251·144 = 3.6M
    for (const [C, n, R] of [[256, 100_000, 40], [3, 99_999, 40], [64, 4095, 977]]) {
      const e = jcontextStride(exp(C, n, R) as never);
      expect(C * R * slotCount(n, e), `${C} ${n} ${R}`).toBeLessThanOrEqual(LIMITS.maxStoredPoints);
      expect(C * R * slotCount(n, e / 2), `${C} ${n} ${R}`).toBeGreaterThan(LIMITS.maxStoredPoints);
    }
  });

  it('a decimated Jcontext expands to iterations + 1 values in the result, null between, with jcontextEvery', () => {
    const config = { version: 1, env: { preset: 'two-prompts' }, mode: 'exact', iterations: 5, seeds: 1, algorithms: [{ id: 'reinforce' }] };
    const exp = resolveConfig(config);
    const s = makeRunSeries(exp, 0, 0);
    // as if the experiment were too large: stride 4 over 0..5 keeps 0, 4 and 5
    const wide = { ...s, jcontextEvery: 4, Jcontext: [new Float64Array([1, 2, 3]), new Float64Array([3, 4, 5])] };
    wide.J.set([2, 0, 0, 0, 3, 4]);
    const res = buildResult(exp, 1, [wide], { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 });
    expect(res.jcontextEvery).toBe(4);
    expect(res.algorithms[0].runs[0].Jcontext).toEqual([
      [1, null, null, null, 2, 3],
      [3, null, null, null, 4, 5],
    ]);
    expect(truncateSeries(wide, 4).Jcontext.map((a) => Array.from(a))).toEqual([
      [1, 2, NaN],
      [3, 4, NaN],
    ]);
  });

  it('streams to the page in data blocks (series-block), at any split', () => {
    const exp = resolveConfig({ ...TWO_PROMPTS, mode: 'sampled', iterations: 9 });
    const shard = new CpuShard(exp, allRuns(exp), 2);
    while (!shard.done) shard.step();
    const copies = shard.series.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, 2));
    for (const [from, to] of [[-1, 3], [3, 4], [4, 9]]) unpackBlock(packBlock(shard.series, from, to, exp.env.turns), copies, from, to, exp.env.turns);
    copies.forEach((c, i) => {
      expect(c.Jcontext.map((a) => Array.from(a))).toEqual(shard.series[i].Jcontext.map((a) => Array.from(a)));
      expect(Array.from(c.J)).toEqual(Array.from(shard.series[i].J));
    });
  });

  it("the page's CSV carries Jcontext[x] rows, counted by csvRowCount", () => {
    const config = { ...TWO_PROMPTS, iterations: 3 };
    const plan = planExperiment(config, 1);
    const shard = new CpuShard(plan.exp, allRuns(plan.exp));
    while (!shard.done) shard.step();
    const live: Live = { runs: shard.series, iteration: 3, changes: [], startConfig: {} };
    const rows = resultsCsv(plan, live).trim().split('\n').slice(1);
    expect(rows).toHaveLength(csvRowCount(plan, 3));
    const row = (metric: string) => rows.find((r) => r.startsWith(`grpo,1,2,${metric},`));
    expect(Number(row('Jcontext[0]')!.split(',')[4])).toBe(shard.series[3].Jcontext[0][2]);
    expect(Number(row('Jcontext[1]')!.split(',')[4])).toBe(shard.series[3].Jcontext[1][2]);
    expect(rows.filter((r) => r.includes(',Jcontext[')).length).toBe(3 * 2 * 4 * 2);
  });
});

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`Jcontext on the tensor executor (tfjs ${backend})`, () => {
    beforeAll(() => useBackend(backend));
    it('tabular two-prompts: mean over contexts is J, and each context matches the CPU executor within float32 tolerance', async () => {
      const tensor = await runTensor(TWO_PROMPTS);
      expectMeanIsJ(tensor, 2, 1e-12);
      const cpu = await runCpu(TWO_PROMPTS);
      cpu.algorithms.forEach((a, i) =>
        a.runs.forEach((r, s) =>
          r.Jcontext!.forEach((c, x) => c.forEach((v, k) => expect(Math.abs((v as number) - (tensor.algorithms[i].runs[s].Jcontext![x][k] as number))).toBeLessThan(2e-3))),
        ),
      );
    });

    it('Monte-Carlo J (MLP): a per-context estimate whose mean is J', async () => {
      const config = { ...TWO_PROMPTS, policy: { kind: 'mlp', hidden: [8], activation: 'tanh' }, mode: 'sampled', iterations: 3, seeds: 1, mcSamples: 64, algorithms: [{ id: 'grpo' }] };
      const exp = resolveConfig(config);
      const shard = new McShard(exp, allRuns(exp));
      await shard.init();
      while (!shard.done) await shard.step();
      shard.dispose();
      const s = shard.series[0];
      expect(s.Jcontext).toHaveLength(2);
      for (let k = 0; k <= 3; k++) {
        expect(Math.abs((s.Jcontext[0][k] + s.Jcontext[1][k]) / 2 - s.J[k])).toBeLessThanOrEqual(1e-12);
        for (const c of s.Jcontext) expect(Number.isFinite(c[k])).toBe(true);
      }
      expect(s.Jcontext[0][0]).not.toBe(s.Jcontext[1][0]);
    });
  });
}
