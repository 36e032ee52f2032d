import type { Experiment } from '../../core/config/experiment';
import { buildTree } from '../../core/env/tree';

// How many threads an experiment's runs are worth. A worker thread is not free: it starts a
// fresh JavaScript engine, loads the bundle (from its code cache) and runs its first iterations
// unoptimized (about 40 ms of a 1-iteration run on the 2-core machine the figures in
// docs/architecture.md come from; it is sent the resolved experiment, so it does not validate
// the config again). Splitting pays only when every thread's share of the work is
// well above that, so the work is estimated first and the split follows from it: a 1-iteration
// run stays on one thread, and so does the default experiment at 16 seeds (paired on the 2-core
// machine: 0.77–0.80 s on one thread against 0.93 s on two); at 64 seeds it uses two.

/** Estimated cost per work unit, in ms (the default sampled experiment: 407 units, about 7 µs per run-iteration on one thread, i.e. 17 ns a unit; 20 ns leaves room for the heavier presets). */
const MS_PER_UNIT = 20e-6;
/** The least estimated work (ms) a thread must get for one more thread to pay for its start. */
export const MIN_SHARE_MS = 150;

/**
 * Work units of one run-iteration: the evaluation walks every table entry (nodes · V, softmax and
 * the exact J); the update walks every sampled token's V logits once for the rollouts and the
 * gradient, and again for each epoch (PPU and sequential rules).
 */
export function unitsPerRunIteration(exp: Pick<Experiment, 'env' | 'mode' | 'groupSize' | 'algorithms'>): number {
  const tree = buildTree(exp.env);
  const contexts = exp.env.contexts;
  const table = contexts * tree.nodesPerContext * tree.V;
  const rollouts = exp.mode === 'exact' ? contexts * tree.sequences : exp.env.contextsPerBatch * exp.groupSize;
  let passes = 0;
  for (const a of exp.algorithms) passes += 2 + (a.rule === 'reinforce' ? 0 : a.epochs);
  passes /= Math.max(1, exp.algorithms.length);
  return table + rollouts * tree.N * tree.V * passes;
}

/** Estimated single-thread time (ms) of every run of the experiment. */
export function estimateWorkMs(exp: Pick<Experiment, 'env' | 'mode' | 'groupSize' | 'algorithms' | 'seedIndices' | 'iterations'>): number {
  const runs = exp.algorithms.length * exp.seedIndices.length;
  return runs * exp.iterations * unitsPerRunIteration(exp) * MS_PER_UNIT;
}

/**
 * Threads to split `workMs` of estimated work over, at most `available`: one more thread only
 * while each still gets at least MIN_SHARE_MS (never more threads than runs).
 */
export function threadsForWork(workMs: number, available: number, runs: number): number {
  const worth = Math.floor(workMs / MIN_SHARE_MS);
  return Math.max(1, Math.min(available, runs, worth));
}

/** Estimated single-thread time (ms) of `runs` of the experiment's runs (a batch's share of them). */
export function estimateRunsWorkMs(exp: Parameters<typeof estimateWorkMs>[0], runs: number): number {
  return (estimateWorkMs(exp) * runs) / Math.max(1, exp.algorithms.length * exp.seedIndices.length);
}
