import { violations, violationTolerance } from '../../core/metrics/summary';
import { rewardRange } from '../../core/run/result';
import { runsPerAlgorithm, type Live } from '../live';
import type { Plan } from '../plan';
import { jIsEstimate } from './axis';

// Monotonic-improvement violations (docs/math.md "What is measured"), found incrementally: each frame scans only
// the iterations that arrived since the last one (with `violations` on a subarray), so the total
// cost over a whole run is one pass over the data. Per run a bitset marks the iterations where J
// dropped; per algorithm a prefix sum of drops lets empty buckets be skipped in O(1).

interface DropIndex {
  runs: Live['runs'];
  tol: number;
  /** Iterations scanned: bits and prefix are exact for 0..scanned. */
  scanned: number;
  bits: Uint32Array[];
  /** Per algorithm: prefix[k] = drops (over seeds) at iterations 1..k. */
  prefix: Float64Array[];
}

const cache = new WeakMap<Live, DropIndex>();

/** Tolerance of a drop: Infinity (none counted) when J is a Monte-Carlo estimate. */
export function dropTolerance(plan: Plan): number {
  return jIsEstimate(plan.exp) ? Infinity : violationTolerance(rewardRange(plan.exp));
}

function index(plan: Plan, live: Live, upTo: number): DropIndex {
  const tol = dropTolerance(plan);
  const n = plan.exp.iterations + 1;
  let d = cache.get(live);
  if (!d || d.runs !== live.runs || d.tol !== tol || d.scanned > upTo || d.prefix.length !== plan.exp.algorithms.length) {
    d = {
      runs: live.runs,
      tol,
      scanned: 0,
      bits: live.runs.map(() => new Uint32Array(Math.ceil(n / 32))),
      prefix: plan.exp.algorithms.map(() => new Float64Array(n)),
    };
    cache.set(live, d);
  }
  if (upTo > d.scanned && Number.isFinite(tol)) {
    const seeds = runsPerAlgorithm(plan.exp), from = d.scanned;
    for (let a = 0; a < d.prefix.length; a++) {
      const p = d.prefix[a];
      for (let k = from + 1; k <= upTo; k++) p[k] = 0;
      for (let s = 0; s < seeds; s++) {
        const r = a * seeds + s, run = live.runs[r];
        if (!run) continue;
        for (const j of violations(run.J.subarray(from, upTo + 1), tol)) {
          const k = from + j;
          d.bits[r][k >>> 5] |= 1 << (k & 31);
          p[k]++;
        }
      }
      for (let k = from + 1; k <= upTo; k++) p[k] += p[k - 1];
    }
  }
  d.scanned = Math.max(d.scanned, upTo);
  return d;
}

/** True when any bit in lo..hi (inclusive) is set. */
function anyBit(bits: Uint32Array, lo: number, hi: number): boolean {
  if (hi < lo) return false;
  const w0 = lo >>> 5, w1 = hi >>> 5;
  for (let w = w0; w <= w1; w++) {
    let mask = 0xffffffff;
    if (w === w0) mask &= 0xffffffff << (lo & 31);
    if (w === w1) mask &= 0xffffffff >>> (31 - (hi & 31));
    if ((bits[w] & mask) !== 0) return true;
  }
  return false;
}

export interface DropBucket {
  /** Iterations from..to (inclusive) the bucket covers; it is drawn at `to`. */
  from: number;
  to: number;
  /** Seeds whose J dropped at least once in the bucket. */
  seeds: number;
  /** Drops counted over all seeds and iterations of the bucket. */
  drops: number;
}

/**
 * Drops of one algorithm aggregated into the buckets (k_{i−1}, k_i] of the sampled iterations
 * `ks` (ascending, ks[last] ≤ iterations completed). Buckets without drops are left out.
 */
export function dropBuckets(plan: Plan, live: Live, algoIndex: number, ks: number[]): DropBucket[] {
  const upTo = ks.length ? ks[ks.length - 1] : 0;
  const d = index(plan, live, upTo);
  if (!Number.isFinite(d.tol)) return [];
  const p = d.prefix[algoIndex], seeds = runsPerAlgorithm(plan.exp), out: DropBucket[] = [];
  for (let i = 1; i < ks.length; i++) {
    const from = ks[i - 1] + 1, to = ks[i];
    const drops = p[to] - p[from - 1];
    if (drops <= 0) continue;
    let n = 0;
    for (let s = 0; s < seeds; s++) if (anyBit(d.bits[algoIndex * seeds + s], from, to)) n++;
    out.push({ from, to, seeds: n, drops });
  }
  return out;
}
