import { describe, expect, it } from 'vitest';
import {
  bandPath,
  invertLinear,
  linearScale,
  linePath,
  logScale,
  nearestIndex,
  niceTicks,
  tickStep,
  xExtent,
  zeroBasedDomain,
} from '../src/ui/components/charts/plot-geometry';

describe('plot scales', () => {
  it('maps the domain onto the range, clamping values outside it', () => {
    const s = linearScale([0, 10], [100, 0]);
    expect(s(0)).toBe(100);
    expect(s(5)).toBe(50);
    expect(s(10)).toBe(0);
    expect(s(20)).toBe(0);
    expect(s(-1)).toBe(100);
    expect(invertLinear([0, 10], [100, 0], 25)).toBe(7.5);
  });

  it('a log scale puts each power of ten an equal step apart', () => {
    const s = logScale([1e-6, 1], [60, 0]);
    expect(s(1)).toBeCloseTo(0, 9);
    expect(s(1e-3)).toBeCloseTo(30, 9);
    expect(s(1e-6)).toBeCloseTo(60, 9);
    expect(s(1e-9)).toBeCloseTo(60, 9); // clamped to the floor
  });

  it('a degenerate domain does not divide by zero', () => {
    expect(Number.isFinite(linearScale([3, 3], [0, 10])(3))).toBe(true);
  });
});

describe('ticks', () => {
  it('picks round steps of 1, 2 or 5 × 10^e', () => {
    expect(tickStep(0, 1, 5)).toBeCloseTo(0.2, 12);
    expect(tickStep(0, 200, 5)).toBe(50);
    expect(tickStep(0, 3, 5, true)).toBe(1); // integers only
    expect(niceTicks(0, 200, 5, true)).toEqual([0, 50, 100, 150, 200]);
    expect(niceTicks(0.14, 1, 5)).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('has no floating-point noise and stays inside the range', () => {
    const t = niceTicks(0, 0.7, 7);
    expect(t).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
    for (const v of niceTicks(-3.7, 12.2, 5)) expect(v >= -3.7 && v <= 12.2).toBe(true);
  });

  it('[0, auto]: the top is the first round tick at or above the maximum', () => {
    expect(zeroBasedDomain(1.1)).toEqual({ domain: [0, 1.2], ticks: [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2] });
    expect(zeroBasedDomain(0.0031, 4).domain[1]).toBeCloseTo(0.004, 12); // step 0.001
    expect(zeroBasedDomain(NaN).domain).toEqual([0, 1]);
    expect(zeroBasedDomain(0).domain).toEqual([0, 1]);
  });
});

describe('paths', () => {
  const id = (v: number) => v;
  it('draws a polyline with a gap at null values and a dot for a lone point', () => {
    const pts = [
      { x: 0, v: 1 },
      { x: 1, v: 2 },
      { x: 2, v: null },
      { x: 3, v: 4 },
    ];
    const d = linePath(pts, (p) => p.v, id, id);
    expect(d.startsWith('M0.0,1.0L1.0,2.0')).toBe(true);
    expect(d).toContain('M0.5,4.0a2.5,2.5 0 1,0 5,0'); // the dot at (3, 4)
    expect(linePath([], (p: { x: number }) => p.x, id, id)).toBe('');
  });

  it('outlines a band along hi and back along lo', () => {
    const pts = [
      { x: 0, band: [0, 2] as [number, number] },
      { x: 1, band: [1, 3] as [number, number] },
      { x: 2, band: null },
    ];
    expect(bandPath(pts, id, id)).toBe('M0.0,2.0L1.0,3.0L1.0,1.0L0.0,0.0Z');
  });
});

describe('pointer', () => {
  it('finds the point nearest an x', () => {
    const pts = [0, 4, 8, 16].map((x) => ({ x }));
    expect(nearestIndex(pts, -5)).toBe(0);
    expect(nearestIndex(pts, 5)).toBe(1);
    expect(nearestIndex(pts, 7)).toBe(2);
    expect(nearestIndex(pts, 13)).toBe(3);
    expect(nearestIndex(pts, 99)).toBe(3);
    expect(nearestIndex([], 1)).toBe(-1);
  });

  it('the x range of the series, widened for a single x', () => {
    expect(xExtent([{ points: [{ x: 2 }, { x: 10 }] }, { points: [{ x: 0 }, { x: 40 }] }])).toEqual([0, 40]);
    expect(xExtent([{ points: [{ x: 5 }, { x: 9 }] }], 0)).toEqual([0, 9]);
    expect(xExtent([{ points: [{ x: 0 }] }])).toEqual([0, 1]);
    expect(xExtent([])).toEqual([0, 1]);
  });
});

describe('ticks and scales for any finite range (rewards of ±1e308)', () => {
  const extremes: [number, number][] = [
    [-1e308, 1e308],
    [-Number.MAX_VALUE, Number.MAX_VALUE],
    [0, Number.MAX_VALUE],
    [-Number.MAX_VALUE, 0],
    [1e300, 1e300 * (1 + 1e-15)],
    [1e15, 1e15 + 0.125],
    [-5e-324, 5e-324],
    [0, 1e-323],
    [1e-300, 2e-300],
    [-1e308, -1e307],
  ];
  for (const [lo, hi] of extremes)
    it(`niceTicks(${lo}, ${hi}): a few finite ticks inside the range, in order`, () => {
      for (const count of [1, 2, 5, 7]) {
        const t = niceTicks(lo, hi, count);
        expect(t.length).toBeGreaterThanOrEqual(1);
        expect(t.length).toBeLessThanOrEqual(101);
        for (const v of t) {
          expect(Number.isFinite(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(lo);
          expect(v).toBeLessThanOrEqual(hi);
        }
        for (let i = 1; i < t.length; i++) expect(t[i]!).toBeGreaterThan(t[i - 1]!);
      }
      const s = linearScale([lo, hi], [0, 100]);
      expect(s(lo)).toBe(0);
      expect(s(hi)).toBe(100);
      const near = (got: number, want: number) => expect(Math.abs(got - want)).toBeLessThanOrEqual(Math.abs(want) * 1e-12 + 1e-323);
      near(invertLinear([lo, hi], [0, 100], 0), lo);
      near(invertLinear([lo, hi], [0, 100], 100), hi);
    });

  it('the ±1e308 span gives round ticks, not just the ends', () => {
    expect(niceTicks(-1e308, 1e308, 4)).toEqual([-1e308, -5e307, 0, 5e307, 1e308]);
    expect(linearScale([-1e308, 1e308], [0, 100])(0)).toBe(50);
    expect(tickStep(-1e308, 1e308, 4)).toBe(5e307);
  });

  it('ordinary ranges give the same ticks as before (the halving is exact)', () => {
    expect(niceTicks(0, 200, 5, true)).toEqual([0, 50, 100, 150, 200]);
    expect(linearScale([2, 4], [0, 10])(3)).toBe(5);
    expect(invertLinear([2, 4], [0, 10], 5)).toBe(3);
  });
});
