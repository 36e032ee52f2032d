import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../src/cli/write-json';
import { resolveConfig } from '../src/core/config/resolve';
import { buildResult } from '../src/core/run/result';
import { directSeries } from './support/engine';

// The writer reads lists of numbers, but must not change how V8 stores them: a list of doubles
// turned into a list of boxed numbers (a "transition" of its elements kind) costs a number object
// per value and makes JSON.stringify slower. V8's optimizing compiler turns a read of a[i] that has
// seen both lists of doubles and other lists into such a transition, so the writer's size guess
// reads the ends of a list with Array.prototype.at (docs/architecture.md "Start-up").
setFlagsFromString('--allow-natives-syntax');
const kindOf = new Function('a', "return %HasDoubleElements(a) ? (%HasHoleyElements(a) ? 'holey double' : 'double') : %HasObjectElements(a) ? 'object' : %HasSmiElements(a) ? 'smi' : 'other'") as (a: unknown) => string;

describe('the writer leaves the lists it writes as they are stored', () => {
  it('lists of doubles stay lists of doubles while thousands of results go through the writer (its size guess optimized)', () => {
    const value = () => ({ runs: [{ J: [0.25, 0.5, 0.75], n: [1, 2, 3], names: ['a', 'b'], mixed: [1, null, 0.5] }] });
    let last = value();
    for (let i = 0; i < 20_000; i++) {
      last = value();
      for (const piece of jsonChunks(last, 1 << 20, '\n')) expect(piece.length).toBeGreaterThan(0);
    }
    expect(kindOf(last.runs[0]!.J)).toBe('double');
    expect(kindOf(last.runs[0]!.n)).toBe('smi');
  });

  it("a result's curves are packed lists of doubles (JSON.stringify's fast path), with the values of the series", () => {
    const exp = resolveConfig({ version: 1, env: { preset: 'lock' }, seeds: 2, iterations: 5, algorithms: [{ id: 'grpo' }, { id: 'seeupo' }] });
    const series = directSeries(exp);
    const result = buildResult(exp, 1, series, { executor: 'cpu', backend: null, executorReason: 'test', threads: 1, wallSeconds: 0 });
    for (const a of result.algorithms)
      for (const r of a.runs) {
        for (const curve of [r.J, r.entropy, r.kl, r.gradNorm, ...r.optimalTokenProb]) expect(kindOf(curve)).toBe('double');
      }
    const s = series.find((x) => x.algoIndex === 1 && x.seedIndex === 1)!;
    expect(result.algorithms[1]!.runs[1]!.J).toEqual(Array.from(s.J));
  });
});
