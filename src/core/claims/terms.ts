// The per-seed and per-algorithm terms of algorithms.md §8: at J*, drops, interval, stalled,
// stuck, settled, t95. Everything is computed on the values available so far (a run may still be
// streaming: its values end at its last finite J).

import { algorithmLabel, type AlgorithmRecord } from '../algo/records';
import { iterationsTo95, lastFinite, summarize, violations, violationTolerance, type MeanInterval } from '../metrics/summary';
import type { AlgorithmEvidence, ClaimsInput, ClaimsRun } from './types';

/** A seed is at J* when its final J ≥ J* − AT_JSTAR (§8, the share-at-J* rule of §7). */
export const AT_JSTAR = 0.01;

/** The window w of "stalled": max(10, ⌈iterations / 10⌉), iterations = the experiment's planned count. */
export function stallWindow(iterations: number): number {
  return Math.max(10, Math.ceil(iterations / 10));
}

/** A seed is stalled when |J_end − J_(end−w)| is below this: 1e-4 · R range. */
export function stallTolerance(rewardRange: number): number {
  return 1e-4 * rewardRange;
}

/** Index of the last finite value of J (the run's "end" so far), −1 when there is none. */
export function lastFiniteIndex(J: ArrayLike<number>): number {
  for (let k = J.length - 1; k >= 0; k--) if (Number.isFinite(J[k])) return k;
  return -1;
}

/** J_end − J_(end−w), end = the last finite value; NaN when fewer than w + 1 values are available. */
export function recentChange(J: ArrayLike<number>, w: number): number {
  const e = lastFiniteIndex(J);
  if (e < w) return NaN;
  const d = J[e] - J[e - w];
  return Number.isFinite(d) ? d : NaN;
}

/**
 * §8 "stalled": |J_end − J_(end−w)| < tol, J_end the last available value. With fewer than w + 1
 * values the seed is not stalled (it can still move: its verdicts stay undecided).
 */
export function isStalled(J: ArrayLike<number>, w: number, tol: number): boolean {
  const d = recentChange(J, w);
  return Number.isFinite(d) && Math.abs(d) < tol;
}

export interface SeedTerms {
  seedIndex: number;
  /** The last finite J (NaN when there is none yet). */
  final: number;
  diverged: boolean;
  atJstar: boolean;
  stalled: boolean;
  stuck: boolean;
  settled: boolean;
  drops: number;
  /** The largest drop J_k − J_k+1 among the drops (0 when none). */
  maxDrop: number;
  /** Iterations to 95% of the way to J* (§7); null = not reached. */
  t95: number | null;
  /** J_end − J_(end−w), NaN when fewer than w + 1 values: which way a seed that is not stalled moves. */
  change: number;
}

export interface AlgorithmTerms {
  index: number;
  record: AlgorithmRecord;
  label: string;
  seeds: SeedTerms[];
  /** Seeds at J* / seeds (0 with no seeds). */
  share: number;
  /** Median over seeds of t95 with never = ∞ (the lower median, as summarize() in metrics/summary.ts). */
  medianT95: number;
  finalJ: MeanInterval;
  evidence: AlgorithmEvidence;
}

export interface TermsSettings {
  Jstar: number;
  /** The stall window w. */
  window: number;
  stallTol: number;
  /** The drop tolerance of §7; Infinity when J is a Monte-Carlo estimate (no drops are counted). */
  dropTol: number;
}

export function termsSettings(input: Pick<ClaimsInput, 'Jstar' | 'iterations' | 'rewardRange' | 'jIsEstimate'>): TermsSettings {
  return {
    Jstar: input.Jstar,
    window: stallWindow(input.iterations),
    stallTol: stallTolerance(input.rewardRange),
    dropTol: input.jIsEstimate ? Infinity : violationTolerance(input.rewardRange),
  };
}

/**
 * One seed's terms. A diverged seed (NaN/Inf at some iteration) can move no more and never gets
 * back to J*: it is treated as stalled, hence settled and stuck (not at J*), whatever its last
 * finite J was; the evidence counts it under `diverged` too. Its drops and t95 are those of the
 * values before it diverged.
 */
export function seedTerms(run: ClaimsRun, s: TermsSettings): SeedTerms {
  const J = run.J;
  const diverged = run.diverged !== null;
  const final = lastFinite(J);
  const atJstar = !diverged && Number.isFinite(final) && final >= s.Jstar - AT_JSTAR;
  const change = recentChange(J, s.window);
  const stalled = diverged || (Number.isFinite(change) && Math.abs(change) < s.stallTol);
  const drops = violations(J, s.dropTol);
  return {
    seedIndex: run.seedIndex,
    final,
    diverged,
    atJstar,
    stalled,
    stuck: stalled && !atJstar,
    settled: atJstar || stalled,
    drops: drops.length,
    maxDrop: drops.reduce((m, k) => Math.max(m, J[k - 1] - J[k]), 0),
    t95: iterationsTo95(J, s.Jstar),
    change,
  };
}

const orNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

export function algorithmTerms(record: AlgorithmRecord, index: number, runs: readonly ClaimsRun[], s: TermsSettings): AlgorithmTerms {
  const sorted = [...runs].sort((a, b) => a.seedIndex - b.seedIndex);
  const seeds = sorted.map((r) => seedTerms(r, s));
  // summarize() gives the same final-J interval and median t95 as the result JSON's summaries
  const sum = summarize(
    sorted.map((r) => r.J),
    s.Jstar,
    s.dropTol,
  );
  const count = (f: (t: SeedTerms) => boolean) => seeds.filter(f).length;
  const atJstar = count((t) => t.atJstar);
  return {
    index,
    record,
    label: algorithmLabel(record),
    seeds,
    share: seeds.length ? atJstar / seeds.length : 0,
    medianT95: sum.medianItersTo95 ?? Infinity,
    finalJ: sum.finalJ,
    evidence: {
      id: record.id,
      seeds: seeds.length,
      atJstar,
      stuck: count((t) => t.stuck),
      settled: count((t) => t.settled),
      drops: seeds.reduce((k, t) => k + t.drops, 0),
      seedsWithDrops: count((t) => t.drops > 0),
      t95: sum.medianItersTo95,
      finalJ: { mean: orNull(sum.finalJ.mean), lo: orNull(sum.finalJ.lo), hi: orNull(sum.finalJ.hi) },
      diverged: count((t) => t.diverged),
    },
  };
}

/** Every algorithm's terms, in the input's order. */
export function allTerms(input: ClaimsInput): AlgorithmTerms[] {
  const s = termsSettings(input);
  return input.algorithms.map((rec, i) => algorithmTerms(rec, i, input.runs[i] ?? [], s));
}

/** Seeds of the algorithms that are not settled yet (still moving), per algorithm with any. */
export function unsettled(algos: readonly AlgorithmTerms[]): { terms: AlgorithmTerms; count: number }[] {
  return algos.map((terms) => ({ terms, count: terms.seeds.filter((t) => !t.settled).length })).filter((x) => x.count > 0);
}
