import { describe, expect, it } from 'vitest';
import { customConfig, maxAbsDiff, shardFor } from './support/engine';
import { J as refJ, numericGradient, referenceIteration, type RefAlgo, type RefEnv } from './support/reference';

// The 2-turn, 2-token case: T = 2, V = 2, L = 1, R̄(00) = 1, R̄(01) = 0, R̄(10) = 0, R̄(11) = 0.5.
// Nodes: 0 = root (turn 1), 1 = after token 0, 2 = after token 1 (turn 2). Logits [node·2 + a].
const rewards = [1, 0, 0, 0.5];
const small = { T: 2, V: 2, L: 1, rewards };
const none = { normalization: 'none' as const, epochs: 1 };

function firstStep(algorithm: Record<string, unknown>): number[] {
  const shard = shardFor(customConfig({ ...small, algorithms: [algorithm] }));
  shard.step();
  return Array.from(shard.runs[0].theta);
}

describe('exact mode, first iteration from the uniform policy, written out by hand (lr = 1, SGD)', () => {
  // V_old = 0.375; Â = R̄ − 0.375 = [0.625, −0.375, −0.375, 0.125]; every sequence weighs 1/4.
  // Root: Σ w·Â for token 0 = 0.25·(0.625 − 0.375) = 0.0625, token 1 = −0.0625; gradient e_a − π.
  // Node "0": 0.25·0.625 = 0.15625 on token 0, −0.09375 on token 1, minus their sum 0.0625 · 0.5.
  // Node "1": −0.09375 on token 0, 0.03125 on token 1, minus (−0.0625) · 0.5.
  const pg = [0.0625, -0.0625, 0.125, -0.125, -0.0625, 0.0625];

  it('REINFORCE steps along the policy gradient and J rises to 0.42314641426780447', () => {
    const shard = shardFor(customConfig({ ...small, algorithms: [{ id: 'reinforce' }] }));
    shard.step();
    expect(maxAbsDiff(shard.runs[0].theta, pg)).toBeLessThan(1e-15);
    expect(shard.series[0].J[0]).toBeCloseTo(0.375, 15);
    // J1 = σ(0.125)·σ(0.25)·1 + σ(−0.125)·σ(0.125)·0.5
    expect(shard.series[0].J[1]).toBeCloseTo(0.42314641426780447, 14);
  });

  it('PPU (token and sequence level) with one epoch takes the same first step', () => {
    expect(maxAbsDiff(firstStep({ id: 'a', preset: 'ppo-grae', ...none }), pg)).toBeLessThan(1e-15);
    expect(maxAbsDiff(firstStep({ id: 'a', preset: 'gspo', ...none }), pg)).toBeLessThan(1e-15);
  });

  it('SeeUPO (reverse) updates turn 2 first, then turn 1 weighted by M = turn-2 ratios', () => {
    // Turn 2 moves exactly as the policy gradient. Then M(00) = 2σ(0.25), M(01) = 2σ(−0.25),
    // M(10) = 2σ(−0.125), M(11) = 2σ(0.125), and the root moves by ±0.07414295354972998.
    const th = firstStep({ id: 'seeupo', ...none });
    expect(maxAbsDiff(th.slice(2), pg.slice(2))).toBeLessThan(1e-15);
    expect(th[0]).toBeCloseTo(0.07414295354972998, 15);
    expect(th[1]).toBeCloseTo(-0.07414295354972998, 15);
  });

  it('SeeUPO (forward) updates turn 1 first, then turn 2 weighted by M = turn-1 ratios', () => {
    // M = 2σ(±0.125) for sequences starting with 0 / 1, scaling the turn-2 gradients.
    const th = firstStep({ id: 'seeupo-forward', ...none });
    expect(maxAbsDiff(th.slice(0, 2), pg.slice(0, 2))).toBeLessThan(1e-15);
    expect(th[2]).toBeCloseTo(0.13280234334343907, 15);
    expect(th[4]).toBeCloseTo(-0.05859882832828047, 15);
  });

  it('without M-correction the sequential update equals the simultaneous one for a tabular policy', () => {
    expect(maxAbsDiff(firstStep({ id: 'seeupo', ...none, mCorrection: false }), pg)).toBeLessThan(1e-15);
  });
});

// Every rule against the naive finite-difference reference, two iterations, from random logits.
const refCases: [string, Record<string, unknown>, RefAlgo][] = [
  ['reinforce', { id: 'reinforce' }, { rule: 'reinforce', normalization: 'none', clip: 0.2, epochs: 1 }],
  ['ppu token, none', { id: 'ppo-grae' }, { rule: 'ppu', ratio: 'token', normalization: 'none', clip: 0.2, epochs: 4 }],
  ['ppu token, group (GRPO)', { id: 'grpo' }, { rule: 'ppu', ratio: 'token', normalization: 'group', clip: 0.2, epochs: 4 }],
  ['ppu sequence (GSPO)', { id: 'gspo' }, { rule: 'ppu', ratio: 'sequence', normalization: 'group', clip: 0.2, epochs: 4 }],
  ['sequential reverse, product (SeeUPO)', { id: 'seeupo' }, { rule: 'sequential', order: 'reverse', turnRatio: 'product', normalization: 'batch', clip: 0.2, epochs: 4 }],
  ['sequential forward', { id: 'seeupo-forward' }, { rule: 'sequential', order: 'forward', turnRatio: 'product', normalization: 'batch', clip: 0.2, epochs: 4 }],
  ['sequential reverse, geomean', { id: 's', preset: 'seeupo', turnRatio: 'geomean' }, { rule: 'sequential', order: 'reverse', turnRatio: 'geomean', normalization: 'batch', clip: 0.2, epochs: 4 }],
  ['sequential reverse, no M', { id: 's', preset: 'seeupo', mCorrection: false }, { rule: 'sequential', order: 'reverse', mCorrection: false, normalization: 'batch', clip: 0.2, epochs: 4 }],
  ['sequential reverse, mClip 0.05, clip 0.1', { id: 's', preset: 'seeupo', mClip: 0.05, clip: 0.1 }, { rule: 'sequential', order: 'reverse', mClip: 0.05, normalization: 'batch', clip: 0.1, epochs: 4 }],
];

for (const [envName, env] of [
  ['T=2 V=2 L=1', { ...small, gamma: 1 }],
  ['tokens T=2 V=2 L=2, γ=0.9', { T: 2, V: 2, L: 2, rewards: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0.4, 0.4, 0.4, 0.4], gamma: 0.9 }],
  ['T=3 V=3 L=1', { T: 3, V: 3, L: 1, rewards: Array.from({ length: 27 }, (_, s) => ((s * 7) % 11) / 10), gamma: 1 }],
] as [string, RefEnv & { rewards: number[] }][]) {
  describe(`every rule equals the finite-difference reference (${envName}, exact, random init)`, () => {
    for (const [name, algo, ref] of refCases) {
      it(name, () => {
        const lr = 0.7;
        const shard = shardFor(customConfig({ ...env, algorithms: [algo], iterations: 2, lr, initScale: 0.5 }));
        let theta = Array.from(shard.runs[0].theta);
        for (let it = 0; it < 2; it++) {
          shard.step();
          theta = referenceIteration(env, ref, theta, lr);
          expect(maxAbsDiff(shard.runs[0].theta, theta)).toBeLessThan(1e-7);
          expect(shard.series[0].J[it + 1]).toBeCloseTo(refJ(env, theta), 8);
        }
      });
    }
  });
}

describe('scaling principle: at θ = θ_old every surrogate has the policy gradient', () => {
  const env: RefEnv = { T: 2, V: 2, L: 2, rewards: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0.4, 0.4, 0.4, 0.4], gamma: 1 };
  const lr = 1e-3;
  // One epoch: the step is lr × ∇(surrogate) at θ_old; the reference REINFORCE step is lr × PG.
  const base = (init: number[]) => referenceIteration(env, { rule: 'reinforce', normalization: 'none', clip: 0.2, epochs: 1 }, init, lr);
  for (const [name, algo] of [
    ['ppu token', { id: 'a', preset: 'ppo-grae', epochs: 1 }],
    ['ppu sequence', { id: 'a', preset: 'gspo', normalization: 'none', epochs: 1 }],
    ['sequential product, M off', { id: 'a', preset: 'seeupo', normalization: 'none', epochs: 1, mCorrection: false }],
    ['sequential geomean, M off', { id: 'a', preset: 'seeupo', normalization: 'none', epochs: 1, turnRatio: 'geomean', mCorrection: false }],
  ] as [string, Record<string, unknown>][]) {
    it(name, () => {
      const shard = shardFor(customConfig({ ...env, algorithms: [algo], lr, initScale: 0.8 }));
      const init = Array.from(shard.runs[0].theta);
      shard.step();
      const expected = base(init);
      // relative to the step size lr·|PG| ≈ 1e-4
      expect(maxAbsDiff(shard.runs[0].theta, expected) / lr).toBeLessThan(1e-7);
    });
  }
});

describe('REINFORCE in exact mode (none, γ = 1, SGD) is gradient ascent on J', () => {
  it('step = lr × ∇J by finite differences of the exact J', () => {
    const env: RefEnv = { T: 3, V: 3, L: 1, rewards: Array.from({ length: 27 }, (_, s) => Math.sin(s) ** 2), gamma: 1 };
    const lr = 0.05;
    const shard = shardFor(customConfig({ ...env, algorithms: [{ id: 'reinforce' }], lr, initScale: 1 }));
    const init = Array.from(shard.runs[0].theta);
    const gradJ = numericGradient((th) => refJ(env, th), init);
    shard.step();
    const step = Array.from(shard.runs[0].theta, (v, i) => (v - init[i]) / lr);
    expect(maxAbsDiff(step, gradJ)).toBeLessThan(1e-8);
    expect(Math.max(...gradJ.map(Math.abs))).toBeGreaterThan(1e-2); // a real gradient, not zeros
  });
});

describe('structural identities', () => {
  it('sequential with T = 1, L = 1 equals token-level PPU (sampled, every iteration)', () => {
    const one = { T: 1, V: 4, L: 1, rewards: [0.1, 0.9, 0.3, 0.5] };
    const cfg = (algo: Record<string, unknown>) => customConfig({ ...one, mode: 'sampled', iterations: 30, seeds: 3, lr: 0.5, algorithms: [algo] });
    const a = shardFor(cfg({ id: 'x', preset: 'seeupo', normalization: 'none' }));
    const b = shardFor(cfg({ id: 'x', preset: 'ppo-grae', normalization: 'none' }));
    for (let k = 0; k < 30; k++) {
      a.step();
      b.step();
    }
    for (let r = 0; r < 3; r++) expect(maxAbsDiff(a.series[r].J, b.series[r].J)).toBeLessThan(1e-12);
    expect(a.series[0].J[30]).toBeGreaterThan(a.series[0].J[0] + 0.1);
  });

  it('exact, SGD, tabular, M-correction off: the order does not change the curve', () => {
    const env = { T: 3, V: 3, L: 1, rewards: Array.from({ length: 27 }, (_, s) => ((s * 5) % 9) / 8) };
    const curves = ['reverse', 'forward', 'random'].map((order) => {
      const shard = shardFor(customConfig({ ...env, iterations: 15, lr: 0.5, algorithms: [{ id: 'x', preset: 'seeupo', order, mCorrection: false }] }));
      while (!shard.done) shard.step();
      return shard.series[0].J;
    });
    expect(maxAbsDiff(curves[0], curves[1])).toBeLessThan(1e-12);
    expect(maxAbsDiff(curves[0], curves[2])).toBeLessThan(1e-12);
    // …while with the M correction on, the order does matter
    const withM = ['reverse', 'forward'].map((order) => {
      const shard = shardFor(customConfig({ ...env, iterations: 15, lr: 0.5, algorithms: [{ id: 'x', preset: 'seeupo', order }] }));
      while (!shard.done) shard.step();
      return shard.series[0].J;
    });
    expect(maxAbsDiff(withM[0], withM[1])).toBeGreaterThan(1e-6);
  });

  it('exact mode is deterministic and every seed gives the same curve at zero init', () => {
    const a = shardFor(customConfig({ ...small, iterations: 10, seeds: 2, algorithms: [{ id: 'grpo' }] }));
    const b = shardFor(customConfig({ ...small, iterations: 10, seeds: 2, algorithms: [{ id: 'grpo' }] }));
    while (!a.done) { a.step(); b.step(); }
    expect(Array.from(a.series[0].J)).toEqual(Array.from(b.series[0].J));
    expect(Array.from(a.series[0].J)).toEqual(Array.from(a.series[1].J));
  });
});
