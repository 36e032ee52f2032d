// The two statistics the verdicts count seeds with (docs/claims.md, "Terms"): the one-sided
// Fisher exact test on two seed counts, and the Clopper–Pearson 95% interval on a share.
// Both are exact for the small seed counts of an experiment (a few to a few hundred).

/** The Lanczos coefficients (g = 7, n = 9), made once: logGamma runs thousands of times per result. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
export function logGamma(x: number): number {
  const c = LANCZOS;
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x); // reflection
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ln C(n, k). */
export const logChoose = (n: number, k: number): number => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);

/**
 * One-sided Fisher exact test that the first share k1/n1 is greater than the second k2/n2: the
 * probability, with the margins fixed (K = k1 + k2 successes among n1 + n2 seeds), that the first
 * group holds k1 or more of them — the upper tail of the hypergeometric distribution. 1 when a
 * group is empty.
 */
export function fisherGreater(k1: number, n1: number, k2: number, n2: number): number {
  if (n1 <= 0 || n2 <= 0) return 1;
  const N = n1 + n2, K = k1 + k2;
  const denom = logChoose(N, n1);
  let p = 0;
  for (let x = k1; x <= Math.min(n1, K); x++) p += Math.exp(logChoose(K, x) + logChoose(N - K, n1 - x) - denom);
  return Math.min(1, p);
}

/** The "fewer/lower" rule of docs/claims.md: p < 0.05 (one-sided Fisher), or the shares differ by 0.25 or more. */
export const SHARE_GAP = 0.25;
export const FISHER_ALPHA = 0.05;

/** Whether share k1/n1 is clearly greater than k2/n2 (so the second is "fewer/lower"). */
export function clearlyMore(k1: number, n1: number, k2: number, n2: number): boolean {
  if (n1 <= 0 || n2 <= 0) return false;
  return k1 / n1 - k2 / n2 >= SHARE_GAP - 1e-12 || fisherGreater(k1, n1, k2, n2) < FISHER_ALPHA;
}

/** Continued fraction of the regularized incomplete beta (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1, d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d; if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d; h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d; if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta I_x(a, b) (a, b > 0), the beta distribution's CDF. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return incompleteBetaWith(x, a, b, logGamma(a + b) - logGamma(a) - logGamma(b));
}

/** incompleteBeta with lnB = ln Γ(a + b) − ln Γ(a) − ln Γ(b) given: the same operations in the same order. */
function incompleteBetaWith(x: number, a: number, b: number, lnB: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnB + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** The q-quantile of Beta(a, b), by bisection on incompleteBeta (to 1e-12); the Γ terms, the same at every step, computed once. */
export function betaQuantile(q: number, a: number, b: number): number {
  const lnB = logGamma(a + b) - logGamma(a) - logGamma(b);
  let lo = 0, hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBetaWith(mid, a, b, lnB) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Intervals already computed, by "k/n": each costs 120 incomplete-beta evaluations, and the verdicts ask for the same few counts again and again. */
const intervals = new Map<string, { lo: number; hi: number }>();
/** Intervals kept at most (a sweep's counts are still a few hundred). */
const MAX_KEPT_INTERVALS = 4096;

/** The Clopper–Pearson 95% interval on the share k/n: [Beta(0.025; k, n−k+1), Beta(0.975; k+1, n−k)], 0 and 1 at the ends. */
export function clopperPearson(k: number, n: number): { lo: number; hi: number } {
  if (n <= 0) return { lo: 0, hi: 1 };
  const key = `${k}/${n}`;
  const known = intervals.get(key);
  if (known) return { lo: known.lo, hi: known.hi };
  const interval = {
    lo: k <= 0 ? 0 : betaQuantile(0.025, k, n - k + 1),
    hi: k >= n ? 1 : betaQuantile(0.975, k + 1, n - k),
  };
  if (intervals.size >= MAX_KEPT_INTERVALS) intervals.clear();
  intervals.set(key, interval);
  return { lo: interval.lo, hi: interval.hi };
}
