// Outcome advantages and their normalizations (docs/math.md "Advantages"), float64, verl conventions:
// unbiased (Bessel) standard deviations and ε = 1e-6.

export type { Estimator, Normalization } from '../options';
import type { Estimator, Normalization } from '../options';

export const NORM_EPS = 1e-6;

export interface GroupScratch {
  sum: Float64Array;
  sumSq: Float64Array;
  count: Int32Array;
}

export function makeGroupScratch(groups: number): GroupScratch {
  return { sum: new Float64Array(groups), sumSq: new Float64Array(groups), count: new Int32Array(groups) };
}

/**
 * Group-relative advantages of n rollouts: `grae` Â_i = R_i − mean of its group, `rloo`
 * Â_i = R_i − mean of the other members. `group` divides by the group's unbiased std + ε;
 * `batch` standardizes over all rollouts (each counted once). Writes `out`; allocates nothing.
 * Every group must have at least 2 members (the caller validates).
 */
export function groupAdvantages(
  rewards: ArrayLike<number>,
  group: ArrayLike<number>,
  n: number,
  estimator: 'grae' | 'rloo',
  normalization: Normalization,
  out: Float64Array,
  s: GroupScratch,
): void {
  // loops, not fill(): a typed array's fill is a call into the runtime, three per iteration
  for (let g = 0; g < s.sum.length; g++) {
    s.sum[g] = 0;
    s.sumSq[g] = 0;
    s.count[g] = 0;
  }
  for (let i = 0; i < n; i++) {
    const g = group[i];
    s.sum[g] += rewards[i];
    s.count[g] += 1;
  }
  for (let i = 0; i < n; i++) {
    const g = group[i];
    const c = s.count[g];
    const mean = s.sum[g] / c;
    const d = rewards[i] - mean;
    s.sumSq[g] += d * d; // two-pass variance: exact for equal rewards
    out[i] = estimator === 'grae' ? d : rewards[i] - (s.sum[g] - rewards[i]) / (c - 1);
  }
  if (normalization === 'group') {
    for (let i = 0; i < n; i++) {
      const g = group[i];
      out[i] /= Math.sqrt(s.sumSq[g] / (s.count[g] - 1)) + NORM_EPS;
    }
  } else if (normalization === 'batch') {
    standardize(out, n);
  }
}

/**
 * Unbiased std over the batch of the un-normalized advantages that groupAdvantages just
 * computed from the same rewards (reads its scratch): grae R_i − group mean, rloo R_i − mean
 * of the others. With per-turn rewards this is the `batch` scale s of every turn (docs/math.md
 * §3); it is the σ that `standardize` divides by in groupAdvantages' `batch`. Allocates nothing.
 */
export function advantageStd(rewards: ArrayLike<number>, group: ArrayLike<number>, n: number, estimator: 'grae' | 'rloo', s: GroupScratch): number {
  let mu = 0;
  for (let i = 0; i < n; i++) mu += rawAdvantage(rewards, group, i, estimator, s);
  mu /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = rawAdvantage(rewards, group, i, estimator, s) - mu;
    ss += d * d;
  }
  return n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
}

function rawAdvantage(rewards: ArrayLike<number>, group: ArrayLike<number>, i: number, estimator: 'grae' | 'rloo', s: GroupScratch): number {
  const g = group[i];
  const c = s.count[g];
  return estimator === 'grae' ? rewards[i] - s.sum[g] / c : rewards[i] - (s.sum[g] - rewards[i]) / (c - 1);
}

/** (a − μ) / (σ + ε) over the first n entries, σ unbiased; returns σ. */
export function standardize(a: Float64Array, n: number): number {
  let mu = 0;
  for (let i = 0; i < n; i++) mu += a[i];
  mu /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (a[i] - mu) * (a[i] - mu);
  const sd = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
  for (let i = 0; i < n; i++) a[i] = (a[i] - mu) / (sd + NORM_EPS);
  return sd;
}

/** Convenience form for the CLI and tests: arbitrary group labels, fresh output. */
export function computeAdvantages(
  rewards: number[],
  groups: (string | number)[],
  estimator: 'grae' | 'rloo',
  normalization: Normalization,
): number[] {
  // a label is its JSON value: 0 and "0" are two groups (a Map keeps them apart)
  const ids = new Map<string | number, number>();
  const group = new Int32Array(groups.length);
  groups.forEach((g, i) => {
    if (!ids.has(g)) ids.set(g, ids.size);
    group[i] = ids.get(g)!;
  });
  const out = new Float64Array(rewards.length);
  groupAdvantages(rewards, group, rewards.length, estimator, normalization, out, makeGroupScratch(ids.size));
  return Array.from(out);
}

/** Sizes of the groups a label list forms (for validation). */
export function groupSizes(groups: (string | number)[]): Map<string | number, number> {
  const m = new Map<string | number, number>();
  for (const g of groups) m.set(g, (m.get(g) ?? 0) + 1);
  return m;
}
