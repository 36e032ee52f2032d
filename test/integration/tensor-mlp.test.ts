import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALGORITHM_IDS, presetRecord } from '../../src/core/algo/records';
import { maxCurveDiff, mostMoved, runCpu, stepAgainstFd, tensorShard, useBackend } from '../support/tensor';
import { runOnTensor } from '../../src/exec/tensor/run-experiment';
import { resolveConfig } from '../../src/core/config/resolve';
import { allRuns } from '../../src/core/run/partition';
import { buildResult } from '../../src/core/run/result';
import { TensorShard } from '../../src/exec/tensor/shard';

// The shared MLP policy (docs/math.md "Policies") on the tensor executor.

const named = ALGORITHM_IDS.map((id) => ({ id }));
const simultaneous = ALGORITHM_IDS.filter((id) => presetRecord(id).rule !== 'sequential').map((id) => ({ id }));

/** The result of a one-hot-node, no-hidden-layer, bias-free, zero-initialized MLP. */
async function oneHotTable(config: Record<string, unknown>) {
  const exp = resolveConfig({ ...config, policy: { kind: 'mlp', hidden: [], initScale: 0 } });
  const shard = new TensorShard(exp, allRuns(exp), { inputs: 'one-hot-node', bias: false });
  await shard.init();
  while (!shard.done) await shard.step();
  shard.dispose();
  return buildResult(exp, shard.pb.opt.Jstar, shard.series, { executor: 'tensor', backend: 'test', executorReason: 'test', threads: 1, wallSeconds: 0 });
}

describe('MLP with one-hot node inputs and no hidden layer is the tabular policy', () => {
  beforeAll(() => useBackend('wasm'));
  for (const preset of ['lock', 'tokens']) {
    it(`${preset}, exact, SGD: every named algorithm's curve equals the CPU executor's within 2e-3`, async () => {
      const config = { version: 1, env: { preset }, mode: 'exact', iterations: 30, seeds: 1, algorithms: named };
      const { diff, where } = maxCurveDiff(await runCpu(config), await oneHotTable(config));
      expect(diff, where).toBeLessThan(2e-3);
    });
  }
  it('two-prompts, exact, Adam: the simultaneous algorithms too (one shared Adam state = the table\'s)', async () => {
    const config = { version: 1, env: { preset: 'two-prompts' }, mode: 'exact', iterations: 30, seeds: 1, optimizer: { kind: 'adam', lr: 0.05 }, algorithms: simultaneous };
    const { diff, where } = maxCurveDiff(await runCpu(config), await oneHotTable(config));
    expect(diff, where).toBeLessThan(2e-3);
  });
  it('lock, sampled (per-rollout input rows): same random streams, so the curves coincide', async () => {
    const config = { version: 1, env: { preset: 'lock' }, mode: 'sampled', iterations: 30, seeds: 4, algorithms: named };
    const { diff, where } = maxCurveDiff(await runCpu(config), await oneHotTable(config));
    expect(diff, where).toBeLessThan(2e-3);
  });
});

const mlpConfig = (algorithms: unknown[], extra: Record<string, unknown> = {}) => ({
  version: 1,
  env: { preset: 'lock' },
  policy: { kind: 'mlp', hidden: [16], activation: 'tanh' },
  mode: 'exact',
  iterations: 1,
  seeds: 1,
  optimizer: { kind: 'sgd', lr: 1e-3 },
  algorithms,
  ...extra,
});

/** Parameter change of one iteration, flattened. */
async function oneIterationDelta(config: unknown): Promise<Float64Array> {
  const { shard } = await tensorShard(config);
  const before = (await shard.readParameters()).flatMap((p) => Array.from(p));
  await shard.step();
  const after = (await shard.readParameters()).flatMap((p) => Array.from(p));
  shard.dispose();
  return Float64Array.from(after, (v, i) => v - before[i]);
}

describe('MLP: every surrogate\'s gradient at θ_old is the policy gradient (scaling principle)', () => {
  beforeAll(() => useBackend('cpu'));
  for (const id of ALGORITHM_IDS) {
    it(`${id} (one epoch): one iteration moves θ by lr · the REINFORCE gradient of its own advantages`, async () => {
      const rec = presetRecord(id);
      const delta = await oneIterationDelta(mlpConfig([rec.rule === 'reinforce' ? { id } : { id, epochs: 1 }]));
      const reference = await oneIterationDelta(mlpConfig([{ id: 'ref', advantage: rec.advantage, normalization: rec.normalization, rule: 'reinforce' }]));
      const scale = Math.max(...reference.map(Math.abs));
      expect(scale).toBeGreaterThan(1e-5);
      let worst = 0;
      delta.forEach((d, i) => (worst = Math.max(worst, Math.abs(d - reference[i]))));
      expect(worst / scale).toBeLessThan(1e-2);
    });
  }
});

describe('MLP: exact REINFORCE steps along ∇J (finite differences)', () => {
  beforeAll(() => useBackend('cpu'));
  it('the update of 8 weights (first and output layer) equals lr · ∂J/∂w by central differences', async () => {
    const lr = 1e-2;
    const config = mlpConfig([{ id: 'reinforce' }], { optimizer: { kind: 'sgd', lr } });
    const { shard } = await tensorShard(config);
    const theta0 = await shard.readParameters();
    await shard.step();
    const theta1 = await shard.readParameters();
    const picks: [number, number][] = [];
    for (const layer of [0, theta0.length - 2]) {
      picks.push(...mostMoved(theta0, theta1, layer).slice(0, 4).map((i): [number, number] => [layer, i]));
    }
    for (const [layer, i] of picks) {
      const { fd, step } = await stepAgainstFd(shard, theta0, theta1, layer, i, lr);
      expect(Math.abs(step - fd), `layer ${layer} weight ${i}: step ${step} vs FD ${fd}`).toBeLessThan(2e-3 + 0.02 * Math.abs(fd));
    }
    shard.dispose();
  });
});

describe('tensor hygiene', () => {
  beforeAll(() => useBackend('wasm'));
  for (const policy of [{ kind: 'tabular' }, { kind: 'mlp', hidden: [8] }]) {
    it(`${policy.kind}: tf.memory().numTensors after iteration 10 equals after iteration 1,000 (sampled, Adam)`, async () => {
      const config = {
        version: 1,
        env: { preset: 'lock' },
        policy,
        mode: 'sampled',
        iterations: 1000,
        seeds: 1,
        optimizer: { kind: 'adam', lr: 0.01 },
        algorithms: [{ id: 'reinforce' }, { id: 'gspo', epochs: 2 }, { id: 'seeupo', epochs: 1, minibatches: 2 }],
      };
      const before = tf.memory().numTensors;
      const { shard } = await tensorShard(config);
      for (let k = 0; k < 10; k++) await shard.step();
      const at10 = tf.memory().numTensors;
      while (!shard.done) await shard.step();
      expect(tf.memory().numTensors).toBe(at10);
      shard.dispose();
      expect(tf.memory().numTensors).toBe(before);
    });
  }
  it('a whole run leaves no tensor behind', async () => {
    const before = tf.memory().numTensors;
    const exp = resolveConfig(mlpConfig(named, { iterations: 3 }));
    await runOnTensor(exp, { backend: 'wasm', reason: 'test' });
    expect(tf.memory().numTensors).toBe(before);
  });
});
