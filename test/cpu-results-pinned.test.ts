import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { CpuShard } from '../src/exec/cpu/shard';

// The CPU executor's numbers, pinned bit for bit: a SHA-256 of every stored value of every run
// (J, entropy, optimal-token probabilities, KL, clip fraction, zero-variance groups, gradient
// norm, per-context J, J_γ; wall times excluded) for configs that cover sampled and exact mode,
// every rule, GAE, a shared table, scheduled changes, a diverging run, per-turn rewards, Adam with
// minibatches, and noise. The digests were computed by the executor before it kept π_old and each
// run's evaluation tables between steps (docs/architecture.md, "Runs"): reusing a number is
// allowed only when it is the number a recomputation gives, so they must not move.

const nine = ['reinforce', 'rloo', 'grpo', 'ppo-grae', 'gspo', 'ppo-gae', 'seeupo', 'seeupo-forward', 'seeupo-random'].map((id) => ({ id }));
const turnEnv = { turns: 2, vocab: 3, tokensPerTurn: 1, contexts: 2, rewards: [[1, 0, 0, 0, 0.5, 0, 0, 0, 0.2], [0, 0, 1, 0, 0, 0, 0.3, 0, 0]], turnRewards: [[[0.1, 0, 0.2]], [[0, 0.3, 0]]], gamma: 0.9 };
const PINNED: Record<string, Record<string, unknown>> = {
  'lock, sampled, the nine': { version: 1, env: { preset: 'lock' }, seeds: 2, iterations: 60, algorithms: nine },
  'tokens γ 0.9, Adam, minibatches, geomean, mClip': { version: 1, env: { preset: 'tokens', gamma: 0.9 }, optimizer: { kind: 'adam', lr: 0.05 }, seeds: 2, iterations: 40, algorithms: [{ id: 'ppo-mb', preset: 'ppo-grae', minibatches: 2 }, { id: 'gspo' }, { id: 'seeupo-geo', preset: 'seeupo', turnRatio: 'geomean', mClip: 0.2 }, { id: 'seeupo-random' }, { id: 'ppo-gae' }] },
  'two-prompts, shareContexts': { version: 1, env: { preset: 'two-prompts' }, policy: { kind: 'tabular', shareContexts: true, initScale: 0.5 }, seeds: 2, iterations: 40, algorithms: nine },
  'lock, exact': { version: 1, env: { preset: 'lock' }, mode: 'exact', seeds: 1, iterations: 40, algorithms: nine },
  'lock, changes to lr and clip, a critic that diverges': { version: 1, env: { preset: 'lock' }, seeds: 2, iterations: 60, algorithms: [...nine, { id: 'hot-critic', preset: 'ppo-gae', criticLr: 100 }], changes: [{ at: 10, path: 'optimizer.lr', value: 1.5 }, { at: 20, path: 'algorithms[2].clip', value: 0.05 }, { at: 40, path: 'optimizer.lr', value: 50 }] },
  'per-turn rewards, sampled': { version: 1, env: turnEnv, seeds: 2, iterations: 40, groupSize: 6, algorithms: nine },
  'per-turn rewards, exact': { version: 1, env: turnEnv, mode: 'exact', seeds: 1, iterations: 30, algorithms: nine },
  'needle, gaussian noise, initScale 1': { version: 1, env: { preset: 'needle', noise: { kind: 'gaussian', sigma: 0.3 } }, policy: { kind: 'tabular', initScale: 1 }, seeds: 2, iterations: 40, groupSize: 16, algorithms: nine },
  // computed by the executor before its probability-ratio caches and its reuse of an exact-mode
  // evaluation's tables (host/ratio-cache.ts, cpu/eval-cache.ts): grouped ratios keyed by a term's
  // last token, several tokens a turn, a shared table and scheduled changes, in exact mode too
  'tokens (2 tokens a turn), exact, Adam, minibatches, geomean, mClip': { version: 1, env: { preset: 'tokens', gamma: 0.9 }, mode: 'exact', optimizer: { kind: 'adam', lr: 0.05 }, seeds: 1, iterations: 30, algorithms: [{ id: 'ppo-mb', preset: 'ppo-grae', minibatches: 2 }, { id: 'gspo' }, { id: 'seeupo-geo', preset: 'seeupo', turnRatio: 'geomean', mClip: 0.2 }, { id: 'seeupo-random' }, { id: 'ppo-gae' }, { id: 'rloo' }] },
  'two-prompts, shareContexts, exact': { version: 1, env: { preset: 'two-prompts' }, policy: { kind: 'tabular', shareContexts: true, initScale: 0.5 }, mode: 'exact', seeds: 2, iterations: 30, algorithms: nine },
  'lock, exact, initScale 2, changes to lr (up to 1000) and clip': { version: 1, env: { preset: 'lock' }, mode: 'exact', policy: { kind: 'tabular', initScale: 2 }, seeds: 2, iterations: 40, algorithms: [...nine, { id: 'hot-critic', preset: 'ppo-gae', criticLr: 100 }], changes: [{ at: 5, path: 'optimizer.lr', value: 30 }, { at: 12, path: 'algorithms[2].clip', value: 0.05 }, { at: 25, path: 'optimizer.lr', value: 1000 }] },
  'tokens, sampled, 8 epochs of 4 minibatches': { version: 1, env: { preset: 'tokens' }, seeds: 2, iterations: 40, groupSize: 8, algorithms: [{ id: 'gspo', epochs: 8, minibatches: 4 }, { id: 'seeupo', epochs: 8, minibatches: 4 }, { id: 'grpo', epochs: 8, minibatches: 4 }] },
};

const EXPECTED: Record<string, { digest: string; diverged: number }> = {
  "lock, sampled, the nine": { digest: '4536bbf8e4b7d765', diverged: 0 },
  "tokens γ 0.9, Adam, minibatches, geomean, mClip": { digest: 'bb8cc30526f43a85', diverged: 0 },
  "two-prompts, shareContexts": { digest: 'cb91416d2acdb0a1', diverged: 0 },
  "lock, exact": { digest: 'd7a73424859a9546', diverged: 0 },
  "lock, changes to lr and clip, a critic that diverges": { digest: '5c50d9d5cfed0be1', diverged: 2 },
  "per-turn rewards, sampled": { digest: '4ce7423d33af134e', diverged: 0 },
  "per-turn rewards, exact": { digest: 'a47b3b28210f421e', diverged: 0 },
  "needle, gaussian noise, initScale 1": { digest: '424137b7374ee3e1', diverged: 0 },
  "tokens (2 tokens a turn), exact, Adam, minibatches, geomean, mClip": { digest: 'e8851bcc138e7990', diverged: 0 },
  "two-prompts, shareContexts, exact": { digest: '3db458645db508c5', diverged: 0 },
  "lock, exact, initScale 2, changes to lr (up to 1000) and clip": { digest: 'bfd65091df47c24a', diverged: 0 },
  "tokens, sampled, 8 epochs of 4 minibatches": { digest: 'fa824c6c83972a80', diverged: 0 },
};

function digestOf(config: Record<string, unknown>): { digest: string; diverged: number } {
  const exp = resolveConfig(config);
  const shard = new CpuShard(exp, allRuns(exp));
  while (!shard.done) shard.step();
  const h = createHash('sha256');
  for (const s of shard.series) {
    h.update(JSON.stringify([s.algoIndex, s.seedIndex, s.diverged]));
    for (const a of [s.J, s.entropy, s.kl, s.clipFraction, s.zeroVarianceGroups, s.gradNorm, ...s.optimalTokenProb, ...s.Jcontext, ...(s.Jgamma ? [s.Jgamma] : [])]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  return { digest: h.digest('hex').slice(0, 16), diverged: shard.series.filter((s) => s.diverged !== null).length };
}

describe('CPU executor results are pinned bit for bit', () => {
  for (const [name, config] of Object.entries(PINNED)) it(name, () => expect(digestOf(config)).toEqual(EXPECTED[name]));
});
