import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { computeOptimum } from '../src/core/env/exact';
import { buildTree } from '../src/core/env/tree';
import { makePolicy } from '../bench/baseline/policy';
import { makePrng } from '../bench/baseline/prng';
import { evaluate } from '../bench/baseline/run';
import { scalarEvaluate } from '../bench/scalar/evaluate';
import { runScalar, summaryLines } from '../bench/scalar/main';
import { runCpu } from './support/tensor';

// The scalar implementation the benchmark compares the CLI with (bench/scalar) must compute what
// the engine computes, or the speed ratio compares unlike programs: its plain-array evaluator is
// the engine's evaluator to rounding, and its final J agrees with the CPU executor's in
// distribution (its random streams are its own, so only the distribution can agree).

describe('bench/scalar', () => {
  it('the plain-array evaluator equals the engine evaluator on random tables (J, entropy, optimal-token probability)', () => {
    for (const [preset, scale] of [['lock', 1.5], ['two-prompts', 2], ['tokens', 0.7], ['needle', 3]] as const) {
      const exp = resolveConfig({ version: 1, env: { preset } });
      const tree = buildTree(exp.env);
      const opt = computeOptimum(exp.env, tree);
      for (let k = 0; k < 5; k++) {
        const policy = makePolicy(tree, exp.env.contexts, scale, makePrng(k, 99));
        const a = scalarEvaluate(exp.env, tree, opt, policy);
        const b = evaluate(exp, tree, opt, policy);
        expect(Math.abs(a.J - b.J), `${preset} J`).toBeLessThan(1e-12);
        expect(Math.abs(a.entropy - b.entropy), `${preset} entropy`).toBeLessThan(1e-12);
        a.optimalProb.forEach((p, t) => expect(Math.abs(p - b.optimalProb[t]), `${preset} optimalProb[${t}]`).toBeLessThan(1e-12));
        expect(a.J).toBeGreaterThan(0); // a random table is not a degenerate case
      }
    }
  });

  it('final J over 40 seeds agrees with the CPU executor within 4 standard errors (lock, sampled, three rules)', async () => {
    const config = { version: 1, env: { preset: 'lock' }, mode: 'sampled', seeds: 40, iterations: 60, groupSize: 8, algorithms: [{ id: 'reinforce' }, { id: 'grpo' }, { id: 'seeupo' }] };
    const scalar = runScalar(config);
    const engine = await runCpu(config);
    const stats = (xs: number[]) => {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
      return { m, se: Math.sqrt(v / xs.length) };
    };
    scalar.exp.algorithms.forEach((a, i) => {
      const s = stats(scalar.runs.filter((r) => r.algoIndex === i).map((r) => r.final));
      const e = stats(engine.algorithms[i].runs.map((r) => r.J[60]!));
      expect(Math.abs(s.m - e.m), `${a.id}: scalar ${s.m.toFixed(4)} ± ${s.se.toFixed(4)}, engine ${e.m.toFixed(4)} ± ${e.se.toFixed(4)}`).toBeLessThan(4 * Math.hypot(s.se, e.se) + 1e-3);
      expect(s.m - scalar.runs.find((r) => r.algoIndex === i)!.J0, `${a.id} learns`).toBeGreaterThan(0.02);
    });
    const lines = summaryLines(scalar);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^grpo +final J 0\.\d{4} ± 0\.\d{4} {2}at J\*: \d+\/40 {2}diverged: 0$/);
  }, 120_000);
});
