import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { captions, summarizeLive } from '../src/core/metrics/captions';
import { divergedWhere } from '../src/core/metrics/summary';
import { allRuns } from '../src/core/run/partition';
import { makeRunSeries, markDiverged, putUpdate, recordEvaluation, recordUpdate, type RunSeries } from '../src/core/run/series';
import { CpuShard } from '../src/exec/cpu/shard';
import { TensorShard } from '../src/exec/tensor/shard';
import { expectAllMarked } from './support/diverged';
import { runCpu, runTensor, useBackend } from './support/tensor';

// Every blow-up is marked: a run diverged at k when any number of its update k − 1 → k
// or of its evaluation at k is NaN or ±∞ (series.ts, markDiverged): parameters, gradients, the
// critic, M, Adam's moments, advantages and the reward statistics that scale them, KL, entropy,
// J. J[k..] and the update metrics [k − 1..] are null; the run's shard-mates go on untouched.

// PPO+GAE with criticLr 100 (a known attack): the critic's error grows ×~1e8 per iteration;
// at update 20 (critic ≈ 1e154) the squared token advantages overflow, the batch σ they are
// standardized by is ∞, and every advantage became a silent 0: the policy froze (gradNorm 0,
// KL 0) until the critic itself overflowed at update 38 and gradNorm went NaN at 39, none of it
// marked. The first non-finite number is that σ: the run diverged at 21.
const CRITIC = { version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'ppo-gae', criticLr: 100 }], seeds: 1, iterations: 60 };
// rewards of ±1e30 on an MLP (tensor executor, float32): the gradient's squared norm overflows at update 0.
const HUGE = { version: 1, env: { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[1e30, -1e30, -1e30, 1e30]] }, policy: { kind: 'mlp', hidden: [8] }, algorithms: [{ id: 'reinforce' }], seeds: 1, iterations: 5 };

describe('the known attacks are marked', () => {
  beforeAll(() => useBackend('wasm'));

  it('PPO+GAE, criticLr 100, CPU executor: diverged at 21, nothing reported after, and said so', async () => {
    const r = await runCpu(CRITIC);
    const run = r.algorithms[0].runs[0];
    expect(run.diverged).toBe(21);
    expectAllMarked(r);
    expect(run.J[20]).not.toBeNull();
    expect(r.algorithms[0].summary.diverged).toEqual([21]);
    const exp = resolveConfig(CRITIC);
    const shard = new CpuShard(exp, allRuns(exp));
    while (!shard.done) shard.step();
    const lines = captions({ exp, Jstar: shard.pb.opt.Jstar }, summarizeLive(exp, shard.pb.opt.Jstar, shard.series, exp.iterations));
    expect(lines[0]).toMatch(/^PPO\+GAE.*diverged \(at iteration 21\) in 1\/1 seed; J\* = 1\.00\.$/);
    expect(lines[0]).not.toMatch(/stuck|improving/);
  });

  it('PPO+GAE, criticLr 100, tensor executor: diverged too (the same host float64 critic)', async () => {
    const r = await runTensor({ ...CRITIC, executor: 'tensor' });
    expectAllMarked(r);
    const d = r.algorithms[0].runs[0].diverged;
    expect(d).not.toBeNull();
    expect(d!).toBeGreaterThan(10);
    expect(d!).toBeLessThanOrEqual(40);
  });

  it('rewards of ±1e30 on an MLP: diverged at 1 (the gradient norm of update 0 is ∞), J_0 kept', async () => {
    const r = await runTensor(HUGE);
    const run = r.algorithms[0].runs[0];
    expect(run.diverged).toBe(1);
    expect(run.J[0]).not.toBeNull();
    expectAllMarked(r);
  });

  it('the Monte-Carlo shard (a table too large to enumerate) marks it too', async () => {
    const V = 5, T = 8; // 5^8 = 390,625 sequences: J by Monte Carlo
    const rewards = Array.from({ length: V ** T }, (_, s) => (s % 3 === 0 ? 1e30 : -1e30));
    const r = await runTensor({ version: 1, env: { turns: T, vocab: V, tokensPerTurn: 1, rewards: [rewards] }, policy: { kind: 'mlp', hidden: [4] }, mcSamples: 16, groupSize: 2, algorithms: [{ id: 'reinforce' }], seeds: 1, iterations: 3 });
    expect(r.jIsEstimate).toBe(true);
    expect(r.algorithms[0].runs[0].diverged).toBe(1);
    expectAllMarked(r);
  });
});

describe('a diverging run leaves its shard-mates bit for bit as they run alone', () => {
  beforeAll(() => useBackend('wasm'));
  const sameCurves = (a: RunSeries, b: RunSeries) => {
    for (const m of ['J', 'entropy', 'kl', 'gradNorm', 'clipFraction', 'zeroVarianceGroups'] as const) expect(Array.from(a[m]), m).toEqual(Array.from(b[m]));
    a.optimalTokenProb.forEach((p, t) => expect(Array.from(p)).toEqual(Array.from(b.optimalTokenProb[t])));
    expect(a.diverged).toBeNull();
  };
  // the healthy algorithm first: a run's streams depend on its position in the list
  const gae = (algorithms: unknown[]) => ({ version: 1, env: { preset: 'lock' }, algorithms, seeds: 2, iterations: 30 });
  const healthy = { id: 'ppo-gae' };
  const diverging = { id: 'hot', preset: 'ppo-gae', criticLr: 100 };

  it('CPU executor', () => {
    const run = (cfg: unknown) => {
      const exp = resolveConfig(cfg);
      const shard = new CpuShard(exp, allRuns(exp));
      while (!shard.done) shard.step();
      return shard.series;
    };
    const alone = run(gae([healthy]));
    const together = run(gae([healthy, diverging]));
    expect(together.filter((s) => s.algoIndex === 1).every((s) => s.diverged !== null)).toBe(true);
    for (let s = 0; s < 2; s++) sameCurves(together[s], alone[s]);
  });

  for (const [name, cfg, a, b] of [
    ['tensor executor, tabular (the critic diverges on the host)', gae, healthy, diverging],
    [
      'tensor executor, MLP (the device diverges: ∞ gradient norm, then non-finite parameters)',
      (algorithms: unknown[]) => ({ ...HUGE, seeds: 2, iterations: 6, algorithms }),
      { id: 'calm', preset: 'reinforce', normalization: 'batch' },
      { id: 'wild', preset: 'reinforce', lr: 1000 },
    ],
  ] as const)
    it(name, async () => {
      const run = async (algorithms: unknown[]) => {
        const exp = resolveConfig({ ...cfg(algorithms), executor: 'tensor' });
        const shard = new TensorShard(exp, allRuns(exp)); // one shard, both algorithms batched together
        await shard.init();
        while (!shard.done) await shard.step();
        shard.dispose();
        return shard.series;
      };
      const alone = await run([a]);
      const together = await run([a, b]);
      expect(together.filter((s) => s.algoIndex === 1).every((s) => s.diverged !== null)).toBe(true);
      for (let s = 0; s < 2; s++) sameCurves(together[s], alone[s]);
    });
});

describe('the series and the words', () => {
  const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'grpo' }], seeds: 1, iterations: 4 });
  const ev = { J: 0.5, entropy: 1, optimalProb: [0.1, 0.2, 0.3] };
  const up = { kl: 0.01, clipFraction: 0, zeroVarianceGroups: 0, gradNorm: 1 };

  it('a non-finite update metric marks the next iteration and drops the whole update', () => {
    const s = makeRunSeries(exp, 0, 0);
    const run = { diverged: null as number | null };
    recordEvaluation(s, run, 0, ev);
    expect(recordUpdate(s, run, 0, up)).toBe(true);
    putUpdate(s, 'wallMs', 0, 3);
    recordEvaluation(s, run, 1, ev);
    expect(recordUpdate(s, run, 1, { ...up, gradNorm: Infinity })).toBe(false);
    expect(run.diverged).toBe(2);
    expect(s.diverged).toBe(2);
    expect(Array.from(s.J, Number.isFinite)).toEqual([true, true, false, false, false]);
    expect(Array.from(s.kl, Number.isFinite)).toEqual([true, false, false, false]);
  });

  it('an unreported non-finite number (finite = false) marks it the same way', () => {
    const s = makeRunSeries(exp, 0, 0);
    const run = { diverged: null as number | null };
    recordEvaluation(s, run, 0, ev);
    expect(recordUpdate(s, run, 0, up, false)).toBe(false);
    expect(run.diverged).toBe(1);
  });

  it('a non-finite entropy or optimal-token probability marks the evaluation, and the update before it is dropped', () => {
    for (const bad of [{ ...ev, entropy: NaN }, { ...ev, optimalProb: [0.1, NaN, 0.3] }]) {
      const s = makeRunSeries(exp, 0, 0);
      const run = { diverged: null as number | null };
      recordEvaluation(s, run, 0, ev);
      recordUpdate(s, run, 0, up);
      putUpdate(s, 'wallMs', 0, 3);
      recordEvaluation(s, run, 1, bad);
      expect(run.diverged).toBe(1);
      expect(Array.from(s.gradNorm, Number.isFinite)).toEqual([false, false, false, false]);
      expect(Array.from(s.wallMs, Number.isFinite)).toEqual([false, false, false, false]);
      expect(Array.from(s.entropy, Number.isFinite)).toEqual([true, false, false, false, false]);
    }
  });

  it('the first mark stands', () => {
    const s = makeRunSeries(exp, 0, 0);
    const run = { diverged: null as number | null };
    markDiverged(s, run, 3);
    markDiverged(s, run, 4);
    expect(s.diverged).toBe(3);
  });

  it('where the seeds diverged, in words', () => {
    expect(divergedWhere([null, null])).toBeNull();
    expect(divergedWhere([39])).toBe('at iteration 39');
    expect(divergedWhere([39, null, 12, 39])).toBe('at iterations 12 and 39');
    expect(divergedWhere([8, 3, 5])).toBe('at iterations 3, 5 and 8');
    expect(divergedWhere([1, 2, 3, 4, 40])).toBe('at iterations 1 to 40');
  });
});
