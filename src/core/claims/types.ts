// The types of the claims verdicts (docs/claims.md; their place in a result: docs/cli.md "The result JSON").

import type { AlgorithmRecord } from '../algo/records';
import type { Mode, OptimizerKind } from '../options';

/** The version of the verdict rules of docs/claims.md that this module implements. */
export const CLAIMS_RULES = 2;

export type Verdict = 'observed' | 'not observed' | 'undecided' | 'not testable';

/** One run of an algorithm: its seed index and its series so far (k ≤ iterations values of J). */
export interface ClaimsRun {
  seedIndex: number;
  /** The undiscounted J[0..k]; NaN after divergence; trailing NaN = not reached yet. */
  J: ArrayLike<number>;
  /** The iteration at which a NaN/Inf appeared, or null. */
  diverged: number | null;
  /** The discounted return J_γ[0..k], stored like J: what claims 2–5 judge when ClaimsInput.JgammaStar is set. */
  Jgamma?: ArrayLike<number>;
  /**
   * Per turn, P(optimal token on the optimal path) at the stored evaluations (indices 0..iterations
   * at stride `every`, plus the last: run/series.ts). Absent: "stalled" reads the objective alone.
   */
  optimalTokenProb?: readonly ArrayLike<number>[];
  /** KL(π_old‖π_new) of the updates k → k+1 (k = 0..iterations−1), stored at stride `every`. */
  kl?: ArrayLike<number>;
  /** Stride of optimalTokenProb and kl (default 1). */
  every?: number;
}

export interface ClaimsInput {
  /** The resolved algorithm records (src/core/algo/records.ts). */
  algorithms: readonly AlgorithmRecord[];
  /** Per algorithm (same order), its runs. */
  runs: readonly (readonly ClaimsRun[])[];
  mode: Mode;
  /** Monte-Carlo J: drop-based checks are not testable, and no drops are counted. */
  jIsEstimate: boolean;
  /** env.gamma */
  gamma: number;
  /** env.contexts */
  contexts: number;
  /** env.contextsPerBatch (default: contexts). */
  contextsPerBatch?: number;
  /** The experiment's planned iteration count (the window w of "stalled" uses it). */
  iterations: number;
  /** The undiscounted optimum J* (of the mean table with a shared table). */
  Jstar: number;
  /**
   * J_γ* when the learners' objective is the discounted return (γ < 1 with per-turn rewards):
   * then claims 2–5 judge each run's Jgamma against it. Absent or null: they judge J.
   */
  JgammaStar?: number | null;
  /** max − min of the undiscounted total reward over all sequences and contexts (floored: env/returns.ts returnRange). */
  rewardRange: number;
  /** Every sequence pays the same mean total return, so every policy is optimal (env/returns.ts flatReturns); absent: false. */
  flatReturns?: boolean;
  /** The optimizer (the same for every algorithm) and its learning rate. Default sgd at lr 1. */
  optimizer?: { kind: OptimizerKind; lr: number };
  /** The policy: a plain table shares no parameters across contexts (claim 5 is not testable then). Default a plain table. */
  policy?: { kind: 'tabular' | 'mlp'; shareContexts?: boolean };
  /** The experiment's scheduled changes (config `changes`): clip and learning-rate schedules. */
  changes?: readonly { at: number; path: string; value: number }[];
}

export interface ClaimPart {
  part: string;
  verdict: Verdict;
  reason: string;
}

/** The largest drop of an algorithm: its size, where it happened and the KL of its update. */
export interface DropEvidence {
  /** J_k − J_(k+1) (of the objective the claim judges). */
  size: number;
  /** Seed index of the run. */
  seed: number;
  /** The iteration k + 1 at which J was lower. */
  iteration: number;
  /** KL(π_old‖π_new) of the update k → k+1; null when it was not stored. */
  kl: number | null;
}

/** An algorithm's numbers a verdict was decided on (plain JSON: null where a number is undefined). */
export interface AlgorithmEvidence {
  id: string;
  /** Runs of the algorithm in the data. */
  seeds: number;
  /** Seeds at J*: final J ≥ J* − tol (a diverged seed never is). */
  atJstar: number;
  /** 95% Clopper–Pearson interval of the share atJstar / seeds (null with no seeds). */
  atJstarInterval: { lo: number; hi: number } | null;
  /** Seeds stalled and not at J* (diverged seeds count here). */
  stuck: number;
  /** Seeds at J* or stalled (diverged seeds count here). */
  settled: number;
  /** Drops of J (J_(k+1) < J_k − 1e-3·R range), total over seeds (0 when J is a Monte-Carlo estimate). */
  drops: number;
  seedsWithDrops: number;
  /** The largest drop, or null when there is none. */
  largestDrop: DropEvidence | null;
  /**
   * Every drop with the KL of its update (docs/claims.md, "Terms"), largest first; at most
   * MAX_LISTED_DROPS of them (`drops` is the total), so the evidence stays small on many seeds.
   */
  dropList: DropEvidence[];
  /** Monotonic-improvement violations of the measured series (J_(k+1) < J_k − 1e-6·R range), total over seeds: shown, not judged. */
  violations: number;
  /** Median over seeds of the iterations to 95% of the way to J* (never reached = ∞); null = ∞. */
  t95: number | null;
  /** Mean final J (last finite J of every seed) and its 95% Student-t interval; null when no seed has a J. */
  finalJ: { mean: number | null; lo: number | null; hi: number | null };
  /** Seeds that diverged (a NaN/Inf appeared). */
  diverged: number;
  /** The effective learning rate (its own lr, else optimizer.lr). */
  lr: number;
}

export interface Claim {
  claim: 1 | 2 | 3 | 4 | 5;
  title: string;
  verdict: Verdict;
  reason: string;
  parts?: ClaimPart[];
  evidence: { algorithms: AlgorithmEvidence[]; [k: string]: unknown };
}
