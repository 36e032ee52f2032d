import type { RunSeries } from './series';

// What the page holds of a running experiment (shared by the page and its workers' client).
// Workers stream metric blocks into `runs` (mutable typed arrays, NaN where a run has not got
// yet); the page's store bumps a version at most once per animation frame, and charts derive
// what they draw from `runs` when it changes.

/** A learning rate or clip changed while the experiment ran ("hot" change). */
export interface HotChange {
  /** First iteration computed with the new value (every run applies it at the same iteration). */
  iteration: number;
  /** Config path: "optimizer.lr" or "algorithms[i].clip". */
  path: string;
  from: number;
  to: number;
  /** Part of the config (`changes`, e.g. from a link) rather than made while the run went. */
  scheduled?: boolean;
}

export interface Live {
  /**
   * One series per run, algorithm-major, in allRuns' order (core/run/partition.ts): the run of
   * algorithm a and the i-th seed index of exp.seedIndices is at a·runsPerAlgorithm(exp) + i
   * (= a·seeds + seed index when every seed runs, the usual case).
   */
  runs: RunSeries[];
  /** Iterations every run has completed (J[0..iteration] are set for every run that has not diverged); −1 before J[0] arrived. */
  iteration: number;
  changes: HotChange[];
  /** The config the run started from (the draft differs from it only by hot changes). */
  startConfig: Record<string, unknown>;
}

/** State of "Step one turn": the iteration being stepped and what each algorithm did in the latest turn step. */
export interface TurnStep {
  /** The iteration being performed (0-based: going from J[iteration] to J[iteration + 1]). */
  iteration: number;
  /** Turn steps done in it so far, 1..turns. */
  done: number;
  turns: number;
  algorithms: {
    /** Turn each seed updated in the latest step (sequential rules); 'all' for rules that update every turn at once (in the first step), null when they are waiting. */
    updated: (number | 'all' | null)[];
    /** Mean over seeds of J after the latest step. */
    J: number;
    /** Mean over seeds of the optimal token's probability on the optimal path, per turn, after the latest step. */
    optimalProb: number[];
  }[];
}
