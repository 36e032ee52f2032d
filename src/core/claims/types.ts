// The types of the claims verdicts (algorithms.md §8, cli-contract.md "Claims in results").

import type { AlgorithmRecord } from '../algo/records';
import type { Mode } from '../options';

/** The version of the verdict rules of algorithms.md §8 that this module implements. */
export const CLAIMS_RULES = 1;

export type Verdict = 'observed' | 'not observed' | 'undecided' | 'not testable';

/** One run of an algorithm: its seed index and J[0..k] so far (k ≤ iterations); NaN after divergence. */
export interface ClaimsRun {
  seedIndex: number;
  J: ArrayLike<number>;
  /** The iteration at which a NaN/Inf appeared, or null. */
  diverged: number | null;
}

export interface ClaimsInput {
  /** The resolved algorithm records (src/core/algo/records.ts). */
  algorithms: readonly AlgorithmRecord[];
  /**
   * Per algorithm (same order), its runs: the seed index and J[0..k] so far (k ≤ iterations).
   * NaN after divergence; trailing NaN (iterations not reached yet) are allowed: a run's values
   * end at its last finite one.
   */
  runs: readonly (readonly ClaimsRun[])[];
  mode: Mode;
  /** Monte-Carlo J: drop-based checks are not testable, and no drops are counted (§7). */
  jIsEstimate: boolean;
  /** env.gamma */
  gamma: number;
  /** env.contexts */
  contexts: number;
  /** The experiment's planned iteration count (the window w of "stalled" uses it). */
  iterations: number;
  Jstar: number;
  /** max R̄ − min R̄ over all sequences and contexts (total return). */
  rewardRange: number;
  /**
   * Optional: the experiment's scheduled changes (config `changes`). Two algorithms whose clip is
   * changed differently during the run are not twins, even when their records are equal.
   */
  changes?: readonly { at: number; path: string; value: number }[];
}

export interface ClaimPart {
  part: string;
  verdict: Verdict;
  reason: string;
}

/** An algorithm's numbers a verdict was decided on (plain JSON: null where a number is undefined). */
export interface AlgorithmEvidence {
  id: string;
  /** Runs of the algorithm in the data. */
  seeds: number;
  /** Seeds at J*: final J ≥ J* − 0.01 (a diverged seed never is). */
  atJstar: number;
  /** Seeds stalled and not at J* (diverged seeds count here). */
  stuck: number;
  /** Seeds at J* or stalled (diverged seeds count here). */
  settled: number;
  /** Monotonic-improvement violations of §7, total over seeds (0 when J is a Monte-Carlo estimate). */
  drops: number;
  seedsWithDrops: number;
  /** Median over seeds of the iterations to 95% of the way to J* (never reached = ∞); null = ∞ (most seeds never got there). */
  t95: number | null;
  /** Mean final J (last finite J of every seed) and its 95% Student-t interval; null when no seed has a J. */
  finalJ: { mean: number | null; lo: number | null; hi: number | null };
  /** Seeds that diverged (a NaN/Inf appeared). */
  diverged: number;
}

export interface Claim {
  claim: 1 | 2 | 3 | 4 | 5;
  title: string;
  verdict: Verdict;
  reason: string;
  parts?: ClaimPart[];
  evidence: { algorithms: AlgorithmEvidence[]; [k: string]: unknown };
}
