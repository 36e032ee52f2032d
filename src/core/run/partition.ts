import type { Experiment } from '../config/resolve';

export interface RunSpec {
  algoIndex: number;
  seedIndex: number;
}

/** Every (algorithm, seed) run of an experiment, algorithm-major. */
export function allRuns(exp: Experiment): RunSpec[] {
  const out: RunSpec[] = [];
  for (let a = 0; a < exp.algorithms.length; a++) for (let s = 0; s < exp.seeds; s++) out.push({ algoIndex: a, seedIndex: s });
  return out;
}

/**
 * Deal the runs round-robin into `shards` lists (neighbouring runs cost alike, so this balances
 * the work). A run's numbers do not depend on its shard: its random streams are keyed by
 * (seed, seed index, algorithm position) alone.
 */
export function partitionRuns(runs: RunSpec[], shards: number): RunSpec[][] {
  const n = Math.max(1, Math.min(shards, runs.length));
  const out: RunSpec[][] = Array.from({ length: n }, () => []);
  runs.forEach((r, i) => out[i % n].push(r));
  return out;
}
