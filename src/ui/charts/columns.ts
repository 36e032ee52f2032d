import { meanInterval, type MeanInterval } from '../../core/metrics/summary';
import { slotOf, storedAtOrBefore, type RunSeries } from '../../core/run/series';
import { METRIC, type ChartMetric } from '../../core/metrics/names';
import { runsPerAlgorithm, type Live } from '../live';
import type { Plan } from '../plan';

// Mean and 95% interval over one algorithm's seeds of a per-iteration array at given indices.
// Values at iterations every run has completed never change, so each (array, index) is averaged
// once and remembered for this `live`: a frame only averages its new points (the new endpoint, and
// new grid points), O(new points × seeds), and a decimation grid that coarsens (its stride doubles)
// reuses what the finer grid computed.

/** A per-iteration array of RunSeries (J, or a metric the metric chart shows), or a turn number for optimalTokenProb[turn]. */
export type Field = 'J' | ChartMetric | number;

interface ColumnCache {
  runs: Live['runs'];
  exp: Plan['exp'];
  iteration: number;
  maps: Map<string, Map<number, MeanInterval>>;
}

const caches = new WeakMap<Live, ColumnCache>();
/** Entries one (algorithm, field) keeps before those off the current grid are dropped. */
const KEEP = 2048;

function cacheFor(plan: Plan, live: Live): ColumnCache {
  let c = caches.get(live);
  if (!c || c.runs !== live.runs || c.exp !== plan.exp || live.iteration < c.iteration) {
    c = { runs: live.runs, exp: plan.exp, iteration: live.iteration, maps: new Map() };
    caches.set(live, c);
  }
  c.iteration = live.iteration;
  return c;
}

/**
 * field[i] of a run; NaN when absent. Metrics other than J of a long run are stored every
 * `every` iterations (series.ts): i then reads the stored value at or before it, at most
 * every − 1 iterations earlier (the charts' own grid only asks for stored indices and the last).
 */
function valueOf(r: RunSeries | undefined, field: Field, i: number): number {
  if (r === undefined) return NaN;
  if (field === 'J') return i < r.J.length ? r.J[i] : NaN;
  if (field === 'Jgamma') return r.Jgamma && i < r.Jgamma.length ? r.Jgamma[i] : NaN; // stored like J, at every iteration
  const last = typeof field === 'number' || METRIC[field].at === 'evaluation' ? r.iterations : r.iterations - 1;
  if (i > last) return NaN;
  const arr = typeof field === 'number' ? r.optimalTokenProb[field] : r[field];
  const j = slotOf(storedAtOrBefore(i, last, r.every), last, r.every);
  return arr && j < arr.length ? arr[j] : NaN;
}

/**
 * Stats over the seeds of algorithm `a` of field[i] for each i of `indices`. Indices up to
 * `finalUpTo` (whose values every run has completed) are remembered; later ones are recomputed.
 */
export function seedStats(plan: Plan, live: Live, a: number, field: Field, indices: readonly number[], finalUpTo: number): MeanInterval[] {
  const seeds = runsPerAlgorithm(plan.exp);
  const cache = cacheFor(plan, live);
  const key = `${a}:${field}`;
  let map = cache.maps.get(key);
  if (!map) cache.maps.set(key, (map = new Map()));
  const buf = new Float64Array(seeds);
  const out = indices.map((i) => {
    const hit = map.get(i);
    if (hit) return hit;
    for (let s = 0; s < seeds; s++) buf[s] = valueOf(live.runs[a * seeds + s], field, i);
    const m = meanInterval(buf);
    if (i <= finalUpTo) map.set(i, m);
    return m;
  });
  if (map.size > KEEP) {
    const keep = new Set(indices);
    for (const i of [...map.keys()]) if (!keep.has(i)) map.delete(i);
  }
  return out;
}
