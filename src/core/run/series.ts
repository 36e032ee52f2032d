import type { Experiment } from '../config/resolve';

/** Per-iteration metrics of one (algorithm, seed) run (algorithms.md §7). NaN = not reached. */
export interface RunSeries {
  algoIndex: number;
  seedIndex: number;
  J: Float64Array; // iterations + 1; J[0] before any update
  entropy: Float64Array; // iterations + 1
  optimalTokenProb: Float64Array[]; // per turn, iterations + 1
  kl: Float64Array; // iterations
  clipFraction: Float64Array;
  zeroVarianceGroups: Float64Array;
  gradNorm: Float64Array;
  wallMs: Float64Array;
  diverged: number | null;
}

export function makeRunSeries(exp: Experiment, algoIndex: number, seedIndex: number): RunSeries {
  const n = exp.iterations;
  const nan = (len: number) => new Float64Array(len).fill(NaN);
  return {
    algoIndex,
    seedIndex,
    J: nan(n + 1),
    entropy: nan(n + 1),
    optimalTokenProb: Array.from({ length: exp.env.turns }, () => nan(n + 1)),
    kl: nan(n),
    clipFraction: nan(n),
    zeroVarianceGroups: nan(n),
    gradNorm: nan(n),
    wallMs: nan(n),
    diverged: null,
  };
}

export const PER_ITERATION_METRICS = ['kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm', 'wallMs'] as const;

/** Store an evaluation at iteration k, or mark the run diverged at k when J is not finite. */
export function recordEvaluation(s: RunSeries, run: { diverged: number | null }, k: number, v: { J: number; entropy: number; optimalProb: ArrayLike<number> }): void {
  if (!Number.isFinite(v.J)) {
    run.diverged = k;
    s.diverged = k;
    return;
  }
  s.J[k] = v.J;
  s.entropy[k] = v.entropy;
  for (let t = 0; t < v.optimalProb.length; t++) s.optimalTokenProb[t][k] = v.optimalProb[t];
}
