import { describe, expect, it } from 'vitest';
import { customConfig, maxAbsDiff, shardFor } from './support/engine';
import { J as refJ, numericGradient, type RefEnv } from './support/reference';

const env: RefEnv = { T: 2, V: 2, L: 1, rewards: [1, 0, 0, 0.5], gamma: 1 };
const pg = [0.0625, -0.0625, 0.125, -0.125, -0.0625, 0.0625]; // hand-computed in rules.test.ts

describe('Adam (β = 0.9, 0.999, ε = 1e-8)', () => {
  it('the first step moves every parameter by lr·g/(|g| + ε) ≈ lr·sign(g)', () => {
    const lr = 0.01;
    const shard = shardFor(customConfig({ ...env, optimizer: 'adam', lr, algorithms: [{ id: 'reinforce' }] }));
    shard.step();
    const expected = pg.map((g) => (lr * g) / (Math.abs(g) + 1e-8));
    expect(maxAbsDiff(shard.runs[0].theta, expected)).toBeLessThan(1e-15);
  });

  it('a sequential update moves only the turn being updated (each turn keeps its own moments)', () => {
    const lr = 0.01;
    // epochs 2: turn 2 (reverse) takes two Adam steps, then turn 1 takes two; turn 1's step count starts at 1
    const shard = shardFor(customConfig({ ...env, optimizer: 'adam', lr, algorithms: [{ id: 'seeupo', normalization: 'none', epochs: 1 }] }));
    shard.step();
    const th = shard.runs[0].theta;
    // turn 2 moved first with the policy gradient: one Adam step of size lr per parameter
    expect(maxAbsDiff(th.slice(2), pg.slice(2).map((g) => lr * Math.sign(g)))).toBeLessThan(1e-6 * lr);
    // turn 1's first Adam step is also of size lr, in the direction of its M-weighted gradient
    expect(th[0]).toBeCloseTo(lr, 8);
    expect(th[1]).toBeCloseTo(-lr, 8);
  });
});

describe('PPO with GAE', () => {
  it('exact mode uses Q_old − V_old per token: one epoch, no normalization, SGD is a step along ∇J', () => {
    const e3: RefEnv = { T: 3, V: 2, L: 1, rewards: [0.2, 1, 0, 0.3, 0.5, 0.5, 0.1, 0.9], gamma: 1 };
    const lr = 0.1;
    const shard = shardFor(customConfig({ ...e3, lr, initScale: 0.7, algorithms: [{ id: 'ppo-gae', normalization: 'none', epochs: 1 }] }));
    const init = Array.from(shard.runs[0].theta);
    const gradJ = numericGradient((th) => refJ(e3, th), init);
    shard.step();
    const step = Array.from(shard.runs[0].theta, (v, i) => (v - init[i]) / lr);
    expect(maxAbsDiff(step, gradJ)).toBeLessThan(1e-8);
  });

  it('sampled mode: the critic takes one SGD step per epoch towards the λ-return', () => {
    // zero critic, γ = λ = 1: every token's λ-return is the rollout's R, so V(root) after e epochs
    // of V ← V − lr·(V − mean R) is mean R·(1 − (1 − lr)^e).
    const shard = shardFor(customConfig({ ...env, mode: 'sampled', groupSize: 64, algorithms: [{ id: 'ppo-gae', gaeLambda: 1, criticLr: 0.5, epochs: 3 }] }));
    shard.step();
    const run = shard.runs[0];
    const b = shard.sc.batch;
    const R = Array.from(b.reward.subarray(0, 64));
    const meanR = R.reduce((a, r) => a + r, 0) / 64;
    expect(run.critic![0]).toBeCloseTo(meanR * (1 - 0.5 ** 3), 14);
    // node "0" is visited by the rollouts that started with token 0: its gradient carries count/64
    const starts0 = R.filter((_, i) => b.tok[i * 2] === 0);
    const mean0 = starts0.reduce((a, r) => a + r, 0) / starts0.length;
    expect(run.critic![1]).toBeCloseTo(mean0 * (1 - (1 - (0.5 * starts0.length) / 64) ** 3), 14);
    expect(starts0.length).toBeGreaterThan(10);
  });
});
