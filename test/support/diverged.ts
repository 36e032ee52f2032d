import { expect } from 'vitest';
import type { ExperimentResult, RunResult } from '../../src/core/run/result';

// What "diverged" promises in a result (series.ts, markDiverged), for test/diverged*.test.ts.

/** The property of every run of a result: no divergence and every number finite, or diverged = k and nothing from k on (updates: k − 1). */
export function expectMarked(run: RunResult, iterations: number, where = ''): void {
  const d = run.diverged;
  const at = (name: string, k: number) => `${where} ${name}[${k}] (diverged ${d})`;
  const evals = (name: string, a: (number | null)[]) => {
    expect(a.length, name).toBe(iterations + 1);
    a.forEach((v, k) => {
      if (d !== null && k >= d) expect(v, at(name, k)).toBeNull();
      else {
        expect(v, at(name, k)).not.toBeNull();
        expect(Number.isFinite(v), at(name, k)).toBe(true);
      }
    });
  };
  const updates = (name: string, a: (number | null)[]) => {
    expect(a.length, name).toBe(iterations);
    a.forEach((v, k) => {
      if (d !== null && k >= d - 1) expect(v, at(name, k)).toBeNull();
      else {
        expect(v, at(name, k)).not.toBeNull();
        expect(Number.isFinite(v), at(name, k)).toBe(true);
      }
    });
  };
  if (d !== null) {
    expect(Number.isInteger(d)).toBe(true);
    expect(d).toBeGreaterThanOrEqual(0);
    expect(d).toBeLessThanOrEqual(iterations);
  }
  evals('J', run.J);
  evals('entropy', run.entropy);
  run.optimalTokenProb.forEach((a, t) => evals(`optimalTokenProb[${t}]`, a));
  run.Jcontext?.forEach((a, x) => evals(`Jcontext[${x}]`, a));
  for (const m of ['kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm', 'wallMs'] as const) updates(m, run[m]);
}

export function expectAllMarked(r: ExperimentResult, where = ''): void {
  for (const a of r.algorithms) {
    a.runs.forEach((run, i) => {
      expectMarked(run, r.iterations, `${where} ${a.id} seed ${run.seed}`);
      expect(a.summary.diverged[i]).toBe(run.diverged);
    });
  }
}
