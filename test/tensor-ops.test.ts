import { beforeAll, describe, expect, it } from 'vitest';
import { countOps, countTraffic } from '../bench/tensor';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { stepsPerIteration } from '../src/core/run/steps';
import { TensorShard, type ShardOverrides } from '../src/exec/tensor/shard';
import { mostMoved, stepAgainstFd, useBackend, type NodeBackend } from './support/tensor';

// What one iteration of the tensor executor costs on the device: kernels launched,
// tensors uploaded from the host, reads back to the host. Behaviour, not timing: the optimizer
// steps of an iteration go up in one packed upload, so the uploads do not grow with the number of
// steps; the host reads the log-probability tables and the UI's numbers in one batched read; a
// step is a short fixed chain of kernels.

const config = (policy: unknown, algorithms: unknown[], optimizer: unknown = { kind: 'sgd', lr: 0.1 }) => ({
  version: 1,
  env: { preset: 'lock' },
  mode: 'sampled',
  iterations: 30,
  seeds: 2,
  policy,
  optimizer,
  algorithms,
});

/** One shard over every run of the config, after its first iteration (kernels compiled, caches built). */
async function warmShard(cfg: unknown, overrides?: ShardOverrides) {
  const exp = resolveConfig(cfg);
  const shard = new TensorShard(exp, allRuns(exp), overrides);
  await shard.init();
  await shard.step();
  const K = Math.max(...allRuns(exp).map((s) => stepsPerIteration(exp, s.algoIndex)));
  return { shard, K };
}

async function perIteration(cfg: unknown) {
  const { shard, K } = await warmShard(cfg);
  const ops = await countOps(() => shard.step());
  const traffic = await countTraffic(() => shard.step());
  shard.dispose();
  return { K, ops, ...traffic };
}

const tabular = { kind: 'tabular' };
const mlp = { kind: 'mlp', hidden: [8] };
const mixed = [{ id: 'grpo' }, { id: 'gspo' }, { id: 'seeupo', mClip: 0.2 }];

for (const backend of ['wasm', 'cpu'] as NodeBackend[]) {
  describe(`tensor executor on tfjs ${backend}: device work per iteration`, () => {
    beforeAll(() => useBackend(backend));

    for (const [name, policy, perStep] of [
      ['tabular', tabular, 40],
      ['MLP', mlp, 70],
    ] as const) {
      it(`${name}: uploads do not grow with the optimizer steps; one read; at most ${perStep} kernels per step`, async () => {
        const rows = [];
        for (const epochs of [1, 4, 8]) rows.push(await perIteration(config(policy, [{ id: 'grpo', epochs }, { id: 'seeupo', epochs }])));
        expect(rows.map((r) => r.K)).toEqual([3, 12, 24]);
        expect(new Set(rows.map((r) => r.uploads)).size, JSON.stringify(rows)).toBe(1);
        expect(rows[0].uploads).toBeLessThanOrEqual(6); // packed steps, coefficients, clip weights, index (×2 on cpu), learning rate
        for (const r of rows) {
          expect(r.reads).toBe(1); // tables, gradient norms and clip statistics together
          expect(r.ops, JSON.stringify(r)).toBeLessThanOrEqual(perStep * r.K + 20);
        }
      });
    }

    it('Adam too: uploads constant in the steps, one read', async () => {
      const rows = [];
      for (const epochs of [1, 4]) rows.push(await perIteration(config(mlp, [{ id: 'seeupo', epochs }], { kind: 'adam', lr: 0.01 })));
      expect(rows[0].uploads).toBe(rows[1].uploads);
      expect(rows.map((r) => r.reads)).toEqual([1, 1]);
    });

    for (const policy of [tabular, mlp]) {
      it(`${policy.kind}: a run's numbers do not depend on its shard-mates (bit for bit, sampled, mixed step counts)`, async () => {
        const run = async (algorithms: unknown[]) => {
          const exp = resolveConfig({ ...config(policy, algorithms), iterations: 12 });
          const shard = new TensorShard(exp, allRuns(exp));
          await shard.init();
          while (!shard.done) await shard.step();
          shard.dispose();
          return shard.series;
        };
        const alone = await run([{ id: 'grpo' }]);
        const together = await run(mixed);
        for (let s = 0; s < 2; s++) {
          expect(Array.from(together[s].J)).toEqual(Array.from(alone[s].J));
          expect(Array.from(together[s].gradNorm)).toEqual(Array.from(alone[s].gradNorm));
          expect(Array.from(together[s].clipFraction)).toEqual(Array.from(alone[s].clipFraction));
        }
      });
    }
  });
}

describe('sampled MLP: the network at every node or at every rollout position gives the same run', () => {
  beforeAll(() => useBackend('wasm'));
  for (const [name, policy, overrides] of [
    ['features, one hidden layer', { kind: 'mlp', hidden: [8] }, {}],
    ['features, two hidden layers, relu', { kind: 'mlp', hidden: [8, 8], activation: 'relu' }, {}],
    ['one-hot nodes, no hidden layer, no bias', { kind: 'mlp', hidden: [], initScale: 0 }, { inputs: 'one-hot-node', bias: false }],
  ] as const)
    it(name, async () => {
      const curves = async (rows: 'nodes' | 'rollouts') => {
        const exp = resolveConfig(config(policy, mixed, { kind: 'sgd', lr: 0.3 })); // SGD: Adam would blow float noise in a zero gradient up to a full step
        const shard = new TensorShard(exp, allRuns(exp), { ...overrides, rows });
        await shard.init();
        while (!shard.done) await shard.step();
        shard.dispose();
        return shard.series.map((s) => Array.from(s.J));
      };
      const [a, b] = [await curves('nodes'), await curves('rollouts')];
      a.forEach((curve, r) => curve.forEach((J, k) => expect(Math.abs(J - b[r][k]), `run ${r} iteration ${k}`).toBeLessThan(2e-3)));
    });
});

describe('MLP layouts (first layer transposed, activations kept transposed): exact REINFORCE steps along ∇J', () => {
  for (const backend of ['wasm', 'cpu'] as NodeBackend[])
    for (const [hidden, activation] of [
      [[8, 8], 'relu'],
      [[8, 6], 'tanh'],
      [[], 'tanh'],
    ] as const)
      it(`${backend}, hidden [${hidden}] ${activation}: weights of every layer move by lr · ∂J/∂w (central differences)`, async () => {
        await useBackend(backend);
        const lr = 1e-2;
        const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, policy: { kind: 'mlp', hidden, activation }, mode: 'exact', iterations: 1, seeds: 1, optimizer: { kind: 'sgd', lr }, algorithms: [{ id: 'reinforce' }] });
        const shard = new TensorShard(exp, allRuns(exp));
        await shard.init();
        const theta0 = await shard.readParameters();
        await shard.step();
        const theta1 = await shard.readParameters();
        for (let layer = 0; layer < theta0.length; layer++) {
          for (const i of mostMoved(theta0, theta1, layer).slice(0, 2)) {
            const { fd, step } = await stepAgainstFd(shard, theta0, theta1, layer, i, lr);
            expect(Math.abs(step - fd), `tensor ${layer} entry ${i}: step ${step} vs FD ${fd}`).toBeLessThan(2e-3 + 0.02 * Math.abs(fd));
          }
        }
        shard.dispose();
      });
});
