import type { Experiment } from '../config/resolve';
import { LIMITS } from '../config/schema';
import { usesDiscountedObjective } from '../env/discounted';
import { UPDATE_METRICS, type UpdateMetric } from '../metrics/names';

/**
 * Per-iteration metrics of one (algorithm, seed) run (docs/math.md "What is measured"). NaN = not reached.
 * J is kept at every iteration (drops, summaries and the results hash need all of it); the other
 * metrics are kept at iterations that are multiples of `every` and at the last one, so a long run
 * on the page stores at most about STORED_POINTS of them (the charts draw fewer). `every` is 1
 * for the CLI and whenever iterations ≤ STORED_POINTS.
 */
export interface RunSeries {
  algoIndex: number;
  seedIndex: number;
  iterations: number;
  every: number;
  J: Float64Array; // iterations + 1; J[0] before any update
  entropy: Float64Array; // slots(iterations, every): evaluations k = 0..iterations
  optimalTokenProb: Float64Array[]; // per turn, like entropy
  kl: Float64Array; // slots(iterations − 1, every): updates k = 0..iterations − 1
  clipFraction: Float64Array;
  zeroVarianceGroups: Float64Array;
  gradNorm: Float64Array;
  wallMs: Float64Array;
  /**
   * Several contexts: per context x, the J of context x (J is their mean), stored at the
   * multiples of `jcontextEvery` and the last evaluation, slots(iterations, jcontextEvery)
   * each; empty with one context.
   */
  Jcontext: Float64Array[];
  /**
   * The discounted return J_γ (src/core/env/discounted.ts), stored like J (iterations + 1 values),
   * present only when the learners' objective differs from J (γ < 1 and per-turn rewards).
   */
  Jgamma?: Float64Array;
  /** Stride of Jcontext (jcontextStride): 1, like J, unless that would store too much. */
  jcontextEvery: number;
  /** The iteration the run diverged at (markDiverged), or null. */
  diverged: number | null;
}

/** Most points of a metric other than J that the page stores per run. */
export const STORED_POINTS = 2048;

/** The smallest power-of-two stride that keeps 0..iterations within `points` stored values. */
export function storageStride(iterations: number, points = STORED_POINTS): number {
  let every = 1;
  while (Math.floor(iterations / every) + 1 > points) every *= 2;
  return every;
}

/** Stored values of indices 0..last: the multiples of `every`, plus `last`. */
export const slotCount = (last: number, every: number): number => (last < 0 ? 0 : Math.floor(last / every) + 1 + (last % every === 0 ? 0 : 1));

/** Where index k of 0..last is stored, or −1 when it is not. */
export function slotOf(k: number, last: number, every: number): number {
  if (k % every === 0) return k / every;
  return k === last ? Math.floor(last / every) + 1 : -1;
}

/** The stored index nearest below or at k (k itself when it is stored). */
export const storedAtOrBefore = (k: number, last: number, every: number): number => (k === last ? k : Math.floor(k / every) * every);

/**
 * The stride at which a run stores its per-context J: 1 (every evaluation, like J) while
 * contexts·(iterations + 1)·runs stays within the stored-points limit that bounds J
 * (LIMITS.maxStoredPoints over every run of the experiment), else the smallest power of two
 * that brings it within (never past `iterations`: then only J[0] and the last are kept).
 * It depends on the experiment alone, so every worker and the page agree on it.
 */
export function jcontextStride(exp: Pick<Experiment, 'iterations' | 'algorithms' | 'seedIndices'> & { env: { contexts: number } }): number {
  const C = exp.env.contexts;
  if (C <= 1) return 1;
  const perSlot = C * exp.algorithms.length * exp.seedIndices.length;
  const n = exp.iterations;
  let every = 1;
  while (perSlot * slotCount(n, every) > LIMITS.maxStoredPoints && every < n) every *= 2;
  return every;
}

export function makeRunSeries(exp: Experiment, algoIndex: number, seedIndex: number, every = 1): RunSeries {
  const n = exp.iterations;
  const nan = (len: number) => new Float64Array(len).fill(NaN);
  const evals = slotCount(n, every);
  const updates = slotCount(n - 1, every);
  const jcEvery = jcontextStride(exp);
  const C = exp.env.contexts;
  return {
    algoIndex,
    seedIndex,
    iterations: n,
    every,
    J: nan(n + 1),
    entropy: nan(evals),
    optimalTokenProb: Array.from({ length: exp.env.turns }, () => nan(evals)),
    kl: nan(updates),
    clipFraction: nan(updates),
    zeroVarianceGroups: nan(updates),
    gradNorm: nan(updates),
    wallMs: nan(updates),
    Jcontext: C > 1 ? Array.from({ length: C }, () => nan(slotCount(n, jcEvery))) : [],
    jcontextEvery: jcEvery,
    ...(usesDiscountedObjective(exp.env) ? { Jgamma: nan(n + 1) } : {}),
    diverged: null,
  };
}


/** A metric of the update k → k + 1 (k = 0..iterations − 1), stored when k is kept. */
export function putUpdate(s: RunSeries, metric: UpdateMetric, k: number, v: number): void {
  const j = slotOf(k, s.iterations - 1, s.every);
  if (j >= 0) s[metric][j] = v;
}

/**
 * Divergence (docs/math.md "What is measured"). A run diverged at k when the numbers of its update k − 1 → k
 * (advantages and the statistics they are normalized by, gradients and their norm, the critic,
 * M, the parameters and Adam's moments, KL, clip fraction) or of its evaluation at k (J, entropy,
 * optimal-token probabilities, per-context J) are not all finite: J_0..J_{k−1} and the updates
 * 0..k − 2 are kept, and everything from the evaluation k and the update k − 1 on is NaN (null
 * in the result). So `diverged = k` ⇔ J[k] is the first missing J, as before, and the update
 * that broke is never reported half-way. The executors check, the series records.
 */
export function markDiverged(s: RunSeries, run: { diverged: number | null }, k: number): void {
  if (run.diverged !== null && run.diverged <= k) return;
  run.diverged = k;
  s.diverged = k;
  if (k >= 1) for (const m of UPDATE_METRICS) putUpdate(s, m, k - 1, NaN);
  s.J[k] = NaN;
  if (s.Jgamma) s.Jgamma[k] = NaN;
  if (s.Jcontext.length > 0) {
    const c = slotOf(k, s.iterations, s.jcontextEvery);
    if (c >= 0) for (const a of s.Jcontext) a[c] = NaN;
  }
  const j = slotOf(k, s.iterations, s.every);
  if (j >= 0) {
    s.entropy[j] = NaN;
    for (const a of s.optimalTokenProb) a[j] = NaN;
  }
}

/** The numbers of one update k → k + 1 that the series keeps (wallMs apart: it is measured after the evaluation). */
export interface UpdateValues {
  kl: number;
  clipFraction: number;
  zeroVarianceGroups: number;
  gradNorm: number;
}

/**
 * Store the metrics of the update k → k + 1, or mark the run diverged at k + 1 when one of them
 * is not finite or `finite` (the executor's checks of the numbers it does not report) is false.
 * Returns whether the run goes on (then its evaluation at k + 1 is recorded next).
 */
export function recordUpdate(s: RunSeries, run: { diverged: number | null }, k: number, u: UpdateValues, finite = true): boolean {
  if (!finite || !Number.isFinite(u.kl) || !Number.isFinite(u.clipFraction) || !Number.isFinite(u.zeroVarianceGroups) || !Number.isFinite(u.gradNorm)) {
    markDiverged(s, run, k + 1);
    return false;
  }
  // putUpdate for each, with the slot found once and the arrays named (no keyed access per metric)
  const j = slotOf(k, s.iterations - 1, s.every);
  if (j < 0) return true;
  s.kl[j] = u.kl;
  s.clipFraction[j] = u.clipFraction;
  s.zeroVarianceGroups[j] = u.zeroVarianceGroups;
  s.gradNorm[j] = u.gradNorm;
  return true;
}

/** Whether every number of an evaluation is finite (J, entropy, optimal-token probabilities, per-context J, J_γ where given). */
export function evaluationFinite(v: { J: number; entropy: number; optimalProb: ArrayLike<number>; Jcontext?: ArrayLike<number>; Jgamma?: number }): boolean {
  return finiteEvaluation(v.J, v.entropy, v.optimalProb, v.Jcontext, v.Jgamma);
}

function finiteEvaluation(J: number, entropy: number, optimalProb: ArrayLike<number>, Jcontext: ArrayLike<number> | undefined, Jgamma: number | undefined): boolean {
  if (!Number.isFinite(J) || !Number.isFinite(entropy)) return false;
  if (Jgamma !== undefined && !Number.isFinite(Jgamma)) return false;
  for (let t = 0; t < optimalProb.length; t++) if (!Number.isFinite(optimalProb[t])) return false;
  if (Jcontext) for (let x = 0; x < Jcontext.length; x++) if (!Number.isFinite(Jcontext[x])) return false;
  return true;
}

/**
 * Store an evaluation at iteration k, or mark the run diverged at k when one of its numbers is
 * not finite (markDiverged). `Jcontext` (several contexts): J of each context, stored where the
 * series keeps it. `Jgamma`: J_γ, stored like J where the series has it (an evaluation without
 * it leaves NaN there: an executor that does not compute J_γ yet).
 */
export function recordEvaluation(
  s: RunSeries,
  run: { diverged: number | null },
  k: number,
  v: { J: number; entropy: number; optimalProb: ArrayLike<number>; Jcontext?: ArrayLike<number>; Jgamma?: number },
): void {
  if (!finiteEvaluation(v.J, v.entropy, v.optimalProb, s.Jcontext.length > 0 ? v.Jcontext : undefined, s.Jgamma ? v.Jgamma : undefined)) {
    markDiverged(s, run, k);
    return;
  }
  s.J[k] = v.J;
  if (s.Jgamma && v.Jgamma !== undefined) s.Jgamma[k] = v.Jgamma;
  if (s.Jcontext.length > 0 && v.Jcontext) {
    const c = slotOf(k, s.iterations, s.jcontextEvery);
    if (c >= 0) for (let x = 0; x < s.Jcontext.length; x++) s.Jcontext[x][c] = v.Jcontext[x];
  }
  const j = slotOf(k, s.iterations, s.every);
  if (j < 0) return;
  s.entropy[j] = v.entropy;
  for (let t = 0; t < v.optimalProb.length; t++) s.optimalTokenProb[t][j] = v.optimalProb[t];
}

/** How many of the stored indices of 0..last are ≤ m. */
export function storedUpTo(m: number, last: number, every: number): number {
  if (m < 0) return 0;
  return Math.floor(m / every) + 1 + (m >= last && last % every !== 0 ? 1 : 0);
}

/** A metric's stored values spread over indices 0..last (NaN where nothing is stored). */
export function expandSlots(values: Float64Array, last: number, every: number): Float64Array {
  if (every === 1) return values;
  const out = new Float64Array(last + 1).fill(NaN);
  for (let j = 0; j < values.length; j++) out[Math.min(j * every, last)] = values[j];
  return out;
}

/** A copy of the series with every value past iteration `upTo` (updates: past upTo − 1) set to NaN. */
export function truncateSeries(s: RunSeries, upTo: number): RunSeries {
  const cut = (a: Float64Array, last: number, keepUpTo: number, every = s.every) => {
    const c = new Float64Array(a.length).fill(NaN);
    c.set(a.subarray(0, Math.min(a.length, storedUpTo(keepUpTo, last, every))));
    return c;
  };
  const n = s.iterations;
  const ev = (a: Float64Array) => cut(a, n, upTo);
  const up = (a: Float64Array) => cut(a, n - 1, upTo - 1);
  return {
    ...s,
    J: cut(s.J, n, upTo, 1),
    ...(s.Jgamma ? { Jgamma: cut(s.Jgamma, n, upTo, 1) } : {}),
    entropy: ev(s.entropy),
    optimalTokenProb: s.optimalTokenProb.map(ev),
    kl: up(s.kl),
    clipFraction: up(s.clipFraction),
    zeroVarianceGroups: up(s.zeroVarianceGroups),
    gradNorm: up(s.gradNorm),
    wallMs: up(s.wallMs),
    Jcontext: s.Jcontext.map((a) => cut(a, n, upTo, s.jcontextEvery)),
    diverged: s.diverged !== null && s.diverged <= upTo ? s.diverged : null,
  };
}
