import { beforeAll, describe, expect, it } from 'vitest';
import { ALGORITHM_IDS } from '../../src/core/algo/records';
import { maxCurveDiff, runCpu, runTensor, useBackend, type NodeBackend } from '../support/tensor';

// The tensor executor against the CPU executor (the float64 reference): the same experiments, the same numbers within float32 rounding.

const named = ALGORITHM_IDS.map((id) => ({ id }));

for (const backend of ['cpu', 'wasm'] as NodeBackend[]) {
  describe(`tensor executor on tfjs ${backend}: exact mode equals the CPU executor`, () => {
    beforeAll(() => useBackend(backend));
    for (const preset of ['lock', 'tokens', 'two-prompts']) {
      it(`${preset}: every named algorithm's J curve within 2e-3 (SGD, 40 iterations)`, async () => {
        const config = { version: 1, env: { preset }, mode: 'exact', iterations: 40, seeds: 1, algorithms: named };
        const { diff, where } = maxCurveDiff(await runCpu(config), await runTensor(config));
        expect(diff, where).toBeLessThan(2e-3);
      });
    }
    it('two-prompts with Adam, random init (2 seeds), γ = 0.9 and mClip: within 2e-3', async () => {
      const config = {
        version: 1,
        env: { preset: 'two-prompts', gamma: 0.9 },
        policy: { kind: 'tabular', initScale: 0.5 },
        mode: 'exact',
        iterations: 30,
        seeds: 2,
        optimizer: { kind: 'adam', lr: 0.05 },
        algorithms: [...named, { id: 'seeupo-mclip', preset: 'seeupo', mClip: 0.2 }, { id: 'seeupo-geo', preset: 'seeupo', turnRatio: 'geomean' }],
      };
      const { diff, where } = maxCurveDiff(await runCpu(config), await runTensor(config));
      expect(diff, where).toBeLessThan(2e-3);
    });
  });
}

describe('tensor executor, sampled mode: agrees with the CPU executor statistically', () => {
  beforeAll(() => useBackend('wasm'));
  it('mean final J per algorithm over 64 seeds within 4 standard errors (lock, noise, minibatches)', async () => {
    const config = {
      version: 1,
      env: { preset: 'lock', noise: { kind: 'gaussian', sigma: 0.1 } },
      mode: 'sampled',
      iterations: 25,
      seeds: 64,
      algorithms: [...named, { id: 'grpo-mb', preset: 'grpo', minibatches: 2 }],
    };
    const [a, b] = [await runCpu(config), await runTensor(config)];
    for (let i = 0; i < a.algorithms.length; i++) {
      const fa = a.algorithms[i].runs.map((r) => r.J[25] as number);
      const fb = b.algorithms[i].runs.map((r) => r.J[25] as number);
      const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
      const variance = (x: number[]) => x.reduce((s, v) => s + (v - mean(x)) ** 2, 0) / (x.length - 1);
      const se = Math.sqrt(variance(fa) / fa.length + variance(fb) / fb.length);
      expect(Math.abs(mean(fa) - mean(fb)), `${a.algorithms[i].id}: ${mean(fa)} vs ${mean(fb)}, SE ${se}`).toBeLessThanOrEqual(4 * se + 1e-9);
    }
  });
});
