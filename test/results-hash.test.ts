import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { LIMITS } from '../src/core/config/schema';
import fc from 'fast-check';
import { Digest, explainMismatch, executorTag, resultsHash } from '../src/core/metrics/results-hash';
import { allRuns } from '../src/core/run/partition';
import { buildResult } from '../src/core/run/result';
import { CpuShard } from '../src/exec/cpu/shard';
import { planExperiment } from '../src/ui/plan';
import { pageResultsHash, shareConfig, shareFragment, type ShareInput } from '../src/ui/share';
import type { HotChange, Live } from '../src/ui/live';
import { DEFAULT_VIEW } from '../src/core/config/view';

// The results hash a permalink carries (J rounded to 1e-6, plus executor and version) and what
// the page puts in a link (the starting config plus the changes made while the run went).

const curves = [[[0.5, 0.25, 0.125]], [[1, 0.75, null]]];

describe('resultsHash', () => {
  it('property: a curve digested at once (values) is the same digest as value by value, nulls, NaN, ±∞, −0, huge and tiny values included', () => {
    const entry = fc.oneof(fc.double(), fc.double({ min: -2, max: 2 }), fc.constantFrom(null, NaN, Infinity, -Infinity, -0, 0, 9.007199254740993e9, -9.007199254740993e9, 1e300, 5e-7, -5e-7));
    fc.assert(
      fc.property(fc.array(fc.array(entry, { maxLength: 40 }), { maxLength: 5 }), (curves) => {
        const whole = new Digest();
        const oneByOne = new Digest();
        for (const J of curves) {
          whole.values(J);
          for (const v of J) oneByOne.value(v);
        }
        return whole.hex() === oneByOne.hex();
      }),
      { numRuns: 500 },
    );
  });

  const h = (c = curves, by = 'cpu', app = '0.1.0') => resultsHash(['a', 'b'], c, by, app).digest;
  it('is 12 hex digits and a function of the curves only', () => {
    expect(h()).toMatch(/^[0-9a-f]{12}$/);
    expect(h()).toBe(h(structuredClone(curves)));
  });
  it('sees a change of 1e-5 and not one of 1e-9 (values rounded to 1e-6)', () => {
    const c = structuredClone(curves);
    c[0][0][1] = 0.25 + 1e-5;
    expect(h(c)).not.toBe(h());
    c[0][0][1] = 0.25 + 1e-9;
    expect(h(c)).toBe(h());
  });
  it('null, NaN and ±Infinity are one marker (the result JSON writes all of them as null); −0 is 0', () => {
    for (const v of [NaN, Infinity, -Infinity]) {
      const c = structuredClone(curves) as (number | null)[][][];
      c[1][0][2] = v;
      expect(h(c as never)).toBe(h());
    }
    const z = structuredClone(curves) as (number | null)[][][];
    z[0][0][0] = -0;
    const p = structuredClone(curves) as (number | null)[][][];
    p[0][0][0] = 0;
    expect(h(z as never)).toBe(h(p as never));
  });
  it('depends on the executor, the version, the ids and the order of runs', () => {
    expect(h(curves, 'tensor-wasm')).not.toBe(h());
    expect(h(curves, 'cpu', '0.2.0')).not.toBe(h());
    expect(resultsHash(['a', 'c'], curves, 'cpu', '0.1.0').digest).not.toBe(h());
    expect(h([curves[1], curves[0]])).not.toBe(h());
    expect(h([[[0.5, 0.25]], curves[1]])).not.toBe(h()); // a shorter curve
  });
  it('large values keep their digits (|J| ≥ 2^32·1e-6)', () => {
    expect(h([[[5000.000001, 0, 0]], curves[1]])).not.toBe(h([[[5000.000002, 0, 0]], curves[1]]));
  });
  it('values past a double\'s 1e-6 resolution (|J| ≥ about 9e9) are told apart by their own bits, and ordinary values hash as before', () => {
    const at = (v: number) => h([[[v, 0, 0]], curves[1]]);
    const big = [1e10, 1e10 * (1 + 2 ** -50), 2e19, 3e19, 1e60, 1e100, -1e100, 1.7e308];
    expect(new Set(big.map(at)).size).toBe(big.length); // every |J| past about 2e19 gave one digest
    expect(at(1e100)).toBe(at(1e100));
    // the digest of ordinary curves is what it was (links made before keep matching)
    expect(h()).toBe('dfbbf4d16ea0');
  });
  it('explains a mismatch: other executor, other version, or a real difference', () => {
    const e = { digest: 'aaaaaaaaaaaa', by: 'cpu', app: '0.1.0' };
    expect(explainMismatch(e, { ...e })).toBeNull();
    expect(explainMismatch(e, { ...e, by: 'tensor-wasm' })).toMatch(/computed by cpu, these by tensor-wasm/);
    expect(explainMismatch(e, { ...e, app: '0.2.0' })).toMatch(/version 0\.1\.0 of the explorer, these from 0\.2\.0/);
    expect(explainMismatch(e, { ...e, digest: 'bbbbbbbbbbbb' })).toMatch(/the curves differ/);
    expect(executorTag('tensor', 'webgpu')).toBe('tensor-webgpu');
    expect(executorTag('cpu', 'wasm')).toBe('cpu');
  });
});

function finishedRun(config: Record<string, unknown>) {
  const exp = resolveConfig(config);
  const shard = new CpuShard(exp, allRuns(exp));
  while (!shard.done) shard.step();
  const plan = planExperiment(config, 1);
  const live: Live = { runs: shard.series, iteration: exp.iterations, changes: [], startConfig: structuredClone(config) };
  return { exp, shard, plan, live };
}

describe('the page and the CLI hash the same results the same way', () => {
  it('pageResultsHash (the page’s series) equals buildResult’s resultsHash (the CLI’s JSON)', () => {
    const config = { version: 1, env: { preset: 'two-prompts' }, iterations: 15, seeds: 3, algorithms: [{ id: 'seeupo' }, { id: 'grpo' }] };
    const { exp, shard, plan, live } = finishedRun(config);
    const result = buildResult(exp, plan.Jstar, shard.series, { executor: 'cpu', backend: null, executorReason: '', threads: 1, wallSeconds: 0 });
    expect(pageResultsHash(plan, live, null)).toEqual(result.resultsHash);
    expect(pageResultsHash(plan, { ...live, iteration: 14 }, null)).toBeNull(); // not finished: no hash
  });
});

describe('shareConfig: what a link of the page holds', () => {
  const start = { version: 1, env: { preset: 'lock' }, iterations: 30, changes: [{ at: 10, path: 'optimizer.lr', value: 0.1 }] };
  const input = (changes: HotChange[], draft: Record<string, unknown> = { ...start, iterations: 30 }): ShareInput => ({
    draft,
    plan: null,
    live: { runs: [], iteration: 12, changes, startConfig: start },
    view: DEFAULT_VIEW,
    embed: false,
  });
  it('without a run: the draft', () => {
    const draft = { version: 1, seeds: 3 };
    expect(shareConfig({ draft, plan: null, live: null, view: DEFAULT_VIEW, embed: false })).toEqual({ config: draft, exact: true });
  });
  it('changes made while running follow the starting config, before scheduled ones at the same iteration (the workers’ order)', () => {
    const made: HotChange[] = [
      { iteration: 10, path: 'optimizer.lr', from: 0.3, to: 0.2 },
      { iteration: 5, path: 'algorithms[0].clip', from: 0.2, to: 0.1 },
      { iteration: 10, path: 'optimizer.lr', from: 0.2, to: 0.1, scheduled: true }, // the scheduled one, as the page lists it
    ];
    const { config, exact } = shareConfig(input(made, { ...start, optimizer: { kind: 'sgd', lr: 0.2 } }));
    expect(exact).toBe(true);
    expect(config.optimizer).toBeUndefined(); // the starting config, not the draft's live value
    expect(config.changes).toEqual([
      { at: 5, path: 'algorithms[0].clip', value: 0.1 },
      { at: 10, path: 'optimizer.lr', value: 0.2 },
      { at: 10, path: 'optimizer.lr', value: 0.1 },
    ]);
  });
  it('more changes than a link carries: the starting config, marked not exact, and no hash in the fragment', () => {
    const many: HotChange[] = Array.from({ length: LIMITS.changes }, (_, i) => ({ iteration: i, path: 'optimizer.lr', from: 0.3, to: 0.3 + i / 1000 }));
    const s = input(many);
    expect(shareConfig(s)).toEqual({ config: start, exact: false });
    const fragment = shareFragment(s, { digest: '0123456789ab', by: 'cpu', app: '0.1.0' });
    expect(fragment).toContain('exact=0');
    expect(fragment).not.toContain('hash=');
  });
});
