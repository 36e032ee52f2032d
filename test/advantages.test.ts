import { describe, expect, it } from 'vitest';
import fixture from './fixtures/advantages.json';
import { computeAdvantages } from '../src/core/algo/advantages';

interface Case {
  id: string;
  input: { rewards: number[]; groups: (string | number)[]; estimator: 'grae' | 'rloo'; normalization: 'none' | 'group' | 'batch' };
  expected: { advantages: number[] };
}

describe('advantages match the verl/TRL reference vectors (unbiased std, ε = 1e-6)', () => {
  const cases = (fixture as { cases: Case[] }).cases;
  it('has every case of the fixture', () => expect(cases.length).toBe(12));
  for (const c of cases) {
    it(c.id, () => {
      const got = computeAdvantages(c.input.rewards, c.input.groups, c.input.estimator, c.input.normalization);
      expect(got.length).toBe(c.expected.advantages.length);
      got.forEach((v, i) => expect(Math.abs(v - c.expected.advantages[i])).toBeLessThan(1e-5));
    });
  }
});

describe('advantages, hand-computed', () => {
  it('grae subtracts the group mean; group divides by the unbiased std + ε', () => {
    // group a: [1, 0] mean 0.5, unbiased sd = 0.70710678; group b: [2, 2, 5] mean 3, sd = √3
    const r = [1, 0, 2, 2, 5];
    const g = ['a', 'a', 'b', 'b', 'b'];
    expect(computeAdvantages(r, g, 'grae', 'none')).toEqual([0.5, -0.5, -1, -1, 2]);
    const grp = computeAdvantages(r, g, 'grae', 'group');
    expect(grp[0]).toBeCloseTo(0.5 / (Math.SQRT1_2 + 1e-6), 12);
    expect(grp[4]).toBeCloseTo(2 / (Math.sqrt(3) + 1e-6), 12);
  });
  it('rloo subtracts the mean of the other members', () => {
    expect(computeAdvantages([1, 0, 2, 2, 5], [0, 0, 1, 1, 1], 'rloo', 'none')).toEqual([1, -1, -1.5, -1.5, 3]);
  });
  it('batch standardizes all rollouts with one μ and σ (unbiased)', () => {
    // grae: [0.5, -0.5, -1, -1, 2], μ = 0, Σd² = 6.5, σ = √(6.5/4)
    const out = computeAdvantages([1, 0, 2, 2, 5], [0, 0, 1, 1, 1], 'grae', 'batch');
    const sd = Math.sqrt(6.5 / 4);
    [0.5, -0.5, -1, -1, 2].forEach((a, i) => expect(out[i]).toBeCloseTo(a / (sd + 1e-6), 12));
  });
  it('a group with equal rewards gets zero advantage under group normalization', () => {
    expect(computeAdvantages([0.3, 0.3, 1, 0], [0, 0, 1, 1], 'grae', 'group').slice(0, 2)).toEqual([0, 0]);
  });
});

describe('group labels are JSON values', () => {
  it('0 and "0" label two groups (each gets its own mean), and the same label always one', () => {
    const r = [1, 0, 1, 1, 0.2, 0.6];
    const mixed = computeAdvantages(r, [0, 0, 0, '0', '0', '0'], 'grae', 'none');
    const apart = computeAdvantages(r, ['a', 'a', 'a', 'b', 'b', 'b'], 'grae', 'none');
    expect(mixed).toEqual(apart);
    expect(mixed[0]).toBeCloseTo(1 / 3, 15); // 1 − mean(1, 0, 1), not 1 − mean of all six
    expect(computeAdvantages(r, [7, 7, 7, 7, 7, 7], 'grae', 'none')).toEqual(computeAdvantages(r, ['x', 'x', 'x', 'x', 'x', 'x'], 'grae', 'none'));
  });
});
