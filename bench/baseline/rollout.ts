// Sampling a batch (docs/math.md "One iteration"): B contexts, G rollouts each, token by token from π_old.

import type { Env } from '../../src/core/env/types';
import type { Tree } from '../../src/core/env/tree';
import { logProb, nodeId, range, softmax, type TabularPolicy } from './policy';
import { shuffled, type Prng } from './prng';

export interface Rollout {
  ctx: number;
  group: number; // index of its group in the batch
  tokens: number[];
  nodes: number[];
  logpOld: number[];
  reward: number; // with noise
}

export function sampleToken(probs: number[], rng: Prng): number {
  const u = rng.uniform();
  let cum = 0;
  for (let a = 0; a < probs.length - 1; a++) {
    cum += probs[a];
    if (u < cum) return a;
  }
  return probs.length - 1;
}

export function sampleRollout(env: Env, tree: Tree, policy: TabularPolicy, x: number, group: number, rng: Prng): Rollout {
  const tokens: number[] = [];
  const nodes: number[] = [];
  const logpOld: number[] = [];
  let prefix = 0;
  for (let k = 0; k < tree.N; k++) {
    const node = nodeId(tree, x, k, prefix);
    const a = sampleToken(softmax(policy.logits[node]), rng);
    tokens.push(a);
    nodes.push(node);
    logpOld.push(logProb(policy.logits[node], a));
    prefix = prefix * tree.V + a;
  }
  const mean = env.rewards[x][prefix];
  const noise = env.noise[x];
  let reward = mean;
  if (noise.kind === 'gaussian') reward = mean + noise.sigma * rng.normal();
  else if (noise.kind === 'bernoulli') reward = rng.uniform() < mean ? 1 : 0;
  return { ctx: x, group, tokens, nodes, logpOld, reward };
}

/** B distinct contexts (all of them when B = contexts), G rollouts each. */
export function sampleBatch(env: Env, tree: Tree, policy: TabularPolicy, G: number, rng: Prng): Rollout[] {
  const all = range(env.contexts);
  const contexts = env.contextsPerBatch < env.contexts ? shuffled(all, rng).slice(0, env.contextsPerBatch) : all;
  const batch: Rollout[] = [];
  contexts.forEach((x, g) => {
    for (let j = 0; j < G; j++) batch.push(sampleRollout(env, tree, policy, x, g, rng));
  });
  return batch;
}
