import { describe, expect, it } from 'vitest';
import { computeAdvantages } from '../src/core/algo/advantages';
import { resolveConfig } from '../src/core/config/resolve';
import { buildTree, decodeSequence } from '../src/core/env/tree';
import { outcomeAdvantages, tokenAdvantages } from '../bench/baseline/advantage';
import { logProb, makePolicy, nodeId } from '../bench/baseline/policy';
import { makePrng } from '../bench/baseline/prng';
import type { Rollout } from '../bench/baseline/rollout';
import { runBaseline } from '../bench/baseline/run';
import { makeOptimizer, policyGradient, ppuUpdate, reinforceUpdate, sequentialUpdate, type UpdateInput } from '../bench/baseline/update';
import { customConfig, maxAbsDiff, shardFor } from './support/engine';
import { runCpu } from './support/tensor';

// The benchmark's baseline (bench/baseline) must implement the same algorithms as the CPU
// executor, or the speed comparison compares unlike things. Two checks: (a) on a batch holding
// every token sequence once under the uniform policy, a sampled-mode step is exactly the
// engine's exact-mode step (same weights 1/S, same group mean V_old), so the baseline's first
// iteration must land on the engine's parameters; (b) over many seeds, final J agrees in distribution.

/** Every token sequence of a one-context custom env once, as sampled rollouts of one group. */
function enumerationBatch(exp: ReturnType<typeof resolveConfig>) {
  const tree = buildTree(exp.env);
  const policy = makePolicy(tree, 1, 0, makePrng(0));
  const batch: Rollout[] = [];
  for (let s = 0; s < tree.sequences; s++) {
    const tokens = Array.from(decodeSequence(tree, s));
    const nodes: number[] = [];
    let q = 0;
    tokens.forEach((a, k) => {
      nodes.push(nodeId(tree, 0, k, q));
      q = q * tree.V + a;
    });
    const logpOld = tokens.map((a, k) => logProb(policy.logits[nodes[k]], a));
    batch.push({ ctx: 0, group: 0, tokens, nodes, logpOld, reward: exp.env.rewards[0][s] });
  }
  return { tree, policy, batch };
}

function baselineFirstStep(config: unknown): number[] {
  const exp = resolveConfig(config);
  const { tree, policy, batch } = enumerationBatch(exp);
  const algo = exp.algorithms[0];
  const adv = outcomeAdvantages(batch, 'grae', algo.normalization);
  const advTok = tokenAdvantages(adv, tree, exp.env.gamma);
  const u: UpdateInput = {
    policy,
    optimizer: makeOptimizer(exp.optimizer.kind, tree),
    algo,
    lr: exp.optimizer.lr,
    clip: algo.clip,
    batch,
    adv,
    advTok,
    rng: makePrng(1),
    count: { clipped: 0, total: 0 },
  };
  if (algo.rule === 'reinforce') reinforceUpdate(u, policyGradient(policy, batch, advTok));
  else if (algo.rule === 'ppu') ppuUpdate(u);
  else sequentialUpdate(u);
  return policy.logits.flat();
}

function engineFirstStep(config: unknown): number[] {
  const shard = shardFor(config);
  shard.step();
  return Array.from(shard.runs[0].theta);
}

const small = { T: 2, V: 2, L: 1, rewards: [1, 0, 0, 0.5] };
const tokens = { T: 2, V: 2, L: 2, rewards: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0.4, 0.4, 0.4, 0.4], gamma: 0.9 };

describe('baseline: one step on the full enumeration equals the engine in exact mode', () => {
  it('REINFORCE/grae/none: the gradient by hand (T=2, V=2, R̄ = 1, 0, 0, 0.5)', () => {
    // Â = R − 0.375 = [0.625, −0.375, −0.375, 0.125], each rollout weighs 1/4, ∇log π = e_a − π.
    const exp = resolveConfig(customConfig({ ...small, algorithms: [{ id: 'reinforce' }] }));
    const { tree, policy, batch } = enumerationBatch(exp);
    const advTok = tokenAdvantages(outcomeAdvantages(batch, 'grae', 'none'), tree, 1);
    const g = policyGradient(policy, batch, advTok).flat();
    expect(maxAbsDiff(g, [0.0625, -0.0625, 0.125, -0.125, -0.0625, 0.0625])).toBeLessThan(1e-15);
    expect(maxAbsDiff(g, engineFirstStep(customConfig({ ...small, algorithms: [{ id: 'reinforce' }] })))).toBeLessThan(1e-15);
  });

  const cases: [string, Record<string, unknown>][] = [
    ['reinforce', { id: 'reinforce' }],
    ['ppo-grae (4 epochs, clip 0.2)', { id: 'ppo-grae' }],
    ['gspo, none', { id: 'a', preset: 'gspo', normalization: 'none' }],
    ['seeupo, none', { id: 'a', preset: 'seeupo', normalization: 'none' }],
    ['seeupo-forward, none, mClip 0.1', { id: 'a', preset: 'seeupo-forward', normalization: 'none', mClip: 0.1 }],
    ['seeupo geomean, none, no M', { id: 'a', preset: 'seeupo', normalization: 'none', turnRatio: 'geomean', mCorrection: false }],
    ['seeupo geomean, none', { id: 'a', preset: 'seeupo', normalization: 'none', turnRatio: 'geomean' }],
  ];
  for (const [envName, env] of [['T=2 V=2 L=1', small], ['tokens T=2 V=2 L=2 γ=0.9', tokens]] as const)
    for (const optimizer of ['sgd', 'adam'] as const)
      for (const [name, algo] of cases)
        it(`${name}, ${optimizer}, ${envName}`, () => {
          const config = customConfig({ ...env, algorithms: [algo], lr: optimizer === 'sgd' ? 2 : 0.1, optimizer });
          const engine = engineFirstStep(config);
          expect(maxAbsDiff(engine, new Array(engine.length).fill(0))).toBeGreaterThan(1e-3); // it moved
          expect(maxAbsDiff(baselineFirstStep(config), engine)).toBeLessThan(1e-12);
        });

  it('advantages and normalizations equal the core ones (unbiased std, ε = 1e-6)', () => {
    const rng = makePrng(7);
    const batch = Array.from({ length: 12 }, (_, i) => ({ ctx: 0, group: i % 3, tokens: [], nodes: [], logpOld: [], reward: Math.round(rng.uniform() * 4) / 4 }));
    for (const est of ['grae', 'rloo'] as const)
      for (const norm of ['none', 'group', 'batch'] as const) {
        const core = computeAdvantages(batch.map((r) => r.reward), batch.map((r) => r.group), est, norm);
        expect(maxAbsDiff(outcomeAdvantages(batch, est, norm), core)).toBeLessThan(1e-12);
      }
  });
});

describe('baseline: final J over 32 seeds agrees with the CPU executor (within 4 standard errors)', () => {
  const stats = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
    return { m, se: Math.sqrt(v / xs.length) };
  };
  const experiments: [string, Record<string, unknown>][] = [
    ['lock, the nine named algorithms', { env: { preset: 'lock' }, algorithms: ['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo', 'ppo-gae', 'seeupo', 'seeupo-forward', 'seeupo-random'].map((id) => ({ id })) }],
    ['two-prompts (noisy context), group vs batch', { env: { preset: 'two-prompts' }, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }, { id: 'ppo-gae' }, { id: 'rloo' }] }],
    [
      'tokens, Adam, minibatches, geomean, mClip',
      {
        env: { preset: 'tokens', gamma: 0.9 },
        optimizer: { kind: 'adam', lr: 0.05 },
        algorithms: [
          { id: 'ppo-mb', preset: 'ppo-grae', minibatches: 2 },
          { id: 'gspo' },
          { id: 'seeupo-geo', preset: 'seeupo', turnRatio: 'geomean', mClip: 0.2 },
          { id: 'seeupo-random' },
          { id: 'ppo-gae' },
        ],
      },
    ],
  ];
  for (const [name, cfg] of experiments)
    it(name, async () => {
      const config = { version: 1, mode: 'sampled', seeds: 32, iterations: 60, groupSize: 8, ...cfg };
      const exp = resolveConfig(config);
      const baseline = runBaseline(exp);
      const engine = await runCpu(config);
      exp.algorithms.forEach((a, i) => {
        const b = stats(baseline.filter((s) => s.algoIndex === i).map((s) => s.J[exp.iterations]));
        const e = stats(engine.algorithms[i].runs.map((r) => r.J[exp.iterations]!));
        const tol = 4 * Math.hypot(b.se, e.se) + 1e-3;
        expect(Math.abs(b.m - e.m), `${a.id}: baseline ${b.m.toFixed(4)} ± ${b.se.toFixed(4)}, engine ${e.m.toFixed(4)} ± ${e.se.toFixed(4)}`).toBeLessThan(tol);
        expect(e.m - engine.algorithms[i].runs[0].J[0]!, `${a.id} learns`).toBeGreaterThan(0.02);
      });
      // the per-iteration metrics are recorded for every run and iteration
      for (const s of baseline) for (const m of [s.kl, s.clipFraction, s.zeroVarianceGroups, s.gradNorm]) expect(m.length).toBe(exp.iterations);
    });
});
