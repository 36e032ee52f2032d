import type { MeanInterval } from '../../core/metrics/summary';
import { seedsIdentical } from '../../core/metrics/identical';
import { METRIC } from '../../core/metrics/names';
import { runsPerAlgorithm, type Live, type MetricName, type XAxis } from '../live';
import type { Plan } from '../plan';
import { chartDomain, drawnUpTo, effectiveAxis, finiteOrNull, jIsEstimate, liveFor, sampleIterations, xScale } from './axis';
import { seedStats } from './columns';
import { dropBuckets, type DropBucket } from './drops';

// Pure derivations (no React) from the store's `plan` and `live` to what the charts draw. Every
// function touches only the sampled iterations (sampleIterations: ≤ maxPoints of them), so a frame
// costs at most O(points × seeds) however long the experiment, and in practice only its new points
// (columns.ts remembers finished ones; drops.ts scans each iteration once). NaN (not reached,
// diverged) is skipped in means, and `n` says how many seeds a point averages.

export * from './axis';
export { dropBuckets, dropTolerance, type DropBucket } from './drops';
export * from './heatmap';

/** Gap floor: J* − J is drawn on a log scale, where 0 cannot be. */
export const GAP_FLOOR = 1e-6;

export interface SeriesPoint {
  /** Iteration. */
  k: number;
  x: number;
  mean: number | null;
  lo: number | null;
  hi: number | null;
  /** [lo, hi] of the 95% t-interval over seeds (zero width with one seed), null without data. */
  band: [number, number] | null;
  /** Seeds averaged (finite values). */
  n: number;
}

export interface ViolationMarker extends DropBucket {
  k: number;
  x: number;
  /** Mean J at k: where the marker sits. */
  y: number;
}

export interface AlgorithmInfo {
  index: number;
  id: string;
  label: string;
  color: string;
  /** x = k·scale. */
  scale: number;
}

export interface ChangeLine {
  iteration: number;
  x: number;
  /** Empty on the repeats of one change at other x (steps axis: algorithms step at different rates). */
  label: string;
  title: string;
}

export interface ReturnSeries {
  axis: XAxis;
  upTo: number;
  seeds: number;
  /** Every algorithm's seeds gave the same curve (exact mode from a uniform start): one curve each, not a mean over seeds. */
  identicalSeeds: boolean;
  Jstar: number;
  domain: [number, number];
  jIsEstimate: boolean;
  algorithms: (AlgorithmInfo & { points: SeriesPoint[]; markers: ViolationMarker[] })[];
  changes: ChangeLine[];
}

function info(plan: Plan, a: number, axis: XAxis): AlgorithmInfo {
  const line = plan.algorithms[a];
  return { index: a, id: line.id, label: line.label, color: line.color, scale: xScale(plan.exp, a, axis) };
}

function point(k: number, x: number, m: MeanInterval): SeriesPoint {
  const has = m.n > 0 && Number.isFinite(m.mean);
  return {
    k,
    x,
    mean: has ? m.mean : null,
    lo: has ? m.lo : null,
    hi: has ? m.hi : null,
    band: has ? [m.lo, m.hi] : null,
    n: m.n,
  };
}

const fmt = (v: number) => String(Number(v.toPrecision(3)));

/** Vertical lines at hot changes: one per distinct x (on the steps axis an lr change lands at a different x per algorithm). */
export function changeLines(plan: Plan, live: Live | null, axis: XAxis): ChangeLine[] {
  if (!live || live.changes.length === 0) return [];
  const byIteration = new Map<number, { text: string[]; algos: Set<number> }>();
  for (const c of live.changes) {
    const m = /^algorithms\[(\d+)\]\.(\w+)$/.exec(c.path);
    const a = m ? Number(m[1]) : -1;
    const name = m ? `${plan.algorithms[a]?.label ?? c.path} ${m[2]}` : c.path === 'optimizer.lr' ? 'lr' : c.path;
    const g = byIteration.get(c.iteration) ?? { text: [], algos: new Set<number>() };
    g.text.push(`${name} ${fmt(c.from)}→${fmt(c.to)}`);
    if (a >= 0 && a < plan.algorithms.length) g.algos.add(a);
    else plan.algorithms.forEach((_, i) => g.algos.add(i));
    byIteration.set(c.iteration, g);
  }
  const out: ChangeLine[] = [];
  for (const [iteration, g] of [...byIteration].sort((p, q) => p[0] - q[0])) {
    const xs = [...new Set([...g.algos].map((a) => iteration * xScale(plan.exp, a, axis)))].sort((p, q) => p - q);
    const title = `from iteration ${iteration}: ${g.text.join(', ')}`;
    xs.forEach((x, i) => out.push({ iteration, x, label: i === 0 ? g.text.join(', ') : '', title }));
  }
  return out;
}

/**
 * Mean J over seeds with its 95% band per algorithm at the sampled iterations, and where seeds' J
 * dropped: violations aggregated into at most maxMarkers buckets per algorithm (a coarser grid of
 * the same power-of-two strides, so every marker sits on a drawn point).
 */
export function returnSeries(plan: Plan | null, live: Live | null, axis: XAxis, maxPoints = 300, maxMarkers = 40): ReturnSeries | null {
  if (!plan) return null;
  const ax = effectiveAxis(plan.exp, axis);
  const l = liveFor(plan, live);
  const upTo = drawnUpTo(plan, l);
  const ks = upTo < 0 ? [] : sampleIterations(upTo, maxPoints);
  const markerKs = upTo < 0 ? [] : sampleIterations(upTo, Math.min(maxPoints, maxMarkers));
  const seeds = runsPerAlgorithm(plan.exp);
  const algorithms = plan.algorithms.map((_, a) => {
    const base = info(plan, a, ax);
    const stats = l ? seedStats(plan, l, a, 'J', ks, upTo) : [];
    const points = stats.map((m, j) => point(ks[j], ks[j] * base.scale, m));
    const at = new Map(points.map((p) => [p.k, p]));
    const markers: ViolationMarker[] = [];
    if (l)
      for (const b of dropBuckets(plan, l, a, markerKs)) {
        const y = at.get(b.to)?.mean;
        if (y !== null && y !== undefined) markers.push({ ...b, k: b.to, x: b.to * base.scale, y });
      }
    return { ...base, points, markers };
  });
  const n = runsPerAlgorithm(plan.exp);
  const identicalSeeds =
    l !== null && upTo >= 0 && seeds > 1 && plan.algorithms.every((_, a) => seedsIdentical(l.runs.slice(a * n, (a + 1) * n).map((r) => r.J), upTo, ks.length));
  return {
    axis: ax,
    upTo,
    seeds,
    identicalSeeds,
    Jstar: plan.Jstar,
    domain: chartDomain(plan.rewardRange),
    jIsEstimate: jIsEstimate(plan.exp),
    algorithms,
    changes: changeLines(plan, l, ax),
  };
}

export interface SeedRow {
  k: number;
  x: number;
  mean: number | null;
  n: number;
  /** J of the drawn seeds (null: not reached or diverged). */
  seeds: (number | null)[];
}

export interface SeedLines extends AlgorithmInfo {
  /** Seeds drawn (the first maxSeeds) and seeds in all. */
  drawn: number;
  total: number;
  rows: SeedRow[];
}

/** One algorithm's individual seeds (the first maxSeeds) and the mean over all seeds, decimated. */
export function seedLines(plan: Plan | null, live: Live | null, algoIndex: number, axis: XAxis, maxSeeds = 32, maxPoints = 200): SeedLines | null {
  if (!plan || algoIndex < 0 || algoIndex >= plan.algorithms.length) return null;
  const base = info(plan, algoIndex, effectiveAxis(plan.exp, axis));
  const seeds = runsPerAlgorithm(plan.exp), drawn = Math.min(seeds, Math.max(0, maxSeeds));
  const l = liveFor(plan, live);
  const upTo = drawnUpTo(plan, l);
  const ks = !l || upTo < 0 ? [] : sampleIterations(upTo, maxPoints);
  const stats = l ? seedStats(plan, l, algoIndex, 'J', ks, upTo) : [];
  const runs = l ? Array.from({ length: drawn }, (_, s) => l.runs[algoIndex * seeds + s]) : [];
  const rows: SeedRow[] = ks.map((k, j) => ({
    k,
    x: k * base.scale,
    mean: finiteOrNull(stats[j].mean),
    n: stats[j].n,
    seeds: runs.map((r) => (r ? finiteOrNull(r.J[k]) : null)),
  }));
  return { ...base, drawn, total: seeds, rows };
}

export interface GapPoint {
  k: number;
  x: number;
  /** max(J* − mean J, GAP_FLOOR); null without data. */
  gap: number | null;
  n: number;
}

/** J* − mean J per algorithm, floored at GAP_FLOOR for the log scale. */
export function gapSeries(plan: Plan | null, live: Live | null, axis: XAxis, maxPoints = 300): (AlgorithmInfo & { points: GapPoint[] })[] {
  const r = returnSeries(plan, live, axis, maxPoints);
  if (!r || !plan) return [];
  return r.algorithms.map(({ points, markers: _m, ...base }) => ({
    ...base,
    points: points.map((p) => ({ k: p.k, x: p.x, n: p.n, gap: p.mean === null ? null : Math.max(plan.Jstar - p.mean, GAP_FLOOR) })),
  }));
}

export interface MetricPoint {
  /** Iteration the value is drawn at (k + 1 for per-iteration metrics: the value of iteration k→k+1). */
  k: number;
  x: number;
  value: number | null;
  n: number;
}

/** Per algorithm the mean over seeds of a metric at the sampled iterations. */
export function metricSeries(plan: Plan | null, live: Live | null, metric: MetricName, axis: XAxis, maxPoints = 300): (AlgorithmInfo & { points: MetricPoint[] })[] {
  if (!plan) return [];
  const ax = effectiveAxis(plan.exp, axis);
  const l = liveFor(plan, live);
  const upTo = drawnUpTo(plan, l);
  const perIteration = METRIC[metric].at === 'update';
  // entropy[k] is at iteration k; metric[k] of the others is iteration k→k+1, drawn at k+1
  const ks = upTo < 0 ? [] : sampleIterations(upTo, maxPoints).filter((k) => !perIteration || k >= 1);
  const indices = ks.map((k) => (perIteration ? k - 1 : k));
  return plan.algorithms.map((_, a) => {
    const base = info(plan, a, ax);
    const stats = l ? seedStats(plan, l, a, metric, indices, upTo) : [];
    const points = stats.map((m, j) => ({ k: ks[j], x: ks[j] * base.scale, value: finiteOrNull(m.mean), n: m.n }));
    return { ...base, points };
  });
}
