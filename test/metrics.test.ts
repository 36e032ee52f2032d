import { describe, expect, it } from 'vitest';
import { atOptimumTolerance, iterationsTo95, meanInterval, summarize, tQuantile975, violations, violationTolerance } from '../src/core/metrics/summary';
import { customConfig, shardFor } from './support/engine';

describe('across-seed summaries', () => {
  it('Student-t 97.5% quantiles match tables', () => {
    expect(tQuantile975(1)).toBeCloseTo(12.7062, 4);
    expect(tQuantile975(2)).toBeCloseTo(4.3027, 4);
    expect(tQuantile975(5)).toBeCloseTo(2.5706, 3);
    expect(tQuantile975(15)).toBeCloseTo(2.1314, 4);
    expect(tQuantile975(11)).toBeCloseTo(2.2010, 4);
    expect(tQuantile975(30)).toBeCloseTo(2.0423, 4);
    expect(tQuantile975(1000)).toBeCloseTo(1.9623, 4);
  });
  it('mean and 95% interval', () => {
    const m = meanInterval([1, 2, 3, 4]); // sd = 1.290994, se = 0.645497, t3 = 3.182446
    expect(m.mean).toBe(2.5);
    expect(m.hi - m.mean).toBeCloseTo(3.182446 * 0.645497, 3);
    expect(meanInterval([NaN, 5]).mean).toBe(5);
  });
  it('violations, iterations to 95% and share at J*', () => {
    const J = [0.1, 0.5, 0.4, 0.9, 0.96, 0.995];
    expect(violations(J, 1e-6)).toEqual([2]);
    expect(iterationsTo95(J, 1)).toBe(4); // goal 0.1 + 0.95·0.9 = 0.955, first reached by 0.96
    const s = summarize([J, [0.1, 0.2, 0.3, 0.3, 0.3, 0.3]], 1, { violation: 1e-6, atOptimum: 0.01 });
    expect(s.atOptimum).toBe(0.5);
    expect(s.itersTo95).toEqual([4, null]);
    expect(s.medianItersTo95).toBe(4); // lower median of {4, ∞}
    expect(s.violations).toBe(1);
    expect(s.finalJ.mean).toBeCloseTo(0.6475, 12);
  });
  it('at J* is in units of the rewards’ range: rescaled rewards give the same share; a diverged seed is never at J*', () => {
    const J = [0.1, 0.5, 0.4, 0.9, 0.96, 0.995]; // 0.005 short of J* = 1 on rewards spanning 1
    const share = (k: number) => summarize([J.map((v) => v * k)], k, { violation: violationTolerance(k), atOptimum: atOptimumTolerance(k) }).atOptimum;
    for (const k of [1, 0.01, 1e-4, 100]) expect(share(k), `rewards ×${k}`).toBe(1);
    // on rewards spanning 0.1 the same J is 0.5 tenths short: not at J* (0.01 absolute said it was)
    expect(summarize([J], 1, { violation: 1e-7, atOptimum: atOptimumTolerance(0.1) }).atOptimum).toBe(0);
    const diverged = summarize([J, J], 1, { violation: 1e-6, atOptimum: 0.01 }, [null, 5]);
    expect(diverged.atOptimum).toBe(0.5);
  });
});

describe('per-iteration metrics of the engine', () => {
  const env = { T: 2, V: 2, L: 1, rewards: [1, 0, 0, 0.5] };
  it('uniform start: entropy log 2, optimal-turn probabilities 1/2; they rise as J rises', () => {
    const shard = shardFor(customConfig({ ...env, iterations: 30, algorithms: [{ id: 'seeupo' }] }));
    while (!shard.done) shard.step();
    const s = shard.series[0];
    expect(s.entropy[0]).toBeCloseTo(Math.log(2), 15);
    expect(s.optimalTokenProb[0][0]).toBe(0.5);
    expect(s.optimalTokenProb[1][30]).toBeGreaterThan(0.9);
    expect(s.entropy[30]).toBeLessThan(s.entropy[0]);
    expect(s.J[30]).toBeGreaterThan(0.9);
  });
  it('KL(π_old‖π_new) is the visit-weighted mean of per-node KLs; one epoch never clips', () => {
    const shard = shardFor(customConfig({ ...env, algorithms: [{ id: 'reinforce' }, { id: 'x', preset: 'ppo-grae', epochs: 1 }, { id: 'grpo', clip: 0.01, epochs: 8 }] }));
    shard.step();
    // REINFORCE from uniform moves root by ±0.0625, node "0" by ±0.125, node "1" by ∓0.0625
    const kl = (d: number) => { const p = 1 / (1 + Math.exp(-2 * d)); return 0.5 * Math.log(0.5 / p) + 0.5 * Math.log(0.5 / (1 - p)); };
    const expected = (kl(0.0625) + 0.5 * kl(0.125) + 0.5 * kl(0.0625)) / 2; // per-token mean over 2 turns
    expect(shard.series[0].kl[0]).toBeCloseTo(expected, 14);
    expect(shard.series[1].clipFraction[0]).toBe(0);
    expect(shard.series[2].clipFraction[0]).toBeGreaterThan(0.3);
    expect(shard.series[0].gradNorm[0]).toBeCloseTo(Math.sqrt(2 * 0.0625 ** 2 + 2 * 0.125 ** 2 + 2 * 0.0625 ** 2), 14);
  });
  it('zero-variance groups: every group of a constant-reward environment', () => {
    const shard = shardFor(customConfig({ T: 2, V: 2, L: 1, rewards: [0.5, 0.5, 0.5, 0.5], mode: 'sampled', algorithms: [{ id: 'grpo' }] }));
    shard.step();
    expect(shard.series[0].zeroVarianceGroups[0]).toBe(1);
    expect(shard.series[0].J[1]).toBe(0.5);
  });
  it('a diverging run is marked and its later values stay empty', () => {
    const shard = shardFor(customConfig({ ...env, lr: 100, iterations: 5, optimizer: 'sgd', rewards: [1e307, -1e307, 0, 0], algorithms: [{ id: 'reinforce' }] }));
    while (!shard.done) shard.step();
    const s = shard.series[0];
    expect(s.diverged).not.toBeNull();
    expect(Number.isNaN(s.J[5])).toBe(true);
  });
});
