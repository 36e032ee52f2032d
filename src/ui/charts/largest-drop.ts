import { isPG } from '../../core/claims/groups';
import { violations } from '../../core/metrics/summary';
import { runsPerAlgorithm, type Live } from '../live';
import type { Plan } from '../plan';
import { dropTolerance } from './drops';

// Drops of J (monotonic-improvement violations, docs/claims.md "Claim 2"), per seed: what the seed
// charts mark, and the seed with the largest drop that "show the seed with the largest drop" selects.
// A drop at k is J_{k−1} − J_k beyond the tolerance, as the claims' evidence counts it.

export interface SeedDrop {
  algoIndex: number;
  seedIndex: number;
  /** The iteration J fell at (J_k < J_{k−1}). */
  iteration: number;
  /** J_{k−1} − J_k. */
  drop: number;
  /** J_{k−1} and J_k. */
  before: number;
  after: number;
}

/** Every drop of one run up to iteration `upTo`. */
export function runDrops(plan: Plan, live: Live, algoIndex: number, position: number, upTo: number): SeedDrop[] {
  const tol = dropTolerance(plan);
  const run = live.runs[algoIndex * runsPerAlgorithm(plan.exp) + position];
  if (!run || !Number.isFinite(tol) || upTo < 1) return [];
  const J = run.J.subarray(0, upTo + 1);
  return violations(J, tol).map((k) => ({ algoIndex, seedIndex: run.seedIndex, iteration: k, drop: J[k - 1] - J[k], before: J[k - 1], after: J[k] }));
}

/**
 * The largest drop among the algorithms claim 2 is about (PPO with a group-relative advantage:
 * PPO+GRAE, GRPO, GSPO), or among every algorithm when none of them runs; null without drops.
 */
export function largestDrop(plan: Plan, live: Live | null): SeedDrop | null {
  if (!live || live.iteration < 1) return null;
  const pg = plan.exp.algorithms.map((a, i) => (isPG(a) ? i : -1)).filter((i) => i >= 0);
  const scope = pg.length ? pg : plan.exp.algorithms.map((_, i) => i);
  let best: SeedDrop | null = null;
  for (const a of scope)
    for (let p = 0; p < runsPerAlgorithm(plan.exp); p++)
      for (const d of runDrops(plan, live, a, p, live.iteration)) if (!best || d.drop > best.drop) best = d;
  return best;
}
