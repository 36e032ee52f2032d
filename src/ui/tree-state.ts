import type { Experiment } from '../core/config/resolve';
import { needsMonteCarlo } from '../core/config/monte-carlo';
import type { PolicyTreeView } from '../core/env/policy-tree';
import { EXECUTOR_NAMES, type RunExecutor } from '../core/run/choose';

// What the policy tree panel draws: which runs (one or two, side by side), in which context, and
// the trees the workers last sent for them. The workers send only the watched runs' trees
// (src/worker/session-host.ts, 'watch'), each bounded to the prefixes worth drawing: the CPU
// executor from its tables, the tensor executor from the log-probabilities it reads back every
// iteration (an MLP's at every prefix), the WebGPU executor from the logits it reads back with
// every dispatch (tables only).

/** Why no policy tree can be drawn for this experiment on `executor` (a sentence naming the executor), or null. */
export function treeUnavailable(exp: Pick<Experiment, 'policy' | 'env'>, executor: RunExecutor): string | null {
  if (exp.policy.kind !== 'mlp') return null;
  if (needsMonteCarlo(exp.env))
    return `No policy tree: this environment has too many sequences to enumerate, so the ${EXECUTOR_NAMES[executor]} executor samples them (J is a Monte-Carlo estimate) and no prefix has an exact value to draw.`;
  if (executor === 'webgpu')
    return 'No policy tree on the WebGPU executor for an MLP: the network stays on the GPU and only J and the metrics are read back, not π at every prefix. Run it on the tensor executor (executor: tensor) to see the tree.';
  return null;
}

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
