import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import type { ExperimentResult, RunResult } from '../src/core/run/result';
import { maxCurveDiff, runCpu, runTensor, useBackend } from './support/tensor';

// A learning rate per algorithm (`algorithms[i].lr`, in place of optimizer.lr): every optimizer
// step of an algorithm with its own lr uses it, whatever optimizer.lr is or becomes (changes);
// the others keep following optimizer.lr. Checked against experiments whose optimizer.lr is the
// one each algorithm should see, with the algorithm at the same position (its sampling streams
// are keyed by it), so the curves must agree bit for bit.

type Opt = 'sgd' | 'adam';

function config(opts: { optimizer: Opt; lr: number; own?: (number | null)[]; mode?: 'exact' | 'sampled'; changes?: unknown[]; algorithms?: Record<string, unknown>[]; iterations?: number }) {
  const algorithms = opts.algorithms ?? [
    { id: 'seeupo-own', preset: 'seeupo' },
    { id: 'seeupo', preset: 'seeupo' },
  ];
  return {
    version: 1,
    env: { preset: 'two-prompts' },
    policy: { kind: 'tabular', initScale: 0.3 },
    mode: opts.mode ?? 'exact',
    iterations: opts.iterations ?? 12,
    seeds: 2,
    groupSize: 4,
    optimizer: { kind: opts.optimizer, lr: opts.lr },
    algorithms: algorithms.map((a, i) => (opts.own?.[i] != null ? { ...a, lr: opts.own[i] } : a)),
    ...(opts.changes ? { changes: opts.changes } : {}),
  };
}

/** Every stored metric of a run, for bit-for-bit comparison. */
const metrics = (r: RunResult) => ({ J: r.J, entropy: r.entropy, kl: r.kl, clipFraction: r.clipFraction, gradNorm: r.gradNorm, optimalTokenProb: r.optimalTokenProb, diverged: r.diverged });
const runsOf = (res: ExperimentResult, a: number) => res.algorithms[a].runs.map(metrics);
const sgdLr = { sgd: [2, 0.5], adam: [0.2, 0.05] } as const;

describe('per-algorithm learning rate, CPU executor', () => {
  for (const optimizer of ['sgd', 'adam'] as Opt[]) {
    const [own, shared] = sgdLr[optimizer];
    for (const mode of ['exact', 'sampled'] as const) {
      it(`${optimizer}, ${mode}: the algorithm with lr ${own} runs as with optimizer.lr ${own}, the other as with ${shared}`, async () => {
        const mixed = await runCpu(config({ optimizer, lr: shared, own: [own], mode }));
        const allOwn = await runCpu(config({ optimizer, lr: own, mode }));
        const allShared = await runCpu(config({ optimizer, lr: shared, mode }));
        expect(runsOf(allOwn, 0)).not.toEqual(runsOf(allShared, 0)); // the two rates give different curves
        expect(runsOf(mixed, 0)).toEqual(runsOf(allOwn, 0));
        expect(runsOf(mixed, 1)).toEqual(runsOf(allShared, 1));
      });
    }
    it(`${optimizer}: equals a separate one-algorithm run at its lr (exact mode)`, async () => {
      const mixed = await runCpu(config({ optimizer, lr: shared, own: [own] }));
      const alone = await runCpu(config({ optimizer, lr: own, algorithms: [{ id: 'seeupo' }] }));
      expect(runsOf(mixed, 0)).toEqual(runsOf(alone, 0));
    });
  }

  it('a scheduled change of optimizer.lr moves only the algorithms without their own lr', async () => {
    const changes = [
      { at: 3, path: 'optimizer.lr', value: 0.05 },
      { at: 8, path: 'optimizer.lr', value: 4 },
    ];
    for (const mode of ['exact', 'sampled'] as const) {
      const mixed = await runCpu(config({ optimizer: 'sgd', lr: 0.5, own: [2], mode, changes }));
      const ownNoChanges = await runCpu(config({ optimizer: 'sgd', lr: 2, mode }));
      const sharedWithChanges = await runCpu(config({ optimizer: 'sgd', lr: 0.5, mode, changes }));
      const sharedNoChanges = await runCpu(config({ optimizer: 'sgd', lr: 0.5, mode }));
      expect(runsOf(sharedWithChanges, 1)).not.toEqual(runsOf(sharedNoChanges, 1)); // the changes matter
      expect(runsOf(mixed, 0)).toEqual(runsOf(ownNoChanges, 0));
      expect(runsOf(mixed, 1)).toEqual(runsOf(sharedWithChanges, 1));
    }
  });

  it("GAE's critic falls back to the algorithm's lr (sampled PPO+GAE)", async () => {
    const algorithms = [{ id: 'ppo-gae' }, { id: 'ppo-gae-2', preset: 'ppo-gae' }];
    const mixed = await runCpu(config({ optimizer: 'sgd', lr: 0.5, own: [null, 2], mode: 'sampled', algorithms }));
    const allOwn = await runCpu(config({ optimizer: 'sgd', lr: 2, mode: 'sampled', algorithms }));
    const allShared = await runCpu(config({ optimizer: 'sgd', lr: 0.5, mode: 'sampled', algorithms }));
    expect(runsOf(mixed, 1)).toEqual(runsOf(allOwn, 1));
    expect(runsOf(mixed, 0)).toEqual(runsOf(allShared, 0));
  });

  it('lr 1000 is accepted and runs (it may diverge)', async () => {
    const cfg = config({ optimizer: 'sgd', lr: 1000, own: [1000], mode: 'sampled', iterations: 6 });
    expect(resolveConfig(cfg).algorithms[0].lr).toBe(1000);
    const res = await runCpu(cfg);
    for (const a of res.algorithms)
      for (const r of a.runs) {
        expect(r.J).toHaveLength(7);
        expect(r.diverged === null || (r.diverged >= 0 && r.diverged <= 6)).toBe(true);
        expect(r.J[0]).not.toBeNull();
      }
  });
});

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`per-algorithm learning rate, tensor executor (tfjs ${backend})`, () => {
    beforeAll(() => useBackend(backend));
    for (const optimizer of ['sgd', 'adam'] as Opt[]) {
      const [own, shared] = sgdLr[optimizer];
      it(`${optimizer}: each algorithm equals its own single-lr run, and the CPU executor within float32 tolerance`, async () => {
        const mixed = await runTensor(config({ optimizer, lr: shared, own: [own] }));
        const allOwn = await runTensor(config({ optimizer, lr: own }));
        const allShared = await runTensor(config({ optimizer, lr: shared }));
        expect(runsOf(allOwn, 0)).not.toEqual(runsOf(allShared, 0));
        expect(runsOf(mixed, 0).map((r) => r.J)).toEqual(runsOf(allOwn, 0).map((r) => r.J));
        expect(runsOf(mixed, 1).map((r) => r.J)).toEqual(runsOf(allShared, 1).map((r) => r.J));
        const { diff, where } = maxCurveDiff(await runCpu(config({ optimizer, lr: shared, own: [own] })), mixed);
        expect(diff, where).toBeLessThan(2e-3);
      });
    }
    it('sampled, with a scheduled change of optimizer.lr: the algorithm with its own lr is unaffected', async () => {
      const changes = [{ at: 3, path: 'optimizer.lr', value: 0.05 }];
      const mixed = await runTensor(config({ optimizer: 'sgd', lr: 0.5, own: [2], mode: 'sampled', changes }));
      const ownNoChanges = await runTensor(config({ optimizer: 'sgd', lr: 2, mode: 'sampled' }));
      const sharedWithChanges = await runTensor(config({ optimizer: 'sgd', lr: 0.5, mode: 'sampled', changes }));
      expect(runsOf(mixed, 0).map((r) => r.J)).toEqual(runsOf(ownNoChanges, 0).map((r) => r.J));
      expect(runsOf(mixed, 1).map((r) => r.J)).toEqual(runsOf(sharedWithChanges, 1).map((r) => r.J));
    });
    it("sampled PPO+GAE: the critic follows the algorithm's lr as on the CPU executor", async () => {
      const algorithms = [{ id: 'ppo-gae' }, { id: 'ppo-gae-2', preset: 'ppo-gae' }];
      const mixed = await runTensor(config({ optimizer: 'sgd', lr: 0.5, own: [null, 2], mode: 'sampled', algorithms }));
      const allOwn = await runTensor(config({ optimizer: 'sgd', lr: 2, mode: 'sampled', algorithms }));
      expect(runsOf(mixed, 1).map((r) => r.J)).toEqual(runsOf(allOwn, 1).map((r) => r.J));
    });
  });
}
