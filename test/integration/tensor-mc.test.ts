import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config/resolve';
import { runOnTensor } from '../../src/exec/tensor/run-experiment';
import { useBackend } from '../support/tensor';

// Monte-Carlo J for MLP policies past exact enumeration (docs/math.md "Environments: multi-turn bandits", "What is measured").

describe('Monte-Carlo J (MLP, sampled mode)', () => {
  beforeAll(() => useBackend('wasm'));

  it('on lock, forced Monte Carlo tracks the exact J within 4 standard errors at every iteration', async () => {
    const n = 4096;
    const config = {
      version: 1,
      env: { preset: 'lock' },
      policy: { kind: 'mlp', hidden: [16] },
      mode: 'sampled',
      iterations: 8,
      seeds: 2,
      mcSamples: n,
      algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'reinforce' }],
    };
    const exp = resolveConfig(config);
    const exact = await runOnTensor(exp, { backend: 'wasm', reason: 'test' });
    const mc = await runOnTensor(exp, { backend: 'wasm', reason: 'test', forceMonteCarlo: true });
    expect(exact.jIsEstimate).toBe(false);
    expect(mc.jIsEstimate).toBe(true);
    mc.algorithms.forEach((alg, i) =>
      alg.runs.forEach((run, s) => {
        const ref = exact.algorithms[i].runs[s];
        run.J.forEach((J, k) => {
          const Jx = ref.J[k] as number;
          const se = Math.sqrt(Math.max(Jx * (1 - Jx), 1e-4) / n); // rewards in [0, 1]
          expect(Math.abs((J as number) - Jx), `${alg.id} seed ${s} iteration ${k}`).toBeLessThan(4 * se);
          expect(Math.abs((run.entropy[k] as number) - (ref.entropy[k] as number))).toBeLessThan((4 * Math.log(3)) / Math.sqrt(n));
          for (let t = 0; t < 3; t++) expect(run.optimalTokenProb[t][k] as number).toBeCloseTo(ref.optimalTokenProb[t][k] as number, 4);
        });
        expect(run.violations).toEqual([]);
      }),
    );
  });

  it('lock with vocab 8 and 6 turns (262,144 sequences) runs with an estimated J', async () => {
    const config = {
      version: 1,
      env: { preset: 'lock', vocab: 8, turns: 6 },
      policy: { kind: 'mlp', hidden: [8] },
      mode: 'sampled',
      iterations: 2,
      seeds: 1,
      mcSamples: 256,
      algorithms: [{ id: 'seeupo' }, { id: 'grpo' }],
    };
    const res = await runOnTensor(resolveConfig(config), { backend: 'wasm', reason: 'test' });
    expect(res.jIsEstimate).toBe(true);
    expect(res.Jstar).toBe(1);
    for (const alg of res.algorithms) {
      expect(alg.runs[0].J.every((v) => typeof v === 'number' && v >= 0 && v <= 1)).toBe(true);
      expect(alg.runs[0].kl.every((v) => typeof v === 'number' && v >= 0)).toBe(true);
    }
  });

  it('past 65,536 sequences: tabular policies, exact mode and GAE are refused with the reason', () => {
    const env = { preset: 'lock', vocab: 8, turns: 6 };
    expect(() => resolveConfig({ version: 1, env })).toThrow(/^env: .*8\^6.*65,536.*Monte-Carlo/);
    expect(() => resolveConfig({ version: 1, env, policy: { kind: 'mlp' }, mode: 'exact' })).toThrow(/^env: .*65,536/);
    expect(() => resolveConfig({ version: 1, env, policy: { kind: 'mlp' }, algorithms: [{ id: 'ppo-gae' }] })).toThrow(/^algorithms\[0\]\.advantage: must be "grae" or "rloo"/);
    expect(() => resolveConfig({ version: 1, env: { turns: 8, vocab: 8, tokensPerTurn: 1, rewards: [[]] }, policy: { kind: 'mlp' } })).toThrow(/^env: .*1,048,576/);
  });
});
