// Across-seed summaries (docs/math.md "What is measured"): mean with a 95% interval, share of seeds within
// 0.01 of J*, iterations until J ≥ J_0 + 0.95·(J* − J_0), and monotonic-improvement violations.

const T_TABLE = [12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818, 2.4469119, 2.3646243, 2.3060041, 2.2621572, 2.2281389];

/** Two-sided 95% Student-t quantile t_{0.975, df}. */
export function tQuantile975(df: number): number {
  if (df <= 0) return NaN;
  if (df <= T_TABLE.length) return T_TABLE[Math.ceil(df) - 1];
  // Cornish–Fisher expansion around z = 1.959963984540054 (error < 1e-4 for df > 10).
  const z = 1.959963984540054;
  const z3 = z ** 3, z5 = z ** 5, z7 = z ** 7, z9 = z ** 9;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3) +
    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df ** 4)
  );
}

export interface MeanInterval {
  mean: number;
  lo: number;
  hi: number;
  n: number;
}

/** Mean and 95% t-interval of the finite values. */
export function meanInterval(values: ArrayLike<number>): MeanInterval {
  let n = 0, s = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) { n++; s += values[i]; }
  if (n === 0) return { mean: NaN, lo: NaN, hi: NaN, n };
  const mean = s / n;
  if (n === 1) return { mean, lo: mean, hi: mean, n };
  let ss = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) ss += (values[i] - mean) ** 2;
  const half = tQuantile975(n - 1) * Math.sqrt(ss / (n - 1) / n);
  return { mean, lo: mean - half, hi: mean + half, n };
}

/** A drop J_{k+1} < J_k − 1e-6·(max R̄ − min R̄) is a monotonic-improvement violation. */
export function violationTolerance(rewardRange: number): number {
  return 1e-6 * rewardRange;
}

/** A seed is at J* when its final J ≥ J* − AT_OPTIMUM·(max R̄ − min R̄) (docs/claims.md "Terms"): in units of the rewards' range, so rescaling the rewards changes no count. */
export const AT_OPTIMUM = 0.01;

/** The distance from J* within which a final J counts as at J*. */
export function atOptimumTolerance(rewardRange: number): number {
  return AT_OPTIMUM * rewardRange;
}

/** Iterations k+1 at which J dropped. */
export function violations(J: ArrayLike<number>, tol: number): number[] {
  const out: number[] = [];
  for (let k = 0; k + 1 < J.length; k++) if (J[k + 1] < J[k] - tol) out.push(k + 1);
  return out;
}

/** First iteration k < end with J_k ≥ J_0 + 0.95·(J* − J_0), or null. */
export function iterationsTo95(J: ArrayLike<number>, Jstar: number, end = J.length): number | null {
  const goal = J[0] + 0.95 * (Jstar - J[0]);
  for (let k = 0; k < end; k++) if (J[k] >= goal - 1e-12) return k;
  return null;
}

export interface AlgorithmSummary {
  finalJ: MeanInterval;
  /** Share of seeds, not diverged, whose final J is within atOptimumTolerance of J*. */
  atOptimum: number;
  /** Per seed: iterations to 95% of the way to J* (null = not reached). */
  itersTo95: (number | null)[];
  /** Median over seeds of itersTo95 (seeds that never got there count as ∞); null if most did not. */
  medianItersTo95: number | null;
  violations: number; // total over seeds
  seedsWithViolations: number;
  /** Per seed: the iteration it diverged at (its first missing J: a NaN or ∞ appeared in the update before), or null. */
  diverged: (number | null)[];
}

/** The two tolerances of a summary: of a drop (violationTolerance; ∞ counts none) and of being at J* (atOptimumTolerance). */
export interface SummaryTolerances {
  violation: number;
  atOptimum: number;
}

/** `diverged`: per run, the iteration it diverged at or null (RunSeries.diverged); none when left out. */
export function summarize(runsJ: ArrayLike<number>[], Jstar: number, tol: SummaryTolerances, diverged?: readonly (number | null)[]): AlgorithmSummary {
  const finals = runsJ.map((J) => lastFinite(J));
  const its = runsJ.map((J) => iterationsTo95(J, Jstar));
  const sorted = its.map((v) => (v === null ? Infinity : v)).sort((a, b) => a - b);
  const med = sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : Infinity;
  let total = 0, seeds = 0;
  for (const J of runsJ) {
    const v = violations(J, tol.violation).length;
    total += v;
    if (v) seeds++;
  }
  return {
    finalJ: meanInterval(finals),
    // a diverged seed is not at J* whatever its last finite J (as the claims count it, docs/claims.md)
    atOptimum: finals.filter((f, r) => (diverged?.[r] ?? null) === null && Number.isFinite(f) && f >= Jstar - tol.atOptimum).length / Math.max(1, finals.length),
    itersTo95: its,
    medianItersTo95: Number.isFinite(med) ? med : null,
    violations: total,
    seedsWithViolations: seeds,
    diverged: runsJ.map((_, r) => diverged?.[r] ?? null),
  };
}

/**
 * "at iteration 39", "at iterations 12 and 39", "at iterations 3, 5 and 8", or past four distinct
 * iterations "at iterations 3 to 40": where the diverged seeds diverged (null when none did).
 */
export function divergedWhere(diverged: readonly (number | null)[]): string | null {
  const at = [...new Set(diverged.filter((d): d is number => d !== null))].sort((a, b) => a - b);
  if (at.length === 0) return null;
  if (at.length === 1) return `at iteration ${at[0]}`;
  if (at.length > 4) return `at iterations ${at[0]} to ${at[at.length - 1]}`;
  return `at iterations ${at.slice(0, -1).join(', ')} and ${at[at.length - 1]}`;
}

export function lastFinite(J: ArrayLike<number>): number {
  for (let k = J.length - 1; k >= 0; k--) if (Number.isFinite(J[k])) return J[k];
  return NaN;
}

/** Per-iteration mean and 95% band over seeds. */
export function bandOverSeeds(runsJ: ArrayLike<number>[], length: number): { mean: Float64Array; lo: Float64Array; hi: Float64Array } {
  const mean = new Float64Array(length), lo = new Float64Array(length), hi = new Float64Array(length);
  const col = new Float64Array(runsJ.length);
  for (let k = 0; k < length; k++) {
    for (let r = 0; r < runsJ.length; r++) col[r] = runsJ[r][k];
    const m = meanInterval(col);
    mean[k] = m.mean;
    lo[k] = m.lo;
    hi[k] = m.hi;
  }
  return { mean, lo, hi };
}
