import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { ConfigError } from '../src/core/config/fields';
import { webgpuUnsupported } from '../src/core/config/webgpu-support';
import { computeOptimum } from '../src/core/env/exact';
import { buildTree } from '../src/core/env/tree';
import { buildProblem } from '../src/exec/host/problem';
import { makeScratch } from '../src/exec/host/scratch';
import { makeRun } from '../src/exec/host/state';
import { computeAdvantages, sampleRollouts, weighEnumeration } from '../src/exec/host/rollouts';
import { policyGradient } from '../src/exec/cpu/rules';
import { maxAbsDiff, shardFor } from './support/engine';

// A table shared across prompts (docs/math.md, "Policies"): one vector of V logits per
// (turn, token position, prefix), the same for every context; rewards, groups and their
// normalization stay per context.

const HAND = [
  [1, 0],
  [0, 0.5],
];

function sharedConfig(o: {
  T?: number;
  V?: number;
  L?: number;
  rewards: number[][];
  turnRewards?: number[][][];
  gamma?: number;
  algorithms: Record<string, unknown>[];
  mode?: 'exact' | 'sampled';
  iterations?: number;
  lr?: number;
  initScale?: number;
  seeds?: number;
  groupSize?: number;
  contextsPerBatch?: number;
  share?: boolean;
}) {
  return {
    version: 1,
    env: {
      turns: o.T ?? 1,
      vocab: o.V ?? 2,
      tokensPerTurn: o.L ?? 1,
      contexts: o.rewards.length,
      rewards: o.rewards,
      ...(o.turnRewards ? { turnRewards: o.turnRewards } : {}),
      ...(o.contextsPerBatch ? { contextsPerBatch: o.contextsPerBatch } : {}),
      gamma: o.gamma ?? 1,
    },
    policy: { kind: 'tabular', initScale: o.initScale ?? 0, ...(o.share === false ? {} : { shareContexts: true }) },
    mode: o.mode ?? 'exact',
    iterations: o.iterations ?? 1,
    seeds: o.seeds ?? 1,
    groupSize: o.groupSize ?? 8,
    optimizer: { kind: 'sgd', lr: o.lr ?? 1 },
    algorithms: o.algorithms,
  };
}

/** An independent J of a shared table: mean over contexts of Σ_s P(s) R̄(x, s), P from the logits by enumeration. */
function sharedJ(T: number, V: number, L: number, returns: number[][], theta: ArrayLike<number>): number {
  const N = T * L;
  const offset = [0];
  for (let p = 0; p < N; p++) offset.push(offset[p] + V ** p);
  let J = 0;
  for (let s = 0; s < V ** N; s++) {
    let prob = 1;
    let q = 0;
    for (let p = 0; p < N; p++) {
      const a = Math.floor(s / V ** (N - 1 - p)) % V;
      const o = (offset[p] + q) * V;
      let z = 0;
      for (let b = 0; b < V; b++) z += Math.exp(theta[o + b]);
      prob *= Math.exp(theta[o + a]) / z;
      q = q * V + a;
    }
    for (const R of returns) J += (prob * R[s]) / returns.length;
  }
  return J;
}

const expectConfigError = (cfg: unknown, path: string, words: RegExp) => {
  let err: unknown;
  try {
    resolveConfig(cfg);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).message).toContain(path);
  expect((err as ConfigError).message).toMatch(words);
};

describe('policy.shareContexts: refusals', () => {
  it('on an MLP, naming the field and why', () => {
    const cfg = { ...sharedConfig({ rewards: HAND, algorithms: [{ id: 'grpo' }] }), policy: { kind: 'mlp', shareContexts: true } };
    expectConfigError(cfg, 'policy.shareContexts', /tabular policies only/);
  });
  it('with one context, naming the field and why', () => {
    expectConfigError(sharedConfig({ rewards: [[1, 0]], algorithms: [{ id: 'grpo' }] }), 'policy.shareContexts', /at least 2 contexts.*env\.contexts is 1/);
  });
  it('the WebGPU executor runs it: nothing refused (e2e/webgpu-shared.spec.ts checks its numbers)', () => {
    const cfg = sharedConfig({ rewards: HAND, algorithms: [{ id: 'grpo' }] });
    expect(resolveConfig({ ...cfg, executor: 'webgpu' }).policy).toMatchObject({ kind: 'tabular', shareContexts: true });
    expect(webgpuUnsupported(resolveConfig(cfg))).toBeNull();
    expect(webgpuUnsupported(resolveConfig(sharedConfig({ rewards: HAND, share: false, algorithms: [{ id: 'grpo' }] })))).toBeNull();
  });
  it('absent or false: the plain table (nothing carried)', () => {
    const exp = resolveConfig({ ...sharedConfig({ rewards: HAND, algorithms: [{ id: 'grpo' }] }), policy: { kind: 'tabular', shareContexts: false } });
    expect(exp.policy).toEqual({ kind: 'tabular', initScale: 0 });
  });
});

describe('the hand-worked case: one turn, V = 2, A pays [1, 0], B pays [0, 0.5]', () => {
  it('J* = 0.5 at token 0 (a table per context: (1 + 0.5)/2 = 0.75)', () => {
    const exp = resolveConfig(sharedConfig({ rewards: HAND, algorithms: [{ id: 'grpo' }] }));
    const tree = buildTree(exp.env);
    const opt = computeOptimum(exp.env, tree, true);
    expect(opt.Jstar).toBe(0.5);
    expect(Array.from(opt.optimal)).toEqual([1, 0]);
    expect(computeOptimum(exp.env, tree).Jstar).toBe(0.75);
    expect(buildProblem(exp).opt.Jstar).toBe(0.5);
    expect(buildProblem(exp).params).toBe(2); // one node of V logits, not one per context
  });

  // Group normalization: A pulls the logit difference with p(1−p)/(σ_A + ε), B with −0.5·p(1−p)/(σ_B + ε),
  // σ_A = √(p(1−p)) = 2σ_B: the sum is p(1−p)·ε/σ² + O(ε²) = ε, halved by the mean over contexts on
  // each of the two logits. So each optimizer step moves the difference by lr·ε, and
  // J = 0.25 + 0.25·p moves by (dJ/d difference = p(1−p)/4 = 1/16) · steps · lr · ε.
  for (const epochs of [1, 4]) {
    it(`GRPO (group normalization, ${epochs} epoch(s)) never moves: J changes by ${epochs} · 500 · 10 · 1e-6 / 16 in 500 iterations at lr 10`, () => {
      const shard = shardFor(sharedConfig({ rewards: HAND, iterations: 500, lr: 10, algorithms: [{ id: 'x', preset: 'grpo', epochs }] }));
      while (!shard.done) shard.step();
      const J = shard.series[0].J;
      expect(J[0]).toBe(0.375);
      const predicted = (epochs * 500 * 10 * 1e-6) / 16; // 3.1e-4 with one step per iteration
      expect(Math.abs(J[500] - J[0] - predicted) / predicted).toBeLessThan(0.02);
      expect(Math.max(...Array.from(shard.series[0].gradNorm))).toBeLessThan(1e-6);
    });
  }

  for (const normalization of ['batch', 'none']) {
    it(`PPO+GRAE with ${normalization} normalization goes to token 0 (J → J* = 0.5, lr 1)`, () => {
      const shard = shardFor(sharedConfig({ rewards: HAND, iterations: 500, lr: 1, algorithms: [{ id: 'x', preset: 'ppo-grae', normalization }] }));
      while (!shard.done) shard.step();
      expect(shard.series[0].J[500]).toBeGreaterThan(0.499);
      expect(shard.series[0].optimalTokenProb[0][500]).toBeGreaterThan(0.99);
    });
  }

  it('unnormalized PPO+GRAE at lr 10 goes there too; batch-normalized PPO+GRAE at lr 10 settles short of it (a clipping fixed point)', () => {
    const shard = shardFor(
      sharedConfig({ rewards: HAND, iterations: 200, lr: 10, algorithms: [{ id: 'none', preset: 'ppo-grae', normalization: 'none' }, { id: 'batch', preset: 'ppo-grae', normalization: 'batch' }] }),
    );
    while (!shard.done) shard.step();
    expect(shard.series[0].J[200]).toBeGreaterThan(0.499);
    // 4 epochs of clipped steps whose advantages grow as 1/σ_batch leave and come back to the same policy each iteration
    expect(shard.series[1].J[200]).toBeLessThan(0.49);
    expect(Math.abs(shard.series[1].J[200] - shard.series[1].J[100])).toBeLessThan(1e-9);
  });

  it('the same experiment with a table per context is not stuck under GRPO (the sharing is what cancels)', () => {
    const shard = shardFor(sharedConfig({ rewards: HAND, share: false, iterations: 100, lr: 10, algorithms: [{ id: 'grpo' }] }));
    while (!shard.done) shard.step();
    expect(shard.series[0].J[100]).toBeGreaterThan(0.74);
  });
});

describe('exact REINFORCE with a shared table is gradient ascent on J (finite differences)', () => {
  const cases = [
    { name: 'T = 2, V = 2, three contexts', T: 2, V: 2, L: 1, rewards: [[1, 0, 0, 0.5], [0, 1, 0.2, 0], [0.3, 0.3, 1, 0]] },
    { name: 'T = 2, V = 3, L = 1, two contexts', T: 2, V: 3, L: 1, rewards: [Array.from({ length: 9 }, (_, s) => Math.sin(s) ** 2), Array.from({ length: 9 }, (_, s) => Math.cos(3 * s) ** 2)] },
    { name: 'T = 1, V = 2, L = 2, two contexts', T: 1, V: 2, L: 2, rewards: [[0, 1, 0.4, 0.2], [1, 0, 0, 0.7]] },
  ];
  for (const c of cases)
    it(c.name, () => {
      const lr = 0.05;
      const shard = shardFor(sharedConfig({ ...c, algorithms: [{ id: 'reinforce' }], lr, initScale: 1 }));
      const init = Array.from(shard.runs[0].theta);
      expect(init.length).toBe(((c.V ** (c.T * c.L + 1) - 1) / (c.V - 1) - c.V ** (c.T * c.L)) * c.V); // one context's nodes · V
      const h = 1e-6;
      const gradJ = init.map((_, i) => {
        const up = init.slice(), dn = init.slice();
        up[i] += h;
        dn[i] -= h;
        return (sharedJ(c.T, c.V, c.L, c.rewards, up) - sharedJ(c.T, c.V, c.L, c.rewards, dn)) / (2 * h);
      });
      expect(shard.series[0].J[0]).toBeCloseTo(sharedJ(c.T, c.V, c.L, c.rewards, init), 14);
      shard.step();
      const step = Array.from(shard.runs[0].theta, (v, i) => (v - init[i]) / lr);
      expect(maxAbsDiff(step, gradJ)).toBeLessThan(1e-8);
      expect(Math.max(...gradJ.map(Math.abs))).toBeGreaterThan(1e-2);
      expect(shard.series[0].J[1]).toBeCloseTo(sharedJ(c.T, c.V, c.L, c.rewards, shard.runs[0].theta), 14);
    });
});

describe('sampled mode agrees in distribution with exact mode', () => {
  const T = 2, V = 2;
  const rewards = [[1, 0, 0, 0.5], [0, 1, 0.2, 0]];
  const cfg = (mode: 'exact' | 'sampled') =>
    resolveConfig(sharedConfig({ T, V, rewards, mode, groupSize: 16, initScale: 0.7, algorithms: [{ id: 'x', preset: 'reinforce', advantage: 'rloo' }] }));

  it('rollouts follow the shared P(τ) in every context, and the RLOO gradient averages to the exact ∇J', () => {
    const ex = buildProblem(cfg('exact'));
    const sa = buildProblem(cfg('sampled'));
    const exSc = makeScratch(ex);
    const saSc = makeScratch(sa);
    const exRun = makeRun(ex, ex.exp.algorithms[0], 0, 0, new Float64Array(ex.params));
    const saRun = makeRun(sa, sa.exp.algorithms[0], 0, 0, new Float64Array(sa.params));
    expect(Array.from(saRun.theta)).toEqual(Array.from(exRun.theta));
    weighEnumeration(ex, exRun, exSc);
    computeAdvantages(ex, exRun, exSc);
    policyGradient(ex, exRun, exSc);
    const exact = Array.from(exSc.grad);
    const P = Array.from({ length: 4 }, (_, s) => exSc.batch.weight[s] * 2); // P(s) of context 0 = of context 1
    expect(maxAbsDiff(P, Array.from({ length: 4 }, (_, s) => exSc.batch.weight[4 + s] * 2))).toBeLessThan(1e-15);
    const M = 4000;
    const counts = [new Float64Array(4), new Float64Array(4)];
    const sum = new Float64Array(sa.params), sumSq = new Float64Array(sa.params);
    for (let m = 0; m < M; m++) {
      sampleRollouts(sa, saRun, saSc);
      const b = saSc.batch;
      for (let i = 0; i < b.n; i++) counts[b.ctx[i]][b.tok[i * 2] * 2 + b.tok[i * 2 + 1]]++;
      computeAdvantages(sa, saRun, saSc);
      saSc.grad.fill(0);
      policyGradient(sa, saRun, saSc);
      for (let j = 0; j < sa.params; j++) {
        sum[j] += saSc.grad[j];
        sumSq[j] += saSc.grad[j] ** 2;
      }
    }
    for (const c of counts) {
      const n = c.reduce((a, v) => a + v, 0);
      expect(n).toBe(M * 16);
      for (let s = 0; s < 4; s++) expect(Math.abs(c[s] / n - P[s])).toBeLessThan(5 * Math.sqrt((P[s] * (1 - P[s])) / n));
    }
    for (let j = 0; j < sa.params; j++) {
      const mean = sum[j] / M;
      const se = Math.sqrt((sumSq[j] / M - mean * mean) / M);
      expect(Math.abs(mean - exact[j]), `parameter ${j}`).toBeLessThan(5 * se + 1e-12);
    }
    expect(Math.max(...exact.map(Math.abs))).toBeGreaterThan(1e-2);
  });
});

describe('the tensor executor runs the shared table (one logit table without the context dimension)', () => {
  it('exact mode: every named algorithm, SGD and Adam, equals the CPU executor within 2e-3', async () => {
    const { maxCurveDiff, runCpu, runTensor, useBackend } = await import('./support/tensor');
    await useBackend('cpu');
    for (const optimizer of [{ kind: 'sgd', lr: 1 }, { kind: 'adam', lr: 0.05 }]) {
      const config = {
        ...sharedConfig({ T: 2, V: 2, rewards: [[1, 0, 0, 0.5], [0, 1, 0.2, 0], [0.3, 0.3, 1, 0]], gamma: 0.9, iterations: 30, initScale: 0.5, seeds: 2, algorithms: [] }),
        optimizer,
        algorithms: ['reinforce', 'grpo', 'ppo-grae', 'gspo', 'ppo-gae', 'seeupo'].map((id) => ({ id })),
      };
      const cpu = await runCpu(config);
      const tensor = await runTensor(config);
      expect(cpu.Jstar).toBeCloseTo(tensor.Jstar, 15);
      expect(cpu.Jstar).toBeCloseTo(1.3 / 3, 15); // the mean table [1.3, 1.3, 1.2, 0.5]/3: its best, not the mean of the bests (1 + 1 + 1)/3
      const { diff, where } = maxCurveDiff(cpu, tensor);
      expect(diff, where).toBeLessThan(2e-3);
      expect(cpu.algorithms[0].runs[0].J[30]! - cpu.algorithms[0].runs[0].J[0]!).toBeGreaterThan(0.01);
    }
  });
});

describe('GAE with a shared table: the critic sees the context', () => {
  it('exact, one turn of one token: Q_old − V_old per context equals GRAE, so PPO+GAE and PPO+GRAE (no normalization) draw the same curve', () => {
    const shard = shardFor(
      sharedConfig({
        rewards: [[1, 0, 0.3], [0, 0.5, 1]],
        V: 3,
        iterations: 20,
        initScale: 0.5,
        algorithms: [{ id: 'gae', preset: 'ppo-gae', normalization: 'none' }, { id: 'grae', preset: 'ppo-grae', normalization: 'none' }],
      }),
    );
    while (!shard.done) shard.step();
    expect(maxAbsDiff(shard.series[0].J, shard.series[1].J)).toBeLessThan(1e-14);
    expect(shard.series[0].J[20] - shard.series[0].J[0]).toBeGreaterThan(0.01);
  });
  it('sampled: the learned critic is one value per (context, node), and the run learns', () => {
    const exp = resolveConfig(sharedConfig({ T: 2, rewards: [[1, 0, 0, 0.5], [0, 1, 0.2, 0]], mode: 'sampled', iterations: 60, lr: 0.5, algorithms: [{ id: 'ppo-gae' }] }));
    const pb = buildProblem(exp);
    const run = makeRun(pb, exp.algorithms[0], 0, 0, new Float64Array(pb.params));
    expect(pb.params).toBe(3 * 2);
    expect(run.critic!.length).toBe(2 * 3);
    const shard = shardFor(sharedConfig({ T: 2, rewards: [[1, 0, 0, 0.5], [0, 1, 0.2, 0]], mode: 'sampled', iterations: 60, lr: 0.5, seeds: 4, algorithms: [{ id: 'ppo-gae' }] }));
    while (!shard.done) shard.step();
    const gain = shard.series.reduce((a, s) => a + s.J[60] - s.J[0], 0) / 4;
    expect(gain).toBeGreaterThan(0.05);
    for (const r of shard.runs) expect(Array.from(r.critic!).some((v, i) => i >= 3 && v !== 0)).toBe(true); // context 1's values moved too
  });
});
