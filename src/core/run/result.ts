import type { RunExecutor } from './choose';
import type { Experiment } from '../config/resolve';
import type { Mode } from '../options';
import { CLAIMS_RULES, claimsInputOf, computeClaims, type Claim } from '../claims';
import { returnRange } from '../env/returns';
import { discountedOptimum, usesDiscountedObjective } from '../env/discounted';
import { sharesContexts } from '../config/experiment';
import { executorTag, resultsHash, type ResultsHash } from '../metrics/results-hash';
import { expandSlots, type RunSeries } from './series';
import { UPDATE_METRICS, type UpdateMetric } from '../metrics/names';
import { atOptimumTolerance, summarize, violations, violationTolerance, type AlgorithmSummary } from '../metrics/summary';

export { APP_VERSION } from '../version';
import { APP_VERSION } from '../version';

/** One run in the result JSON; beside the fields below, each update metric (UPDATE_METRICS: kl, clipFraction, …), iterations values. */
export interface RunResult extends Record<UpdateMetric, (number | null)[]> {
  seed: number;
  J: (number | null)[];
  /** With γ < 1 and per-turn rewards only: the discounted return J_γ, like J (iterations + 1 values; docs/math.md, "What is measured"). */
  Jgamma?: (number | null)[];
  entropy: (number | null)[];
  optimalTokenProb: (number | null)[][];
  /** Several contexts only: per context x, the exact (or Monte-Carlo) J of context x, like J (iterations + 1 values; J is their mean). */
  Jcontext?: (number | null)[][];
  violations: number[];
  /**
   * The iteration k at which the run diverged, or null: a NaN or ∞ appeared in one of the numbers
   * of the update k − 1 → k (parameters, gradients, the critic, M, Adam's moments, advantages and
   * the reward statistics that scale them, KL) or of the evaluation at k (series.ts, markDiverged).
   * J, Jcontext, entropy and optimalTokenProb from index k on, and the update metrics from index
   * k − 1 on, are null; everything before is finite.
   */
  diverged: number | null;
}

export interface ExperimentResult {
  version: 1;
  Jstar: number;
  /** With γ < 1 and per-turn rewards only: J_γ*, the optimum of the discounted return (backward induction on the discounted rewards). */
  JgammaStar?: number;
  appVersion: string;
  executor: RunExecutor;
  backend: string | null;
  executorReason: string;
  threads: number;
  jIsEstimate: boolean;
  mode: Mode;
  iterations: number;
  warnings: string[];
  /** The version of the verdict rules (docs/claims.md) the claims were decided by. */
  claimsRules: typeof CLAIMS_RULES;
  /** The paper's five claims on this experiment: verdict, reason, evidence (src/core/claims). */
  claims: Claim[];
  algorithms: { id: string; runs: RunResult[]; summary: Omit<AlgorithmSummary, 'finalJ'> & { finalJ: { mean: number | null; lo: number | null; hi: number | null } } }[];
  wallSeconds: number;
  /** Present when metrics other than J were stored only at every k-th iteration (and the last; the page does this past STORED_POINTS iterations): they are null between. */
  metricsEvery?: number;
  /** Present when Jcontext was stored only at every k-th iteration (and the last) to keep contexts·(iterations+1)·runs within the stored-points limit: null between. */
  jcontextEvery?: number;
  /** Digest of the J curves (results-hash.ts): what a permalink's `hash` is checked against. */
  resultsHash: ResultsHash;
}

/**
 * A curve for the result JSON: non-finite values as null. Copied from a packed list of n numbers
 * (not filled into `new Array(n)`, which is holey): JSON.stringify writes a packed list on its
 * fast path and a holey one element by element, and a result holds millions of values (a plain
 * loop, as Array.from with a map function is about 10× slower).
 */
function list(a: ArrayLike<number>): (number | null)[] {
  const n = a.length;
  const out: (number | null)[] = packedOfLength(n);
  for (let i = 0; i < n; i++) {
    const v = a[i];
    out[i] = Number.isFinite(v) ? v : null;
  }
  return out;
}
/** Packed lists to copy, by length: a result's curves have one or two lengths (kept at most 8, so a long run's list is not held for ever beside others). */
const PACKED = new Map<number, number[]>();
/** A new packed list of n numbers (its values are overwritten). */
function packedOfLength(n: number): number[] {
  let t = PACKED.get(n);
  if (!t) {
    if (PACKED.size >= 8) PACKED.clear();
    t = [];
    for (let i = 0; i < n; i++) t.push(0.5);
    PACKED.set(n, t);
  }
  return t.slice();
}
const num = (v: number) => (Number.isFinite(v) ? v : null);

export function rewardRange(exp: Experiment): number {
  return returnRange(exp.env);
}

export function buildResult(
  exp: Experiment,
  Jstar: number,
  series: RunSeries[],
  meta: { executor: RunExecutor; backend: string | null; executorReason: string; threads: number; wallSeconds: number; jIsEstimate?: boolean },
): ExperimentResult {
  // a Monte-Carlo J counts no violations (docs/math.md "What is measured"): its drops are sampling noise
  const range = rewardRange(exp);
  const tol = { violation: meta.jIsEstimate ? Infinity : violationTolerance(range), atOptimum: atOptimumTolerance(range) };
  // J_γ beside J only where it is the learners' objective, so an undiscounted result is unchanged byte for byte
  const discounted = usesDiscountedObjective(exp.env);
  const algorithms = exp.algorithms.map((a, ai) => {
    const runs = series.filter((s) => s.algoIndex === ai).sort((x, y) => x.seedIndex - y.seedIndex);
    const sum = summarize(runs.map((s) => s.J), Jstar, tol, runs.map((s) => s.diverged));
    return {
      id: a.id,
      runs: runs.map((s): RunResult => {
        const ev = (a: Float64Array) => list(expandSlots(a, s.iterations, s.every));
        const r: Record<string, unknown> = { seed: s.seedIndex, J: list(s.J) };
        if (discounted) r.Jgamma = s.Jgamma ? list(s.Jgamma) : Array.from(s.J, () => null);
        // several contexts: J of each context beside J (J is their mean)
        if (exp.env.contexts > 1) r.Jcontext = s.Jcontext.map((a) => list(expandSlots(a, s.iterations, s.jcontextEvery)));
        r.entropy = ev(s.entropy);
        r.optimalTokenProb = s.optimalTokenProb.map(ev);
        for (const m of UPDATE_METRICS) r[m] = list(expandSlots(s[m], s.iterations - 1, s.every));
        r.violations = violations(s.J, tol.violation);
        r.diverged = s.diverged;
        return r as unknown as RunResult;
      }),
      summary: { ...sum, finalJ: { mean: num(sum.finalJ.mean), lo: num(sum.finalJ.lo), hi: num(sum.finalJ.hi) } },
    };
  });
  return {
    version: 1,
    Jstar,
    ...(discounted ? { JgammaStar: discountedOptimum(exp.env, sharesContexts(exp.policy)) } : {}),
    appVersion: APP_VERSION,
    executor: meta.executor,
    backend: meta.backend,
    executorReason: meta.executorReason,
    threads: meta.threads,
    jIsEstimate: meta.jIsEstimate ?? false,
    mode: exp.mode,
    iterations: exp.iterations,
    warnings: exp.warnings,
    claimsRules: CLAIMS_RULES,
    claims: computeClaims(claimsInputOf(exp, Jstar, series, { jIsEstimate: meta.jIsEstimate ?? false })),
    resultsHash: resultsHash(
      algorithms.map((a) => a.id),
      algorithms.map((a) => a.runs.map((r) => r.J)),
      executorTag(meta.executor, meta.backend),
    ),
    algorithms,
    wallSeconds: meta.wallSeconds,
    ...(series.some((s) => s.every > 1) ? { metricsEvery: Math.max(...series.map((s) => s.every)) } : {}),
    ...(exp.env.contexts > 1 && series.some((s) => s.jcontextEvery > 1) ? { jcontextEvery: Math.max(...series.map((s) => s.jcontextEvery)) } : {}),
  };
}
