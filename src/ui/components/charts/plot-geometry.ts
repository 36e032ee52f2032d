// Pure geometry of the line charts (no React, no DOM): scales, tick values, SVG path strings and
// the point nearest the pointer. Plot.tsx draws with them.

export type Domain = [number, number];

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Maps a data value to a pixel; values outside the domain are clamped to its edge. */
export type Scale = (v: number) => number;

/** b − a for any finite a, b, halved (its double may overflow: 1e308 − (−1e308)). */
const halfSpan = (a: number, b: number) => b / 2 - a / 2;

export function linearScale([d0, d1]: Domain, [r0, r1]: Domain): Scale {
  if (!Number.isFinite(d1 - d0)) {
    // the span of a ±1e308 domain overflows float64: in halves
    const half = halfSpan(d0, d1);
    return (v) => r0 + (halfSpan(d0, Math.min(d1, Math.max(d0, v))) / half) * (r1 - r0);
  }
  const span = d1 - d0 || 1;
  return (v) => r0 + ((Math.min(d1, Math.max(d0, v)) - d0) / span) * (r1 - r0);
}

export function logScale([d0, d1]: Domain, [r0, r1]: Domain): Scale {
  const l0 = Math.log10(d0), span = Math.log10(d1) - l0 || 1;
  return (v) => r0 + ((Math.log10(Math.min(d1, Math.max(d0, v))) - l0) / span) * (r1 - r0);
}

/** The inverse of a linear scale: the data value at a pixel. */
export function invertLinear([d0, d1]: Domain, [r0, r1]: Domain, px: number): number {
  const f = (px - r0) / (r1 - r0 || 1);
  if (!Number.isFinite(d1 - d0)) return 2 * (d0 / 2 + f * halfSpan(d0, d1)); // d0 + f·(d1 − d0) in halves: ±1e308 overflows
  return d0 + f * (d1 - d0);
}

/** A round step (1, 2 or 5 × 10^e) giving about `count` intervals over [lo, hi] (at least 1 when integer). */
export function tickStep(lo: number, hi: number, count: number, integer = false): number {
  // (hi − lo) / count without overflowing: the span of ±1e308 is past float64's range
  const span = Math.abs(hi - lo);
  const raw = Number.isFinite(span) ? span / Math.max(1, count) : (Math.abs(halfSpan(lo, hi)) / Math.max(1, count)) * 2;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const err = raw / power;
  const step = (err >= Math.sqrt(50) ? 10 : err >= Math.sqrt(10) ? 5 : err >= Math.sqrt(2) ? 2 : 1) * power;
  return integer ? Math.max(1, Math.round(step)) : step;
}

/** Ticks one axis ever draws; past it the range is not one a step can cover (the ends are drawn instead). */
const MAX_TICKS = 100;

/**
 * Multiples of tickStep inside [lo, hi], free of floating-point noise. Safe for any finite range:
 * one overflowing float64 (±1e308), or so far from zero that the step is below the numbers'
 * resolution (1e300 ± 1e284), gives its two ends; never more than MAX_TICKS values.
 */
export function niceTicks(lo: number, hi: number, count: number, integer = false): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) return [];
  if (hi === lo) return [lo];
  const step = tickStep(lo, hi, count, integer);
  if (!(step > 0) || !Number.isFinite(step)) return [lo, hi];
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  // the indices must be exact integers (|i| < 2^53) and few
  if (!Number.isFinite(first) || !Number.isFinite(last) || Math.abs(first) > 2 ** 52 || Math.abs(last) > 2 ** 52 || last - first > MAX_TICKS) return [lo, hi];
  const digits = Math.min(100, Math.max(0, -Math.floor(Math.log10(step)) + 1));
  const out: number[] = [];
  for (let i = first; i <= last; i++) {
    const v = Number((i * step).toFixed(digits));
    if (Number.isFinite(v) && v >= lo - step * 1e-9 && v <= hi + step * 1e-9) out.push(v);
  }
  return out.length ? out : [lo, hi];
}

/** [0, top] with top the first round tick at or above max, and its ticks. */
export function zeroBasedDomain(max: number, count = 5): { domain: Domain; ticks: number[] } {
  if (!(max > 0) || !Number.isFinite(max)) return { domain: [0, 1], ticks: niceTicks(0, 1, count) };
  const step = tickStep(0, max, count);
  const top = Number((Math.ceil(max / step - 1e-9) * step).toPrecision(12));
  return { domain: [0, top], ticks: niceTicks(0, top, count) };
}

/** [min, max] of the series' x (points sorted by x), from `from` when given; [lo, lo + 1] for a single x, so it sits at the left edge. */
export function xExtent(series: readonly { points: readonly { x: number }[] }[], from?: number): Domain {
  let lo = from ?? Infinity, hi = -Infinity;
  for (const { points } of series) {
    if (points.length === 0) continue;
    lo = Math.min(lo, points[0].x);
    hi = Math.max(hi, points[points.length - 1].x);
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (!(hi > lo)) return [lo, lo + 1];
  return [lo, hi];
}

const f1 = (v: number) => v.toFixed(1);
/** A small closed circle, for a point with no neighbour to draw a segment to. */
const dot = (x: number, y: number) => `M${f1(x - 2.5)},${f1(y)}a2.5,2.5 0 1,0 5,0a2.5,2.5 0 1,0 -5,0`;

/** Polyline through the points with a value; a gap where the value is null, a dot for a lone point. */
export function linePath<P extends { x: number }>(points: readonly P[], value: (p: P) => number | null, sx: Scale, sy: Scale): string {
  let d = '';
  let run: string[] = [];
  let first: [number, number] = [0, 0];
  const flush = () => {
    if (run.length === 1) d += dot(...first);
    else if (run.length > 1) d += `M${run.join('L')}`;
    run = [];
  };
  for (const p of points) {
    const v = value(p);
    if (v === null || !Number.isFinite(v)) {
      flush();
      continue;
    }
    const x = sx(p.x), y = sy(v);
    if (run.length === 0) first = [x, y];
    run.push(`${f1(x)},${f1(y)}`);
  }
  flush();
  return d;
}

/** Closed outline of [lo, hi] over each run of points with a band (a run of one point is left out). */
export function bandPath<P extends { x: number; band: [number, number] | null }>(points: readonly P[], sx: Scale, sy: Scale): string {
  let d = '';
  let run: P[] = [];
  const flush = () => {
    if (run.length > 1) {
      d += `M${run.map((p) => `${f1(sx(p.x))},${f1(sy(p.band![1]))}`).join('L')}`;
      d += `L${run.reverse().map((p) => `${f1(sx(p.x))},${f1(sy(p.band![0]))}`).join('L')}Z`;
    }
    run = [];
  };
  for (const p of points) {
    if (p.band) run.push(p);
    else flush();
  }
  flush();
  return d;
}

/** Index of the point whose x is nearest to `x` (points sorted by x), or −1 when there are none. */
export function nearestIndex(points: readonly { x: number }[], x: number): number {
  if (points.length === 0) return -1;
  let lo = 0, hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid].x <= x) lo = mid;
    else hi = mid;
  }
  return Math.abs(points[hi].x - x) < Math.abs(points[lo].x - x) ? hi : lo;
}
