import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { applyHotValues } from '../src/core/run/changes';
import { allRuns } from '../src/core/run/partition';
import { CpuShard } from '../src/exec/cpu/shard';
import { TensorShard } from '../src/exec/tensor/shard';
import { runCpu, runTensor, useBackend } from './support/tensor';

// Learning-rate and clip changes at given iterations (`changes`, what a permalink carries for a
// run changed while it went): every executor applies them before computing iteration `at`, so a
// scheduled change equals changing the value by hand between iterations at−1 and at.

const base = {
  version: 1,
  env: { preset: 'two-prompts' },
  mode: 'exact',
  iterations: 12,
  seeds: 1,
  algorithms: [{ id: 'seeupo' }, { id: 'grpo' }],
};
const changes = [
  { at: 4, path: 'optimizer.lr', value: 0.05 },
  { at: 7, path: 'algorithms[1].clip', value: 0.05 },
  { at: 7, path: 'optimizer.lr', value: 2 },
];

/** J curves of a CPU shard stepped by hand, with the same changes written between iterations. */
function byHand(): Float64Array[] {
  const exp = resolveConfig(base);
  const shard = new CpuShard(exp, allRuns(exp));
  while (!shard.done) {
    if (shard.iteration === 4) applyHotValues(exp, { lr: 0.05 });
    if (shard.iteration === 7) applyHotValues(exp, { clips: [null, 0.05], lr: 2 });
    shard.step();
  }
  return shard.series.map((s) => s.J);
}

describe('changes in the config', () => {
  it('are validated against the experiment, naming the field', () => {
    const bad = (c: unknown, msg: RegExp) => expect(() => resolveConfig({ ...base, changes: [c] })).toThrow(msg);
    bad({ at: 12, path: 'optimizer.lr', value: 0.1 }, /^changes\[0\]\.at: must be an iteration from 0 to 11/);
    bad({ at: 1, path: 'algorithms[2].clip', value: 0.1 }, /^changes\[0\]\.path: algorithms\[2\] does not exist/);
    bad({ at: 1, path: 'optimizer.lr', value: 0 }, /^changes\[0\]\.value: must be a number > 0/);
    bad({ at: 1, path: 'seeds', value: 2 }, /^changes\[0\]\.path: must be "optimizer.lr" or "algorithms\[i\]\.clip"/);
    bad({ at: 1, path: 'optimizer.lr', value: 0.1, extra: 1 }, /^changes\[0\]\.extra: unknown field/);
    expect(() => resolveConfig({ ...base, changes: Array.from({ length: 65 }, () => changes[0]) })).toThrow(/at most 64 changes/);
  });

  it('are sorted by iteration, keeping the given order within one', () => {
    const exp = resolveConfig({ ...base, changes: [changes[2], changes[0], changes[1]] });
    expect(exp.changes.map((c) => `${c.at}:${c.path}`)).toEqual(['4:optimizer.lr', '7:optimizer.lr', '7:algorithms[1].clip']);
  });

  it('CPU executor: a scheduled run equals the run changed by hand, bit for bit, and differs from the unchanged run', async () => {
    const scheduled = await runCpu({ ...base, changes });
    const hand = byHand();
    scheduled.algorithms.forEach((a, i) => expect(a.runs[0].J).toEqual(Array.from(hand[i])));
    const plain = await runCpu(base);
    expect(plain.algorithms[0].runs[0].J.slice(0, 5)).toEqual(scheduled.algorithms[0].runs[0].J.slice(0, 5)); // J[0..4]: before the first change
    expect(plain.algorithms[0].runs[0].J[5]).not.toEqual(scheduled.algorithms[0].runs[0].J[5]);
    expect(plain.algorithms[1].runs[0].J[12]).not.toEqual(scheduled.algorithms[1].runs[0].J[12]);
  });

  describe('tensor executor (tfjs cpu)', () => {
    beforeAll(() => useBackend('cpu'));
    it('a scheduled run equals the shard changed by hand (refreshHyper), and is within 2e-3 of the CPU executor', async () => {
      const scheduled = await runTensor({ ...base, changes });
      const exp = resolveConfig(base);
      const shard = new TensorShard(exp, allRuns(exp));
      await shard.init();
      while (!shard.done) {
        if (shard.iteration === 4) applyHotValues(exp, { lr: 0.05 });
        if (shard.iteration === 7) applyHotValues(exp, { clips: [null, 0.05], lr: 2 });
        if (shard.iteration === 4 || shard.iteration === 7) shard.refreshHyper();
        await shard.step();
      }
      scheduled.algorithms.forEach((a, i) => expect(a.runs[0].J).toEqual(Array.from(shard.series[i].J)));
      shard.dispose();
      const hand = byHand();
      scheduled.algorithms.forEach((a, i) => a.runs[0].J.forEach((v, k) => expect(Math.abs(v! - hand[i][k])).toBeLessThan(2e-3)));
    });
  });
});
