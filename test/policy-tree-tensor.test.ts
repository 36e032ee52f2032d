import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { prefixId, prefixTokens, type PolicyTreeView } from '../src/core/env/policy-tree';
import { buildTree } from '../src/core/env/tree';
import { makeCpuSteppable } from '../src/worker/cpu-session';
import { makeTensorSteppable } from '../src/worker/tensor-session';
import { nodeBackend } from '../src/exec/tensor/register-node';

// The policy tree on the tensor executor (wasm in Node): drawn from the log-probability table it
// reads back every iteration, it matches the CPU executor's tree of the same run to float32
// precision (tabular, exact), and an MLP's tree is the network's π at every prefix, each parent's
// children summing to 1 and the context's value V^π equal to the run's J.

const config = (policy: Record<string, unknown>) => ({
  version: 1,
  env: { preset: 'lock', turns: 4 },
  mode: 'exact',
  iterations: 3,
  seeds: 1,
  optimizer: { kind: 'sgd', lr: 30 },
  algorithms: [{ id: 'seeupo' }, { id: 'grpo' }],
  policy,
});

const WATCH: [number, number][] = [
  [0, 0],
  [1, 0],
];

async function treesAfter(make: 'cpu' | 'tensor', cfg: unknown, steps: number): Promise<{ trees: PolicyTreeView[]; J: number[] }> {
  const specs = allRuns(resolveConfig(cfg));
  const s = make === 'cpu' ? await makeCpuSteppable(cfg, specs) : await makeTensorSteppable(nodeBackend)(cfg, specs);
  try {
    s.watch!(WATCH, 0);
    for (let k = 0; k < steps; k++) await s.step(false);
    const trees = s.trees!();
    return { trees, J: s.series.map((x) => x.J[steps]!) };
  } finally {
    s.dispose();
  }
}

describe('the tensor executor draws the policy tree', () => {
  beforeAll(() => nodeBackend('wasm'), 60_000);

  it('tabular, exact: the same prefixes, π and V^π as the CPU executor (within float32)', async () => {
    const cfg = { ...config({ kind: 'tabular' }), backend: 'wasm' };
    const cpu = await treesAfter('cpu', { ...cfg, backend: undefined }, 2);
    const tensor = await treesAfter('tensor', cfg, 2);
    expect(tensor.trees.map((t) => [t.algoIndex, t.seedIndex, t.iteration])).toEqual([
      [0, 0, 2],
      [1, 0, 2],
    ]);
    tensor.trees.forEach((t, i) => {
      const c = cpu.trees[i];
      expect(t.ids).toEqual(c.ids);
      t.prob.forEach((p, k) => expect(Math.abs(p - c.prob[k]), `prob ${k}`).toBeLessThan(1e-4));
      t.value.forEach((v, k) => expect(Math.abs(v - c.value[k]), `value ${k}`).toBeLessThan(1e-4));
      expect(t.noFed).toMatch(/tensor executor/);
      expect(t.fed.every((f) => f === null)).toBe(true);
    });
  });

  it('MLP: each parent\'s children sum to 1, and V^π of the context is the run\'s J', async () => {
    const { trees, J } = await treesAfter('tensor', { ...config({ kind: 'mlp' }), backend: 'wasm' }, 3);
    expect(trees).toHaveLength(2);
    trees.forEach((t, r) => {
      expect(t.iteration).toBe(3);
      expect(Math.abs(t.value[0] - J[r])).toBeLessThan(1e-9);
      const tree = buildTree(resolveConfig(config({ kind: 'mlp' })).env);
      const sums = new Map<number, number>();
      t.ids.forEach((id, k) => {
        const toks = prefixTokens(tree, id);
        if (toks.length === 0) return;
        const parent = prefixId(tree, toks.slice(0, -1));
        sums.set(parent, (sums.get(parent) ?? 0) + t.prob[k]);
      });
      for (const [parent, sum] of sums) expect(Math.abs(sum - 1), `children of ${parent}`).toBeLessThan(1e-9);
      // the network's π, not a uniform placeholder
      expect(Math.max(...t.prob.slice(1)) - Math.min(...t.prob.slice(1))).toBeGreaterThan(1e-3);
      expect(sums.size).toBeGreaterThan(1);
    });
  });
});
