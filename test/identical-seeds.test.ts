import { describe, expect, it } from 'vitest';
import { seedsIdentical } from '../src/core/metrics/identical';
import { captions, summarizeLive } from '../src/core/metrics/captions';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { CpuShard } from '../src/exec/cpu/shard';
import { computeOptimum } from '../src/core/env/exact';
import { buildTree } from '../src/core/env/tree';
import { planExperiment } from '../src/ui/plan';
import { returnSeries } from '../src/ui/charts/derive';

// When every seed gives the same curve (exact mode, uniform start) the page says
// "one curve", not "over 16 seeds" — decided from the data.

describe('seedsIdentical', () => {
  it('equal curves (NaN equal to NaN) are identical; one differing value is not; one curve is not "identical seeds"', () => {
    expect(seedsIdentical([[0.1, 0.2, NaN], [0.1, 0.2, NaN]], 2)).toBe(true);
    expect(seedsIdentical([[0.1, 0.2, 0.3], [0.1, 0.2, 0.30000000000000004]], 2)).toBe(false);
    expect(seedsIdentical([[0.1, 0.2, 0.3]], 2)).toBe(false);
    // only indices up to upTo count
    expect(seedsIdentical([[0.1, 0.2, 0.3], [0.1, 0.2, 0.9]], 1)).toBe(true);
  });

  it('long curves are compared at a stride that still includes the last index', () => {
    const a = Array.from({ length: 10_001 }, (_, k) => k / 10_000);
    const b = a.slice();
    b[10_000] = 2;
    expect(seedsIdentical([a, a.slice()], 10_000, 100)).toBe(true);
    expect(seedsIdentical([a, b], 10_000, 100)).toBe(false);
  });
});

function runAll(config: Record<string, unknown>) {
  const exp = resolveConfig(config);
  const shard = new CpuShard(exp, allRuns(exp));
  while (!shard.done) shard.step();
  return { exp, series: shard.series, Jstar: computeOptimum(exp.env, buildTree(exp.env)).Jstar };
}

describe('captions and the return chart with identical seeds', () => {
  const base = { version: 1, env: { preset: 'lock' }, mode: 'exact', seeds: 4, iterations: 12, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] };

  it('exact mode from a uniform start: the caption says the seeds are one curve, the chart title does not say "over 4 seeds"', () => {
    const { exp, series, Jstar } = runAll(base);
    const lines = captions({ exp, Jstar }, summarizeLive(exp, Jstar, series, exp.iterations));
    expect(lines[0]).toContain('(its 4 seeds are identical: one curve');
    const plan = planExperiment(base, 1);
    const chart = returnSeries(plan, { runs: series, iteration: exp.iterations, changes: [], startConfig: base }, 'iterations')!;
    expect(chart.identicalSeeds).toBe(true);
  });

  it('a random start (initScale 0.3) gives different seeds: no such note', () => {
    const config = { ...base, policy: { kind: 'tabular', initScale: 0.3 } };
    const { exp, series, Jstar } = runAll(config);
    const lines = captions({ exp, Jstar }, summarizeLive(exp, Jstar, series, exp.iterations));
    expect(lines.join(' ')).not.toContain('identical');
    const plan = planExperiment(config, 1);
    expect(returnSeries(plan, { runs: series, iteration: exp.iterations, changes: [], startConfig: config }, 'iterations')!.identicalSeeds).toBe(false);
  });
});
