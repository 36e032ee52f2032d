import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';

const cfg = {
  version: 1,
  env: { preset: 'two-prompts' },
  mode: 'sampled',
  iterations: 25,
  seeds: 3,
  seed: 7,
  algorithms: [{ id: 'grpo' }, { id: 'seeupo-random' }, { id: 'ppo-gae', minibatches: 2 }, { id: 'rloo' }],
};

const curves = (r: Awaited<ReturnType<typeof runOnCpu>>) => r.algorithms.map((a) => a.runs.map((run) => run.J));

describe('determinism (docs/math.md, randomness and reproducibility)', () => {
  it('the same seed gives the same sampled curves, on one shard or many', async () => {
    const exp = resolveConfig(cfg);
    const one = await runOnCpu(exp, cfg, { threads: 1, launch: inThisThread });
    const again = await runOnCpu(exp, cfg, { threads: 1, launch: inThisThread });
    const five = await runOnCpu(exp, cfg, { threads: 5, launch: inThisThread });
    expect(curves(again)).toEqual(curves(one));
    expect(curves(five)).toEqual(curves(one));
    expect(five.threads).toBe(5);
    // the metrics other than time agree too
    expect(five.algorithms[2].runs[1].kl).toEqual(one.algorithms[2].runs[1].kl);
    expect(five.algorithms[1].runs[2].clipFraction).toEqual(one.algorithms[1].runs[2].clipFraction);
  });

  it('another seed, or another seed index, gives another curve; init is shared by the algorithms of a seed index', async () => {
    const exp = resolveConfig(cfg);
    const a = await runOnCpu(exp, cfg, { threads: 1, launch: inThisThread });
    const other = { ...cfg, seed: 8 };
    const b = await runOnCpu(resolveConfig(other), other, { threads: 1, launch: inThisThread });
    expect(curves(b)).not.toEqual(curves(a));
    expect(a.algorithms[0].runs[0].J).not.toEqual(a.algorithms[0].runs[1].J);
    for (const alg of a.algorithms) expect(alg.runs[0].J[0]).toBe(a.algorithms[0].runs[0].J[0]);
  });

  it('random initial logits depend on (seed, seed index) only', async () => {
    const c = { ...cfg, policy: { kind: 'tabular', initScale: 1 }, iterations: 1 };
    const r = await runOnCpu(resolveConfig(c), c, { threads: 2, launch: inThisThread });
    const J0 = r.algorithms.map((a) => a.runs.map((run) => run.J[0]));
    for (const row of J0) expect(row).toEqual(J0[0]);
    expect(J0[0][0]).not.toBe(J0[0][1]);
  });
});
