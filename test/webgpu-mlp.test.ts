import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, mlpInputSize } from '../src/core/config/resolve';
import { buildTree } from '../src/core/env/tree';
import { allRuns } from '../src/core/run/partition';
import { initialMlp, mlpNodeLogits, nodeActiveInputs, type MlpShape } from '../src/exec/host/mlp';
import { inputSize, nodeInputs } from '../src/exec/tensor/features';
import { kernelSource } from '../src/exec/webgpu/kernel';
import { adamWords, scratchWords, thetaWords } from '../src/exec/webgpu/layout';
import { mlpWords } from '../src/exec/webgpu/kernel-mlp';
import { WebGpuShard } from '../src/exec/webgpu/shard';
import { useBackend } from './support/tensor';
import { TensorShard } from '../src/exec/tensor/shard';

// The shared MLP's host code (src/exec/host/mlp.ts), which the tensor and the WebGPU executor share,
// and the WebGPU executor's MLP shape on the host side. The kernel's numbers are checked against the
// tensor executor in Chromium (e2e/webgpu-mlp.spec.ts).

describe('the MLP host code', () => {
  it('the active inputs of every node are exactly the 1s of its one-hot input row', () => {
    for (const env of [{ turns: 3, vocab: 3, tokensPerTurn: 1, contexts: 2 }, { turns: 2, vocab: 2, tokensPerTurn: 2, contexts: 1 }]) {
      const tree = buildTree(env);
      const width = inputSize(tree, env.contexts);
      const dense = nodeInputs(tree, env.contexts);
      const active = nodeActiveInputs(tree, env.contexts);
      const nodes = env.contexts * tree.nodesPerContext;
      expect(active.length).toBe(nodes * (tree.N + 2));
      for (let g = 0; g < nodes; g++) {
        const ones: number[] = [];
        for (let i = 0; i < width; i++) if (dense[g * width + i] === 1) ones.push(i);
        expect([...active.subarray(g * (tree.N + 2), (g + 1) * (tree.N + 2))].sort((a, b) => a - b)).toEqual(ones);
      }
    }
  });

  it('the forward pass over the nodes equals the dense product act(X·W1 + b1)·W2 + b2, and a hand-computed case', () => {
    const env = { turns: 3, vocab: 3, tokensPerTurn: 1, contexts: 2 };
    const tree = buildTree(env);
    const width = inputSize(tree, env.contexts);
    const X = nodeInputs(tree, env.contexts);
    const nodes = env.contexts * tree.nodesPerContext;
    for (const activation of ['tanh', 'relu'] as const) {
      const shape: MlpShape = { layers: [width, 5, 4, 3], activation, bias: true };
      const w = initialMlp(shape, 7, 1, 1);
      w[1]!.forEach((_, i) => (w[1]![i] = 0.1 * (i - 2))); // biases that are not zero
      w[5]!.forEach((_, i) => (w[5]![i] = -0.05 * i));
      const got = mlpNodeLogits(shape, w, nodeActiveInputs(tree, env.contexts), nodes, new Float64Array(nodes * 3));
      const act = (z: number) => (activation === 'tanh' ? Math.tanh(z) : Math.max(0, z));
      for (let g = 0; g < nodes; g++) {
        let h = Array.from(X.subarray(g * width, (g + 1) * width));
        for (let l = 0; l < 3; l++) {
          const [nIn, nOut] = [shape.layers[l]!, shape.layers[l + 1]!];
          const z = Array.from({ length: nOut }, (_, o) => w[2 * l + 1]![o]! + h.reduce((s, x, i) => s + x * w[2 * l]![i * nOut + o]!, 0));
          expect(z).toHaveLength(nOut);
          expect(h).toHaveLength(nIn);
          h = l < 2 ? z.map(act) : z;
        }
        h.forEach((v, a) => expect(got[g * 3 + a]).toBeCloseTo(v, 12));
      }
    }
    // one node, inputs {0, 2} of 3, one hidden unit: logits = [tanh(w0 + w2 + b)·u0 + c0, tanh(…)·u1 + c1]
    const tiny: MlpShape = { layers: [3, 1, 2], activation: 'tanh', bias: true };
    const weights = [Float32Array.of(0.5, 9, -0.25), Float32Array.of(0.125), Float32Array.of(2, -1), Float32Array.of(0.5, 0)];
    const out = mlpNodeLogits(tiny, weights, Uint32Array.of(0, 2), 1, new Float64Array(2));
    const h = Math.tanh(0.5 - 0.25 + 0.125);
    expect([...out]).toEqual([2 * h + 0.5, -h]);
  });
});

describe('the WebGPU executor with an MLP: the host side', () => {
  beforeAll(() => {
    Object.assign(globalThis, { GPUBufferUsage: { STORAGE: 128, COPY_DST: 8, COPY_SRC: 4, UNIFORM: 64, MAP_READ: 1 }, GPUMapMode: { READ: 1 } });
  });
  afterAll(() => {
    delete (globalThis as Record<string, unknown>).GPUBufferUsage;
    delete (globalThis as Record<string, unknown>).GPUMapMode;
  });

  const config = (extra: Record<string, unknown> = {}) => ({ version: 1, env: { preset: 'two-prompts' }, mode: 'exact', iterations: 5, seeds: 3, policy: { kind: 'mlp', hidden: [16, 8] }, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }], ...extra });

  it('sizes: each run holds its node logits and weights, Adam m and v of every weight and one step count, and the weights’ gradient in scratch', () => {
    const base = { sampled: false, B: 2, G: 8, contexts: 2, V: 3, N: 3, L: 1, T: 3, nodesPerContext: 13, offset: [0, 1, 4, 13], S: 27, gamma: 1, perTurn: false };
    const mlp = { layers: [14, 16, 8, 3], activation: 'tanh' as const };
    const W = (14 + 1) * 16 + (16 + 1) * 8 + (8 + 1) * 3;
    expect(mlpWords(mlp)).toBe(W);
    expect(thetaWords({ ...base, mlp })).toBe(26 * 3 + W);
    expect(adamWords({ ...base, mlp })).toBe(2 * W + 1);
    expect(adamWords({ ...base, mlp: null })).toBe(2 * 78 + 3);
    expect(scratchWords({ ...base, mlp })).toBe(scratchWords({ ...base, mlp: null }) + W);
    const src = kernelSource({ ...base, mlp });
    expect(src).toContain('  // layer 1: 16 → 8\n');
    expect(src).toContain('  // layer 2: 8 → 3\n');
    expect(src).toContain('fn mlpForwardAll()');
    expect(kernelSource({ ...base, mlp: null })).not.toContain('fn mlpForwardAll()');
  });

  it('iteration 0 is the tensor executor’s: the same seeded weights, evaluated on the host', async () => {
    useBackend('cpu');
    const { fakeDevice } = await import('./support/fake-gpu');
    const exp = resolveConfig(config({ executor: 'webgpu' }));
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice());
    await shard.init();
    const ref = resolveConfig(config({ executor: 'tensor' }));
    const tensor = new TensorShard(ref, allRuns(ref));
    await tensor.init();
    shard.series.forEach((s, r) => expect(s.J[0]).toBeCloseTo(tensor.series[r]!.J[0]!, 6));
    expect(new Set(shard.series.map((s) => s.J[0])).size).toBe(3); // three seeds, three initial networks
    expect(mlpInputSize(exp.env)).toBe(2 + 3 + 1 + 2 * 4);
    tensor.dispose();
    shard.dispose();
  });

  it('refuses, before making a buffer, runs whose buffers the adapter cannot bind', async () => {
    const { fakeDevice } = await import('./support/fake-gpu');
    const exp = resolveConfig(config({ executor: 'webgpu', seeds: 256 }));
    const log = { created: 0, destroyed: 0, dispatches: 0, maps: 0, writes: [], K: [], bindLimit: 2 ** 20 };
    const shard = new WebGpuShard(exp, allRuns(exp), fakeDevice(log));
    await expect(shard.init()).rejects.toThrow(/^the WebGPU executor needs a [\d.]+ MiB buffer for 512 runs; this adapter binds at most 1 MiB: lower seeds or the environment size, or use executor "cpu"$/);
    expect(log.created).toBe(0);
    shard.dispose();
  });
});
