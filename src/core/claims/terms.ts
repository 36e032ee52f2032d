// The per-seed and per-algorithm terms of docs/claims.md ("Terms"): at J*, drops with their KL,
// stalled (on the objective and on every turn's optimal-token probability), stuck, settled, t95,
// the share at J* with its Clopper–Pearson interval. Every threshold is a fraction of R range, so
// scaling every reward by a constant changes no term. Computed on the values available so far (a
// run may still be streaming: its values end at its last finite one).

import { algorithmLabel, type AlgorithmRecord } from '../algo/records';
import { AT_OPTIMUM, iterationsTo95, meanInterval, type MeanInterval } from '../metrics/summary';
import { slotOf, storedAtOrBefore } from '../run/series';
import { effectiveLr } from './groups';
import { clopperPearson } from './stats';
import type { AlgorithmEvidence, ClaimsInput, ClaimsRun, DropEvidence } from './types';

/** tol = AT_JSTAR · R range: a seed is at J* when its final J ≥ J* − tol (the summaries' rule, metrics/summary.ts). */
export const AT_JSTAR = AT_OPTIMUM;
/** A drop: J_(k+1) < J_k − DROP · R range. */
export const DROP = 1e-3;
/** Stalled: |ΔJ| < STALL_J · R range over the window … */
export const STALL_J = 1e-4;
/** … and |ΔP(optimal token on the optimal path)| < STALL_P for every turn. */
export const STALL_P = 1e-3;
/** §7's violations (shown, never judged): J_(k+1) < J_k − VIOLATION · R range. */
export const VIOLATION = 1e-6;

/** The window w of "stalled": max(10, ⌈iterations / 10⌉), iterations = the experiment's planned count. */
export function stallWindow(iterations: number): number {
  return Math.max(10, Math.ceil(iterations / 10));
}

/** A seed is stalled only when |J_end − J_(end−w)| is below this: 1e-4 · R range. */
export function stallTolerance(rewardRange: number): number {
  return STALL_J * rewardRange;
}

/** Index of the last finite value (the run's "end" so far), −1 when there is none. */
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

/** The objective's half of "stalled": |J_end − J_(end−w)| < tol (with fewer than w + 1 values, not stalled). */
export function isStalled(J: ArrayLike<number>, w: number, tol: number): boolean {
  const d = recentChange(J, w);
  return Number.isFinite(d) && Math.abs(d) < tol;
}

/**
 * The probabilities' half of "stalled": for every turn, |P_a − P_b| < STALL_P, where a is the last
 * stored evaluation at or before `end` and b the last stored one at or before a − w (probabilities
 * are stored at stride `every`: the span a − b is then at least w, never shorter). True when the
 * run carries no probabilities, or none was recorded at those evaluations (NaN: the objective
 * alone decides; a diverged run is stalled anyway); false when too few are stored.
 * Returns the largest |ΔP| over turns too (NaN when unknown).
 */
export function probabilitiesStalled(run: Pick<ClaimsRun, 'optimalTokenProb' | 'every'>, end: number, w: number, iterations: number): { stalled: boolean; change: number } {
  const P = run.optimalTokenProb;
  if (!P || P.length === 0) return { stalled: true, change: NaN };
  const every = Math.max(1, run.every ?? 1);
  const a = storedAtOrBefore(end, iterations, every);
  if (a - w < 0) return { stalled: false, change: NaN };
  const b = storedAtOrBefore(a - w, iterations, every);
  const sa = slotOf(a, iterations, every), sb = slotOf(b, iterations, every);
  let change = 0;
  for (const p of P) {
    if (Number.isNaN(p[sa]) && Number.isNaN(p[sb])) continue; // not recorded
    const d = Math.abs(p[sa] - p[sb]);
    if (!Number.isFinite(d)) return { stalled: false, change: NaN };
    change = Math.max(change, d);
  }
  return { stalled: change < STALL_P, change };
}

/** One drop of a run: J_(k+1) < J_k − DROP·R range, with the KL of its update. */
export interface Drop extends DropEvidence {}

export interface SeedTerms {
  seedIndex: number;
  /** At least one completed iteration (or a divergence): the seed decides something. */
  hasData: boolean;
  /** The last finite value of the objective (NaN when there is none yet). */
  final: number;
  diverged: boolean;
  atJstar: boolean;
  stalled: boolean;
  /** The objective stalled but some turn's optimal-token probability still moved by STALL_P or more over the window. */
  probsMoving: boolean;
  stuck: boolean;
  settled: boolean;
  drops: Drop[];
  violations: number;
  /** Iterations to 95% of the way to J*; null = not reached. */
  t95: number | null;
  /** J_end − J_(end−w), NaN when fewer than w + 1 values: which way a seed that is not stalled moves. */
  change: number;
}

export interface TermsSettings {
  /** Which series the terms judge: J, or J_γ when the learners maximize the discounted return. */
  objective: 'J' | 'Jgamma';
  Jstar: number;
  tol: number;
  window: number;
  stallTol: number;
  /** DROP · R range; Infinity when J is a Monte-Carlo estimate (no drops are counted). */
  dropTol: number;
  violationTol: number;
  iterations: number;
}

export function termsSettings(input: ClaimsInput, objective: 'J' | 'Jgamma'): TermsSettings {
  const R = input.rewardRange;
  return {
    objective,
    Jstar: objective === 'Jgamma' ? (input.JgammaStar ?? NaN) : input.Jstar,
    tol: AT_JSTAR * R,
    window: stallWindow(input.iterations),
    stallTol: stallTolerance(R),
    dropTol: input.jIsEstimate ? Infinity : DROP * R,
    violationTol: input.jIsEstimate ? Infinity : VIOLATION * R,
    iterations: input.iterations,
  };
}

const EMPTY: ArrayLike<number> = [];

/**
 * One seed's terms. A diverged seed can move no more and never gets back to J*: it is stalled,
 * hence settled and stuck, whatever its last finite value; its drops and t95 are those of the
 * values before it diverged. A seed without a completed iteration decides nothing.
 */
export function seedTerms(run: ClaimsRun, s: TermsSettings): SeedTerms {
  const Y = (s.objective === 'Jgamma' ? run.Jgamma : run.J) ?? EMPTY;
  const diverged = run.diverged !== null;
  const e = lastFiniteIndex(Y);
  const hasData = diverged || e >= 1;
  const final = e >= 0 ? Y[e] : NaN;
  const atJstar = hasData && !diverged && final >= s.Jstar - s.tol;
  const change = recentChange(Y, s.window);
  const jStalled = hasData && Number.isFinite(change) && Math.abs(change) < s.stallTol;
  const probs = jStalled ? probabilitiesStalled(run, e, s.window, s.iterations) : { stalled: false, change: NaN };
  const stalled = diverged || (jStalled && probs.stalled);
  const drops: Drop[] = [];
  let violations = 0;
  const every = Math.max(1, run.every ?? 1);
  for (let k = 0; k + 1 <= e; k++) {
    const d = Y[k] - Y[k + 1];
    if (d > s.violationTol) violations++;
    if (!(d > s.dropTol)) continue;
    const slot = run.kl ? slotOf(k, s.iterations - 1, every) : -1;
    const kl = slot >= 0 && Number.isFinite(run.kl![slot]) ? run.kl![slot] : null;
    drops.push({ size: d, seed: run.seedIndex, iteration: k + 1, kl });
  }
  return {
    seedIndex: run.seedIndex,
    hasData,
    final,
    diverged,
    atJstar,
    stalled,
    probsMoving: jStalled && !probs.stalled && !diverged,
    stuck: stalled && !atJstar,
    settled: atJstar || stalled,
    drops,
    violations,
    t95: e >= 0 ? iterationsTo95(Y, s.Jstar, e + 1) : null, // the values up to the last finite one, read in place
    change,
  };
}

export interface AlgorithmTerms {
  index: number;
  record: AlgorithmRecord;
  label: string;
  seeds: SeedTerms[];
  /** Some seed has completed an iteration: the algorithm decides something. */
  hasData: boolean;
  /** Seeds at J* / seeds (0 with no seeds). */
  share: number;
  atJstar: number;
  /** Median over seeds of t95 with never = ∞ (the lower median, as metrics/summary.ts). */
  medianT95: number;
  finalJ: MeanInterval;
  /** The effective learning rate and its schedule, as a comparable key. */
  lr: { value: number; key: string };
  /** The largest drop of any seed, or null. */
  largestDrop: Drop | null;
  evidence: AlgorithmEvidence;
}

const orNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

export function algorithmTerms(input: ClaimsInput, index: number, s: TermsSettings): AlgorithmTerms {
  const record = input.algorithms[index];
  const runs = [...(input.runs[index] ?? [])].sort((a, b) => a.seedIndex - b.seedIndex);
  const seeds = runs.map((r) => seedTerms(r, s));
  const count = (f: (t: SeedTerms) => boolean) => seeds.filter(f).length;
  const atJstar = count((t) => t.atJstar);
  const t95s = seeds.map((t) => t.t95 ?? Infinity).sort((a, b) => a - b);
  const medianT95 = t95s.length ? t95s[Math.floor((t95s.length - 1) / 2)] : Infinity;
  const finalJ = meanInterval(seeds.map((t) => t.final));
  let largestDrop: Drop | null = null;
  for (const t of seeds) for (const d of t.drops) if (!largestDrop || d.size > largestDrop.size) largestDrop = d;
  const lr = effectiveLr(input, index);
  const drops = seeds.reduce((k, t) => k + t.drops.length, 0);
  return {
    index,
    record,
    label: algorithmLabel(record),
    seeds,
    hasData: seeds.some((t) => t.hasData),
    share: seeds.length ? atJstar / seeds.length : 0,
    atJstar,
    medianT95,
    finalJ,
    lr,
    largestDrop,
    evidence: {
      id: record.id,
      seeds: seeds.length,
      atJstar,
      atJstarInterval: seeds.length ? clopperPearson(atJstar, seeds.length) : null,
      stuck: count((t) => t.stuck),
      settled: count((t) => t.settled),
      drops,
      seedsWithDrops: count((t) => t.drops.length > 0),
      largestDrop: largestDrop ? { ...largestDrop } : null,
      dropList: seeds
        .flatMap((t) => t.drops)
        .sort((a, b) => b.size - a.size || a.seed - b.seed || a.iteration - b.iteration)
        .slice(0, MAX_LISTED_DROPS)
        .map((d) => ({ size: d.size, seed: d.seed, iteration: d.iteration, kl: d.kl })),
      violations: seeds.reduce((k, t) => k + t.violations, 0),
      t95: Number.isFinite(medianT95) ? medianT95 : null,
      finalJ: { mean: orNull(finalJ.mean), lo: orNull(finalJ.lo), hi: orNull(finalJ.hi) },
      diverged: count((t) => t.diverged),
      lr: lr.value,
    },
  };
}

/** The most drops an algorithm's evidence lists one by one (the count `drops` is always complete). */
export const MAX_LISTED_DROPS = 50;

/** Every algorithm's terms on the given objective, in the input's order. */
export function allTerms(input: ClaimsInput, objective: 'J' | 'Jgamma' = 'J'): AlgorithmTerms[] {
  const s = termsSettings(input, objective);
  return input.algorithms.map((_, i) => algorithmTerms(input, i, s));
}
