import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { treeUnavailable } from '../src/ui/tree-state';

// Where the policy tree panel has no tree, it says why in a sentence naming the executor; every
// executor that holds π at every prefix (CPU and tensor always, WebGPU for tables) draws one.

const exp = (policy: string, env: Record<string, unknown> = { preset: 'lock', turns: 4 }, mode = 'exact') =>
  resolveConfig({ version: 1, env, mode, iterations: 2, seeds: 1, mcSamples: 256, algorithms: [{ id: 'grpo' }], policy: { kind: policy } });

describe('treeUnavailable', () => {
  it('tables on every executor and an MLP on the tensor executor have a tree', () => {
    for (const executor of ['cpu', 'tensor', 'webgpu'] as const) expect(treeUnavailable(exp('tabular'), executor), executor).toBeNull();
    expect(treeUnavailable(exp('mlp'), 'tensor')).toBeNull();
  });

  it('an MLP on the WebGPU executor: a sentence naming the executor and where the tree is', () => {
    const why = treeUnavailable(exp('mlp'), 'webgpu');
    expect(why).toMatch(/WebGPU executor/);
    expect(why).toMatch(/tensor executor/);
  });

  it('an environment too large to enumerate (an MLP samples it): says so, naming the executor', () => {
    const big = exp('mlp', { preset: 'lock', turns: 6, vocab: 8 }, 'sampled'); // 8^6 sequences
    const why = treeUnavailable(big, 'tensor');
    expect(why).toMatch(/too many sequences to enumerate/);
    expect(why).toMatch(/tensor executor/);
  });
});
