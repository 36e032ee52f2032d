import { describe, expect, it } from 'vitest';
import { betaQuantile, clearlyMore, clopperPearson, fisherGreater, incompleteBeta, logGamma } from '../src/core/claims/stats';

describe('log-gamma and the incomplete beta', () => {
  it('betaQuantile (its Γ terms computed once) is the bisection on incompleteBeta, bit for bit, for the counts of 1 to 64 seeds', () => {
    const bisect = (q: number, a: number, b: number) => {
      let lo = 0, hi = 1;
      for (let i = 0; i < 60; i++) {
        const mid = (lo + hi) / 2;
        if (incompleteBeta(mid, a, b) < q) lo = mid;
        else hi = mid;
      }
      return (lo + hi) / 2;
    };
    for (let n = 1; n <= 64; n++)
      for (let k = 0; k <= n; k++) {
        if (k > 0) expect(Object.is(betaQuantile(0.025, k, n - k + 1), bisect(0.025, k, n - k + 1))).toBe(true);
        if (k < n) expect(Object.is(betaQuantile(0.975, k + 1, n - k), bisect(0.975, k + 1, n - k))).toBe(true);
      }
  });

  it('ln Γ on integers and a half-integer', () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(21)).toBeCloseTo(Math.log(2432902008176640000), 10);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });

  it('I_x(a, b) against closed forms: I_x(1, b) = 1 − (1−x)^b, I_x(a, 1) = x^a, I_x(2, 2) = 3x² − 2x³', () => {
    expect(incompleteBeta(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 12);
    expect(incompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 12);
    expect(incompleteBeta(0.8, 2, 2)).toBeCloseTo(3 * 0.64 - 2 * 0.512, 12);
    expect(incompleteBeta(0, 2, 2)).toBe(0);
    expect(incompleteBeta(1, 2, 2)).toBe(1);
  });
});

describe('Fisher exact test, one-sided', () => {
  it('hand-computed hypergeometric tails', () => {
    // 4/4 vs 0/4: only the table itself, C(4,4)·C(4,0)/C(8,4) = 1/70
    expect(fisherGreater(4, 4, 0, 4)).toBeCloseTo(1 / 70, 12);
    // 3/4 vs 1/4: (C(4,3)·C(4,1) + C(4,4)·C(4,0)) / 70 = 17/70
    expect(fisherGreater(3, 4, 1, 4)).toBeCloseTo(17 / 70, 12);
    // 5/10 vs 1/10: (C(6,5)·C(14,5) + C(6,6)·C(14,4)) / C(20,10) = (12012 + 1001) / 184756
    expect(fisherGreater(5, 10, 1, 10)).toBeCloseTo(13013 / 184756, 12);
    // the other direction is the other tail: p(0/4 more than 4/4) = 1
    expect(fisherGreater(0, 4, 4, 4)).toBeCloseTo(1, 12);
    expect(fisherGreater(2, 4, 2, 4)).toBeCloseTo((36 + 16 + 1) / 70, 12);
  });

  it('"clearly more": p < 0.05 or a gap of 0.25 or more', () => {
    expect(clearlyMore(4, 4, 0, 4)).toBe(true); // p = 0.014, and gap 1
    expect(clearlyMore(3, 4, 2, 4)).toBe(true); // gap exactly 0.25 (p = 0.5)
    expect(clearlyMore(5, 20, 1, 20)).toBe(false); // gap 0.2, p = 0.091
    expect(fisherGreater(5, 20, 1, 20)).toBeGreaterThan(0.05);
    expect(clearlyMore(12, 60, 3, 60)).toBe(true); // gap 0.15 but p < 0.05
    expect(fisherGreater(12, 60, 3, 60)).toBeLessThan(0.05);
    expect(clearlyMore(1, 1, 0, 0)).toBe(false); // an empty group decides nothing
  });
});

describe('Clopper–Pearson 95% intervals', () => {
  it('known values', () => {
    const r = (k: number, n: number) => Object.values(clopperPearson(k, n)).map((v) => Math.round(v * 1e4) / 1e4);
    expect(r(0, 10)).toEqual([0, 0.3085]);
    expect(r(5, 10)).toEqual([0.1871, 0.8129]);
    expect(r(10, 10)).toEqual([0.6915, 1]);
    expect(clopperPearson(0, 10).hi).toBeCloseTo(1 - 0.025 ** (1 / 10), 9); // closed form at k = 0
    expect(clopperPearson(1, 4).lo).toBeCloseTo(1 - 0.975 ** (1 / 4), 9); // closed form at k = 1
    expect(r(28, 32)).toEqual([0.7101, 0.9649]);
  });
});

describe('numbers in reasons for any finite reward range', () => {
  it('a subnormal reward range is written in exponent form, never asking toFixed for more than 100 digits', async () => {
    const { jDecimals, MAX_J_DECIMALS, makeFmt } = await import('../src/core/claims/text');
    expect(jDecimals(1)).toBe(2);
    expect(jDecimals(0.001)).toBe(4);
    expect(jDecimals(2.4703e-320)).toBe(MAX_J_DECIMALS);
    const f = makeFmt(2.4703e-320);
    expect(f.num(2.4703e-320)).toBe('2.47e-320');
    expect(f.drop(1e-321)).toBe('1.0e-321');
    expect(makeFmt(1).num(0.3)).toBe('0.30');
    expect(makeFmt(1e308).num(1e307)).toBe(1e307.toFixed(2));
  });
});
