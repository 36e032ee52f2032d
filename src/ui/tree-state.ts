import type { Experiment } from '../core/config/resolve';
import type { PolicyTreeView } from '../core/env/policy-tree';

// What the policy tree panel draws: which runs (one or two, side by side), in which context, and
// the trees the workers last sent for them. The workers send only the watched runs' trees
// (src/worker/session-host.ts, 'watch'), each bounded to the prefixes worth drawing.

/** [algorithm index, seed index] of a run whose tree is drawn. */
export type TreeRun = [number, number];

/**
 * The runs drawn by default: SeeUPO (reverse order) beside GRPO when the experiment has both —
 * backward induction against updating every turn at once — else its first two algorithms; the
 * first seed that runs.
 */
export function defaultTreeRuns(exp: Pick<Experiment, 'algorithms' | 'seedIndices'>): TreeRun[] {
  const seed = exp.seedIndices[0] ?? 0;
  const algos = exp.algorithms;
  const seeupo = algos.findIndex((a) => a.rule === 'sequential' && a.order === 'reverse');
  const grpo = algos.findIndex((a) => a.id === 'grpo');
  const picks = seeupo >= 0 && grpo >= 0 ? [seeupo, grpo] : algos.slice(0, 2).map((_, i) => i);
  return picks.map((a) => [a, seed]);
}

/** The runs to draw: the chosen ones while they exist in the experiment, else the default. */
export function treeRunsOf(exp: Pick<Experiment, 'algorithms' | 'seedIndices'>, chosen: readonly TreeRun[] | null): TreeRun[] {
  const valid = chosen?.filter(([a, s]) => a < exp.algorithms.length && exp.seedIndices.includes(s)) ?? [];
  return valid.length ? valid.slice(0, 2) : defaultTreeRuns(exp);
}

/** The trees held, with the newest of each run replacing its older one. */
export function mergeTrees(held: readonly PolicyTreeView[], incoming: readonly PolicyTreeView[]): PolicyTreeView[] {
  const key = (t: PolicyTreeView) => `${t.algoIndex}:${t.seedIndex}`;
  const map = new Map(held.map((t) => [key(t), t]));
  for (const t of incoming) map.set(key(t), t);
  return [...map.values()];
}
