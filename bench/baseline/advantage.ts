// Advantages (docs/math.md "Advantages"): grae / rloo per rollout with none / group / batch
// normalization (unbiased std, ε = 1e-6), the turn discount per token, and GAE with a tabular critic.

import type { Tree } from '../../src/core/env/tree';
import type { Rollout } from './rollout';

const EPS = 1e-6;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sampleStd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, v) => s + (v - m) * (v - m), 0) / (xs.length - 1));
};

function groupsOf(batch: Rollout[]): number[][] {
  const groups: number[][] = [];
  batch.forEach((r, i) => (groups[r.group] ??= []).push(i));
  return groups;
}

/** Fraction of groups whose rewards are all equal. */
export function zeroVarianceGroups(batch: Rollout[]): number {
  const groups = groupsOf(batch);
  return groups.filter((g) => g.every((i) => batch[i].reward === batch[g[0]].reward)).length / groups.length;
}

/** Â_i per rollout. */
export function outcomeAdvantages(batch: Rollout[], estimator: 'grae' | 'rloo', normalization: 'none' | 'group' | 'batch'): number[] {
  const adv = new Array<number>(batch.length).fill(0);
  for (const g of groupsOf(batch)) {
    const rewards = g.map((i) => batch[i].reward);
    const sum = rewards.reduce((a, b) => a + b, 0);
    const sd = sampleStd(rewards);
    g.forEach((i, j) => {
      const a = estimator === 'grae' ? rewards[j] - sum / g.length : rewards[j] - (sum - rewards[j]) / (g.length - 1);
      adv[i] = normalization === 'group' ? a / (sd + EPS) : a;
    });
  }
  if (normalization === 'batch') return standardized(adv);
  return adv;
}

export function standardized(xs: number[]): number[] {
  const m = mean(xs);
  const sd = xs.length > 1 ? sampleStd(xs) : 0;
  return xs.map((v) => (v - m) / (sd + EPS));
}

/** The advantage fed to token k of rollout i: γ^(T−t) · Â_i, t the token's turn (1-based). */
export function tokenAdvantages(adv: number[], tree: Tree, gamma: number): number[][] {
  return adv.map((a) => {
    const row: number[] = [];
    for (let k = 0; k < tree.N; k++) row.push(Math.pow(gamma, tree.T - 1 - Math.floor(k / tree.L)) * a);
    return row;
  });
}

/**
 * GAE from a tabular critic (reward at the last token; γ between turns, 1 within a turn), and
 * the λ-returns the critic regresses to. `group` divides by the group's reward std; `batch`
 * standardizes over every token of the batch.
 */
export function gaeAdvantages(
  batch: Rollout[],
  critic: number[],
  tree: Tree,
  gamma: number,
  lambda: number,
  normalization: 'none' | 'group' | 'batch',
): { advTok: number[][]; targets: number[][] } {
  const step = (k: number) => ((k + 1) % tree.L === 0 ? gamma : 1);
  const advTok: number[][] = [];
  const targets: number[][] = [];
  for (const r of batch) {
    const adv = new Array<number>(tree.N).fill(0);
    const target = new Array<number>(tree.N).fill(0);
    let acc = 0;
    for (let k = tree.N - 1; k >= 0; k--) {
      const v = critic[r.nodes[k]];
      const last = k === tree.N - 1;
      const delta = last ? r.reward - v : step(k) * critic[r.nodes[k + 1]] - v;
      acc = last ? delta : delta + step(k) * lambda * acc;
      adv[k] = acc;
      target[k] = acc + v;
    }
    advTok.push(adv);
    targets.push(target);
  }
  if (normalization === 'group') {
    const sds = groupsOf(batch).map((g) => sampleStd(g.map((i) => batch[i].reward)));
    return { advTok: advTok.map((a, i) => a.map((v) => v / (sds[batch[i].group] + EPS))), targets };
  }
  if (normalization === 'batch') {
    const flat = standardized(advTok.flat());
    return { advTok: advTok.map((_, i) => flat.slice(i * tree.N, (i + 1) * tree.N)), targets };
  }
  return { advTok, targets };
}

/** One SGD step of the critic on ½ · mean over rollouts of Σ_tokens (V − target)². */
export function criticStep(critic: number[], batch: Rollout[], targets: number[][], lr: number): void {
  const grad = new Map<number, number>();
  batch.forEach((r, i) =>
    r.nodes.forEach((n, k) => grad.set(n, (grad.get(n) ?? 0) + (critic[n] - targets[i][k]) / batch.length)),
  );
  for (const [n, g] of grad) critic[n] -= lr * g;
}
