import type { Experiment } from '../config/experiment';

export interface RunSpec {
  algoIndex: number;
  seedIndex: number;
  /**
   * The algorithm position its random streams are keyed by, when not algoIndex: a sweep batch
   * (core/sweep/batch.ts) runs cells × algorithms side by side, each run keyed as in its own cell.
   */
  streamIndex?: number;
}

type RunsOf = Pick<Experiment, 'algorithms' | 'seedIndices'>;

/**
 * Every (algorithm, seed) run of an experiment, algorithm-major: the seed indices it runs
 * (exp.seedIndices: 0..seeds−1, or the subset `seedIndices` replays), in increasing order.
 */
export function allRuns(exp: RunsOf): RunSpec[] {
  const out: RunSpec[] = [];
  for (let a = 0; a < exp.algorithms.length; a++) for (const s of exp.seedIndices) out.push({ algoIndex: a, seedIndex: s });
  return out;
}

/** Runs per algorithm: the number of seed indices that run. */
export const seedsRun = (exp: Pick<Experiment, 'seedIndices'>): number => exp.seedIndices.length;

/** Position of a seed index among those that run (−1: it does not run). */
export function seedPosition(exp: Pick<Experiment, 'seedIndices' | 'seeds'>, seedIndex: number): number {
  const list = exp.seedIndices;
  // the full range (the usual case) is its own position
  if (list.length === exp.seeds) return seedIndex >= 0 && seedIndex < exp.seeds ? seedIndex : -1;
  return list.indexOf(seedIndex);
}

/**
 * Index of run (algorithm, seed index) in allRuns' order: algoIndex · seedsRun + the seed's
 * position in exp.seedIndices (= algoIndex · seeds + seedIndex when every seed runs); −1 when
 * that seed does not run.
 */
export function runSlot(exp: RunsOf & Pick<Experiment, 'seeds'>, algoIndex: number, seedIndex: number): number {
  const p = seedPosition(exp, seedIndex);
  return p < 0 ? -1 : algoIndex * exp.seedIndices.length + p;
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
